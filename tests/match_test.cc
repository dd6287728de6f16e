// The match runner against engines that misbehave, and its parts: the command line, time
// controls and clocks, openings, the schedule, the worker pool, the reporter and the
// statistics.
#include "absl/strings/match.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/client/engine_reply.h"
#include "tools/common/child_process.h"
#include "tools/common/json.h"
#include "tools/match/cli.h"
#include "tools/match/match_runner.h"
#include "tools/match/match_settings.h"
#include "tools/match/match_stats.h"
#include "tools/match/merge.h"
#include "tools/match/openings.h"
#include "tools/match/reporter.h"
#include "tools/match/scheduler.h"
#include "tools/match/scoreboard.h"
#include "tools/match/time_control.h"
#include "tools/match/worker_pool.h"
#include "tools/records/record_store.h"

namespace divercite {
namespace {

// A command line written as one string: its words, with FAKE standing for the fake engine.
std::vector<std::string> Args(absl::string_view line) {
  std::vector<std::string> args = absl::StrSplit(line, ' ', absl::SkipEmpty());
  for (std::string& arg : args) {
    arg = absl::StrReplaceAll(arg, {{"FAKE", DIVERCITE_FAKE_ENGINE}});
  }
  return args;
}

struct MatchOutcome {
  std::vector<GameRecord> records;
  std::string output;
  absl::Status status;
};

MatchOutcome RunMatch(std::vector<std::string> args, const std::string& records_path = "") {
  if (!records_path.empty()) {
    args.push_back("-records");
    args.push_back(records_path);
  }
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
  EXPECT_TRUE(settings.ok()) << settings.status();
  MatchOutcome outcome;
  if (!settings.ok()) return outcome;
  std::ostringstream out;
  MatchRunner runner(*settings, out);
  outcome.status = runner.Run();
  outcome.records = runner.Records();
  outcome.output = out.str();
  return outcome;
}

// A busy machine can take a while to start a process: 5 s before calling it a stall, except
// where the stall itself is tested.
std::vector<std::string> FaultMatch(const std::string& mode,
                                    const std::string& stall_seconds = "5") {
  return Args(absl::StrCat("-engine cmd=FAKE name=good arg=--mode=good",
                           " -engine cmd=FAKE name=faulty arg=--mode=", mode, " arg=--after=2",
                           " -each tc=2+0.1 -games 2 -stalltimeout ", stall_seconds,
                           " -maxmovetime 2"));
}

void ExpectFaultyLosesBoth(const MatchOutcome& outcome, Termination termination) {
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 2u) << outcome.output;
  for (const GameRecord& record : outcome.records) {
    const bool faulty_first = record.p1 == "faulty";
    EXPECT_EQ(record.result, faulty_first ? GameOutcome::kSecondWins : GameOutcome::kFirstWins)
        << record.reason;
    EXPECT_EQ(record.termination, termination)
        << TerminationText(record.termination) << ": " << record.reason;
    EXPECT_FALSE(record.reason.empty());
  }
}

TEST(MatchFaultTest, ACrashLosesAndTheEngineIsRestarted) {
  const std::string log_path = testing::TempDir() + "/crash_protocol.log";
  std::vector<std::string> args = FaultMatch("crash");
  args.insert(args.end(), {"-log", "file=" + log_path});
  const MatchOutcome outcome = RunMatch(args);
  ExpectFaultyLosesBoth(outcome, Termination::kCrash);
  // The last lines of its stderr say why: in the record's reason, the runner's text, the log.
  const std::string said =
      "its stderr ended: Traceback (most recent call last): / File \"agent.py\", line 3 / "
      "ModuleNotFoundError: No module named 'cachetools'";
  for (const GameRecord& record : outcome.records) {
    EXPECT_TRUE(absl::StrContains(record.reason, said)) << record.reason;
  }
  EXPECT_TRUE(absl::StrContains(outcome.output, "No module named 'cachetools'")) << outcome.output;
  std::ifstream log(log_path);
  const std::string logged((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(absl::StrContains(logged, said)) << logged;
}

TEST(MatchFaultTest, AHangLosesOnTime) {
  ExpectFaultyLosesBoth(RunMatch(FaultMatch("hang")), Termination::kTime);
}

TEST(MatchFaultTest, NoAnswerToIsreadyIsAStall) {
  ExpectFaultyLosesBoth(RunMatch(FaultMatch("stall", "1")), Termination::kStall);
}

TEST(MatchFaultTest, GarbageLoses) {
  ExpectFaultyLosesBoth(RunMatch(FaultMatch("garbage")), Termination::kIllegal);
}

TEST(MatchFaultTest, AnIllegalMoveLoses) {
  const MatchOutcome outcome = RunMatch(FaultMatch("illegal"));
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  EXPECT_TRUE(absl::StrContains(outcome.records[0].reason, "occupied") ||
              absl::StrContains(outcome.records[1].reason, "occupied"));
}

TEST(MatchFaultTest, AMalformedMoveLoses) {
  const MatchOutcome outcome = RunMatch(FaultMatch("malformed"));
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  EXPECT_TRUE(absl::StrContains(outcome.records[0].reason, "XX99"));
}

TEST(MatchFaultTest, TheEnginesOwnErrorIsInTheReason) {
  // An engine that cannot move says why before `bestmove (none)`: the record keeps its words.
  const MatchOutcome outcome = RunMatch(FaultMatch("explained"));
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  for (const GameRecord& record : outcome.records) {
    EXPECT_TRUE(
        absl::StrContains(record.reason, "played '(none)': move '(none)' must be 4 characters"))
        << record.reason;
    EXPECT_TRUE(absl::StrContains(record.reason, "(engine said: the fake engine gives up)"))
        << record.reason;
  }
}

// The sandbox's words for a memory limit hit, as tests/fake_engine.cc says them.
constexpr absl::string_view kMemoryLimit =
    "memory limit: its processes may use 2048 MB together (2057 MB in use)";

// Every line of the records file at `path` reads as JSON, whose strings must be valid UTF-8
// (nlohmann's parser decodes them strictly); the number of lines.
int ExpectValidRecordsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    const absl::StatusOr<Json> json = ParseJson(line);
    EXPECT_TRUE(json.ok()) << json.status() << ": " << absl::CHexEscape(line);
    ++lines;
  }
  return lines;
}

TEST(MatchFaultTest, ALimitHitLosesByLimitWithItsReasonFirst) {
  // The sandbox says its limit was hit, then `bestmove (none)`: not an illegal move.
  const std::string path = ::testing::TempDir() + "/match_limit.jsonl";
  std::filesystem::remove(path);
  const MatchOutcome outcome = RunMatch(FaultMatch("limit"), path);
  ExpectFaultyLosesBoth(outcome, Termination::kLimit);
  for (const GameRecord& record : outcome.records) {
    EXPECT_EQ(record.reason, absl::StrCat(kMemoryLimit, " (faulty)"));
  }
  EXPECT_TRUE(absl::StrContains(outcome.output, absl::StrCat("{limit: ", kMemoryLimit)))
      << outcome.output;
  EXPECT_EQ(ExpectValidRecordsFile(path), 2);
  const absl::StatusOr<std::vector<GameRecord>> read = ReadRecords(path);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].termination, Termination::kLimit);
}

TEST(MatchFaultTest, ALimitHitThenAnExitLosesByLimitNotByACrash) {
  const MatchOutcome outcome = RunMatch(FaultMatch("limit-exit"));
  ExpectFaultyLosesBoth(outcome, Termination::kLimit);
  for (const GameRecord& record : outcome.records) {
    EXPECT_TRUE(absl::StartsWith(record.reason, absl::StrCat(kMemoryLimit, " (faulty exited: ")))
        << record.reason;
    EXPECT_TRUE(absl::StrContains(record.reason, "its stderr ended: ")) << record.reason;
    EXPECT_TRUE(absl::StrContains(record.reason, "MemoryError")) << record.reason;
  }
}

TEST(MatchFaultTest, ALimitHitAtTheStartLosesByLimit) {
  const MatchOutcome outcome = RunMatch(FaultMatch("limit-start"));
  ExpectFaultyLosesBoth(outcome, Termination::kLimit);
  for (const GameRecord& record : outcome.records) {
    EXPECT_EQ(record.reason,
              "processes limit: its processes may be 64 at most (faulty, before its 'uciok')");
  }
}

TEST(MatchFaultTest, BytesThatAreNotUtf8OnStderrReachTheRecordAsValidText) {
  const std::string path = ::testing::TempDir() + "/match_bad_utf8.jsonl";
  std::filesystem::remove(path);
  const MatchOutcome outcome = RunMatch(FaultMatch("bad-utf8"), path);
  ExpectFaultyLosesBoth(outcome, Termination::kCrash);
  const std::string replacement = "\xef\xbf\xbd";  // U+FFFD
  for (const GameRecord& record : outcome.records) {
    // The tail's cut fell inside an 'é': it starts at the next one, not at a replacement.
    EXPECT_TRUE(absl::StrContains(record.reason, "its stderr ended: \xc3\xa9\xc3\xa9"))
        << absl::CHexEscape(record.reason);
    // One U+FFFD for each maximal ill-formed part, as Unicode (and Python) replace them.
    EXPECT_TRUE(absl::EndsWith(
        record.reason, absl::StrCat(" stray ", replacement, " byte, cut ", replacement,
                                    " sequence, surrogate ", replacement, replacement, replacement,
                                    ", overlong ", replacement, replacement, replacement)))
        << absl::CHexEscape(record.reason);
  }
  EXPECT_EQ(ExpectValidRecordsFile(path), 2);
}

TEST(MatchFaultTest, BytesThatAreNotUtf8InAnAnswerReachTheRecordAsValidText) {
  const std::string path = ::testing::TempDir() + "/match_bad_utf8_move.jsonl";
  std::filesystem::remove(path);
  const MatchOutcome outcome = RunMatch(FaultMatch("bad-utf8-move"), path);
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  for (const GameRecord& record : outcome.records) {
    EXPECT_TRUE(absl::StartsWith(record.reason, "faulty played '\xef\xbf\xbd\xef\xbf\xbd(none)': "))
        << absl::CHexEscape(record.reason);
    EXPECT_TRUE(
        absl::EndsWith(record.reason, "(engine said: caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd)"))
        << absl::CHexEscape(record.reason);
  }
  EXPECT_EQ(ExpectValidRecordsFile(path), 2);
}

TEST(EngineTextTest, ValidUtf8ReplacesEachMaximalIllFormedPartAsUnicodeSays) {
  const std::string r = "\xef\xbf\xbd";  // U+FFFD
  // Unicode's example (chapter 3, "U+FFFD Substitution of Maximal Subparts"), and Python's
  // bytes.decode("utf-8", "replace") for each of the others.
  EXPECT_EQ(ValidUtf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            absl::StrCat("a", r, r, r, "b", r, "c", r, r, "d"));
  EXPECT_EQ(ValidUtf8("\xed\xa0\x80"), absl::StrCat(r, r, r));         // a surrogate
  EXPECT_EQ(ValidUtf8("\xc0\xaf"), absl::StrCat(r, r));                // overlong
  EXPECT_EQ(ValidUtf8("\xe0\x80\xaf"), absl::StrCat(r, r, r));         // overlong
  EXPECT_EQ(ValidUtf8("\xf4\x90\x80\x80"), absl::StrCat(r, r, r, r));  // past U+10FFFF
  EXPECT_EQ(ValidUtf8("\xf0\x9f\x98"), r);                             // cut short
  EXPECT_EQ(ValidUtf8("\xf0\x9f\x98x"), absl::StrCat(r, "x"));
  EXPECT_EQ(ValidUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
  // Valid text is returned as it is, up to the last code point and the noncharacters.
  for (const char* text : {"", "ascii", "\xc3\xa9t\xc3\xa9", "\xe5\xbc\x95", "\xf0\x9f\x98\x8e",
                           "\xf4\x8f\xbf\xbf", "\xef\xbf\xbf", "\xed\x9f\xbf"}) {
    EXPECT_EQ(ValidUtf8(text), text) << absl::CHexEscape(text);
  }
}

TEST(EngineTextTest, TheStderrTailIsBoundedAndNeverStartsInsideASequence) {
  // 2100 'é' (4200 bytes, more than the 4096 kept) and an 'x', in many writes: what is kept
  // is cut at its front, and again by a tail's size, each time within an 'é'.
  absl::StatusOr<std::unique_ptr<ChildProcess>> process = ChildProcess::Start(
      {"sh", "-c",
       "i=0; while [ $i -lt 2100 ]; do printf '\\303\\251' >&2; i=$((i+1)); done; printf x >&2"});
  ASSERT_TRUE(process.ok()) << process.status();
  ASSERT_TRUE((*process)->WaitForExit(absl::Seconds(30)).has_value());
  for (const size_t max_bytes : {size_t{10000}, size_t{401}, size_t{400}}) {
    const std::string tail = (*process)->StderrTail(max_bytes, absl::Seconds(5));
    EXPECT_LE(tail.size(), std::min<size_t>(max_bytes, 4096));
    EXPECT_GE(tail.size(), std::min<size_t>(max_bytes, 4096) - 3);
    EXPECT_TRUE(absl::StartsWith(tail, "\xc3\xa9")) << max_bytes;
    EXPECT_TRUE(absl::EndsWith(tail, "\xc3\xa9x")) << max_bytes;
    EXPECT_EQ(ValidUtf8(tail), tail) << max_bytes;
    EXPECT_FALSE(absl::StrContains(tail, "\xef\xbf\xbd")) << max_bytes;
  }
}

TEST(EngineTextTest, TheReplyKeepsTheLastLimitLine) {
  ReplyReader reader;
  EXPECT_EQ(reader.Read("info string limit: processes limit: 64 at most"),
            ReplyReader::Step::kMore);
  EXPECT_EQ(reader.Read(absl::StrCat("info string limit: ", kMemoryLimit, "  ")),
            ReplyReader::Step::kMore);
  EXPECT_EQ(reader.Read("bestmove (none)"), ReplyReader::Step::kBestmove);
  EXPECT_EQ(reader.reply().limit, std::string(kMemoryLimit));
  EXPECT_TRUE(reader.reply().error.empty());
  ReplyReader bare;
  EXPECT_EQ(bare.Read("info string limit:"), ReplyReader::Step::kMore);
  EXPECT_EQ(bare.reply().limit, "");
  EXPECT_FALSE(ReplyReader().reply().limit.has_value());
}

TEST(MatchFaultTest, AnEngineThatCannotStartLoses) {
  std::vector<std::string> args = FaultMatch("good");
  args[5] = "cmd=/nonexistent/engine";
  ExpectFaultyLosesBoth(RunMatch(args), Termination::kCrash);
}

TEST(MatchFaultTest, OverTheClockLosesOnTime) {
  const std::vector<std::string> args = Args(
      "-engine cmd=FAKE name=good arg=--mode=good -engine cmd=FAKE name=faulty "
      "arg=--mode=slow arg=--delay_ms=150 -each tc=0.5 -games 2");
  ExpectFaultyLosesBoth(RunMatch(args), Termination::kTime);
}

TEST(MatchTest, GoodEnginesFinishEveryGameWithEveryMoveRecorded) {
  const std::string path = ::testing::TempDir() + "/match_good.jsonl";
  std::filesystem::remove(path);
  const std::vector<std::string> args = Args(
      "-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 -games 2 -rounds 2 "
      "-repeat -openings random plies=3 -concurrency 2 -seed 7");
  const MatchOutcome outcome = RunMatch(args, path);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 4u);
  for (const GameRecord& record : outcome.records) {
    EXPECT_EQ(record.termination, Termination::kNormal);
    EXPECT_EQ(record.moves.size(), 40u - 3u);
    EXPECT_EQ(record.opening, outcome.records[record.game / 2 * 2].opening) << "paired openings";
  }
  EXPECT_NE(outcome.records[0].p1, outcome.records[1].p1) << "colours swapped in a pair";
  EXPECT_TRUE(absl::StrContains(outcome.output, "Ptnml(0-2): ["));
  // Every line of the records file is one JSON game with the promised fields.
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    absl::StatusOr<Json> json = ParseJson(line);
    ASSERT_TRUE(json.ok()) << json.status();
    for (const char* key : {"p1", "p2", "result", "termination", "opening", "moves", "final"}) {
      EXPECT_NE(FindJsonMember(*json, key), nullptr) << key;
    }
    ++lines;
  }
  EXPECT_EQ(lines, 4);
}

TEST(MatchTest, OneGamePerRoundStillAlternatesColoursAndPairsOpenings) {
  // -games 1 -rounds N -repeat once gave every game to the same first player.
  std::vector<std::string> args = Args(
      "-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 -games 1 -rounds 4 "
      "-repeat -openings random plies=4 -concurrency 2 -seed 11");
  const MatchOutcome outcome = RunMatch(args);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 4u);
  for (int game = 0; game < 4; ++game) {
    EXPECT_EQ(outcome.records[game].p1, game % 2 == 0 ? "one" : "two") << "game " << game;
  }
  EXPECT_EQ(outcome.records[0].opening, outcome.records[1].opening);
  EXPECT_EQ(outcome.records[2].opening, outcome.records[3].opening);
  EXPECT_NE(outcome.records[0].opening, outcome.records[2].opening);
  EXPECT_EQ(outcome.records[0].pair, outcome.records[1].pair);
  EXPECT_NE(outcome.records[1].pair, outcome.records[2].pair);

  // Without -repeat, colours alternate too, each game on its own opening.
  args.erase(std::find(args.begin(), args.end(), "-repeat"));
  const MatchOutcome unpaired = RunMatch(args);
  ASSERT_TRUE(unpaired.status.ok()) << unpaired.status;
  ASSERT_EQ(unpaired.records.size(), 4u);
  EXPECT_EQ(unpaired.records[0].p1, "one");
  EXPECT_EQ(unpaired.records[1].p1, "two");
  EXPECT_NE(unpaired.records[0].opening, unpaired.records[1].opening);
}

TEST(MatchTest, AnInterruptedMatchResumesWithoutReplayingFinishedGames) {
  const std::string path = ::testing::TempDir() + "/match_resume.jsonl";
  std::filesystem::remove(path);
  const std::vector<std::string> args = Args(
      "-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 -games 2 -rounds 2 "
      "-repeat");
  ASSERT_EQ(RunMatch(args, path).records.size(), 4u);
  // Keep the first two games and half of the third line, as an interrupted run would.
  std::ifstream in(path);
  std::string first, second, third;
  std::getline(in, first);
  std::getline(in, second);
  std::getline(in, third);
  in.close();
  std::ofstream(path, std::ios::trunc) << first << '\n'
                                       << second << '\n'
                                       << third.substr(0, third.size() / 2);
  const MatchOutcome resumed = RunMatch(args, path);
  ASSERT_TRUE(resumed.status.ok()) << resumed.status;
  EXPECT_TRUE(absl::StrContains(resumed.output, "Resuming: 2 of 4")) << resumed.output;
  EXPECT_EQ(resumed.records.size(), 4u);
  int finished_lines = 0;
  for (size_t at = 0; (at = resumed.output.find("Finished game", at)) != std::string::npos; ++at) {
    ++finished_lines;
  }
  EXPECT_EQ(finished_lines, 2) << "only the two missing games are played";
}

TEST(MatchTest, ResumingWithOtherOpeningsIsRefusedAndKeepsTheRecords) {
  const std::string path = ::testing::TempDir() + "/match_resume_seed.jsonl";
  std::filesystem::remove(path);
  const std::string match =
      "-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 -games 4 -repeat "
      "-openings random plies=2 -seed ";
  ASSERT_EQ(RunMatch(Args(match + "3"), path).records.size(), 4u);
  std::ifstream in(path);
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  in.close();
  std::ofstream(path, std::ios::trunc) << first << '\n' << second << '\n';

  const MatchOutcome other_seed = RunMatch(Args(match + "4"), path);
  ASSERT_FALSE(other_seed.status.ok());
  EXPECT_TRUE(absl::StrContains(other_seed.status.message(), "holds game 1 from opening"))
      << other_seed.status;
  std::ifstream kept(path);
  std::string line;
  int lines = 0;
  while (std::getline(kept, line)) ++lines;
  EXPECT_EQ(lines, 2) << "the refused run writes nothing";

  const MatchOutcome same_seed = RunMatch(Args(match + "3"), path);
  ASSERT_TRUE(same_seed.status.ok()) << same_seed.status;
  EXPECT_EQ(same_seed.records.size(), 4u);
}

TEST(MatchSettingsTest, RejectsBadCommandLinesWithTheReason) {
  const std::string engine = "cmd=" + std::string(DIVERCITE_FAKE_ENGINE);
  auto error = [](std::vector<std::string> args) {
    absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
    return settings.ok() ? std::string("accepted") : std::string(settings.status().message());
  };
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "tc=1"}), "at least two"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "-engine", engine}), "no time control"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "tc=x", "-engine", engine}), "tc=x"));
  EXPECT_TRUE(absl::StrContains(
      error({"-engine", engine, "name=a", "-engine", engine, "name=a", "-each", "tc=1"}),
      "two engines are named 'a'"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "colour=red"}), "unknown engine"));
  EXPECT_TRUE(absl::StrContains(error({"-frobnicate"}), "unknown argument"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "name=a", "-engine", engine, "name=b",
                                       "-each", "tc=1", "-sprt", "elo0=5", "elo1=0"}),
                                "elo0 < elo1"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "name=a", "-engine", engine, "name=b",
                                       "-engine", engine, "name=c", "-each", "tc=1"}),
                                "roundrobin"));
  const absl::StatusOr<TimeControl> course = ParseTimeControl("tc", "900");
  ASSERT_TRUE(course.ok());
  EXPECT_EQ(course->base_ms, 900000);
  EXPECT_EQ(course->increment_ms, 0);
  const absl::StatusOr<TimeControl> fast = ParseTimeControl("tc", "10+0.1");
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->base_ms, 10000);
  EXPECT_EQ(fast->increment_ms, 100);
}

TEST(MatchStatsTest, EloAndErrorsOnKnownCounts) {
  EXPECT_NEAR(EloFromScore(0.5), 0, 1e-9);
  EXPECT_NEAR(EloFromScore(0.75), 190.85, 0.01);
  EXPECT_NEAR(ScoreFromElo(EloFromScore(0.6)), 0.6, 1e-12);
  const EloEstimate even = Estimate(Tally{50, 0, 50});
  EXPECT_NEAR(even.elo, 0, 1e-9);
  EXPECT_NEAR(even.los, 0.5, 1e-9);
  // 100 games, 60-0-40: score 0.6, sd per game 0.49, stderr 0.049.
  const EloEstimate better = Estimate(Tally{60, 0, 40});
  EXPECT_NEAR(better.elo, 70.44, 0.01);
  EXPECT_NEAR(better.error95,
              (EloFromScore(0.6 + 1.959964 * 0.04899) - EloFromScore(0.6 - 1.959964 * 0.04899)) / 2,
              0.05);
  EXPECT_GT(better.los, 0.97);
  EXPECT_NEAR(Estimate(Tally{10, 80, 10}).draw_ratio, 0.8, 1e-12);
  const EloEstimate pairs = Estimate(Pentanomial{0, 10, 20, 10, 0});
  EXPECT_NEAR(pairs.elo, 0, 1e-9);
}

TEST(MatchStatsTest, AllGamesAlikeGiveNoFiniteIntervalAndACertainLos) {
  const EloEstimate sweep = Estimate(Pentanomial{0, 0, 0, 0, 3});  // 6 wins out of 6
  EXPECT_TRUE(std::isinf(sweep.elo) && sweep.elo > 0);
  EXPECT_TRUE(std::isinf(sweep.error95));
  EXPECT_DOUBLE_EQ(sweep.los, 1.0);
  const EloEstimate level = Estimate(Tally{.wins = 0, .draws = 4, .losses = 0});
  EXPECT_DOUBLE_EQ(level.elo, 0.0);
  EXPECT_DOUBLE_EQ(level.los, 0.5);
  EXPECT_TRUE(std::isinf(level.error95));
  const EloEstimate pairs_alike = Estimate(Pentanomial{0, 0, 5, 0, 0});  // every pair 1-1
  EXPECT_DOUBLE_EQ(pairs_alike.los, 0.5);
}

TEST(MatchStatsTest, SprtDecides) {
  const SprtParameters parameters{0, 10, 0.05, 0.05};
  EXPECT_EQ(Sprt(parameters, Tally{600, 0, 400}, nullptr).decision, SprtDecision::kAcceptH1);
  EXPECT_EQ(Sprt(parameters, Tally{400, 0, 600}, nullptr).decision, SprtDecision::kAcceptH0);
  EXPECT_EQ(Sprt(parameters, Tally{3, 0, 2}, nullptr).decision, SprtDecision::kContinue);
  const SprtState state = Sprt(parameters, Tally{3, 0, 2}, nullptr);
  EXPECT_NEAR(state.lower, std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(state.upper, std::log(0.95 / 0.05), 1e-12);
}

TEST(MatchStatsTest, BradleyTerryOrdersAndSeparatesPlayers) {
  // A beats B 3:1, B beats C 3:1, A beats C 4:0.
  const std::vector<std::vector<double>> points = {{0, 3, 4}, {1, 0, 3}, {0, 1, 0}};
  const std::vector<std::vector<int>> games = {{0, 4, 4}, {4, 0, 4}, {4, 4, 0}};
  const std::vector<double> elo = BradleyTerryElo(points, games);
  EXPECT_GT(elo[0], elo[1]);
  EXPECT_GT(elo[1], elo[2]);
  EXPECT_NEAR(elo[0] + elo[1] + elo[2], 0, 1e-6);
}

TEST(MatchStatsTest, BradleyTerryIntervalsFollowTheInformation) {
  // Two engines, 99 games at 50 %: with the virtual draw, 100 comparisons at p = 1/2, so each
  // rating (half the difference) has variance 1/100 in natural units.
  const std::vector<std::vector<double>> even_points = {{0, 49.5}, {49.5, 0}};
  const std::vector<std::vector<int>> even_games = {{0, 99}, {99, 0}};
  const std::vector<double> even =
      BradleyTerryIntervals(even_games, BradleyTerryElo(even_points, even_games));
  const double expected = 1.959964 * 400 / std::log(10.0) * 0.1;
  EXPECT_NEAR(even[0], expected, 1e-6);
  EXPECT_NEAR(even[1], expected, 1e-6);
  // Four times the games, half the width.
  const std::vector<std::vector<double>> more_points = {{0, 199.5}, {199.5, 0}};
  const std::vector<std::vector<int>> more_games = {{0, 399}, {399, 0}};
  EXPECT_NEAR(BradleyTerryIntervals(more_games, BradleyTerryElo(more_points, more_games))[0],
              expected / 2, 1e-6);
  // An engine that never played, and two pairs that never met: unbounded.
  const std::vector<std::vector<double>> alone_points = {{0, 3, 0}, {1, 0, 0}, {0, 0, 0}};
  const std::vector<std::vector<int>> alone_games = {{0, 4, 0}, {4, 0, 0}, {0, 0, 0}};
  for (double width :
       BradleyTerryIntervals(alone_games, BradleyTerryElo(alone_points, alone_games))) {
    EXPECT_TRUE(std::isinf(width));
  }
  const std::vector<std::vector<int>> apart = {
      {0, 4, 0, 0}, {4, 0, 0, 0}, {0, 0, 0, 4}, {0, 0, 4, 0}};
  const std::vector<std::vector<double>> apart_points = {
      {0, 3, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 2}, {0, 0, 2, 0}};
  for (double width : BradleyTerryIntervals(apart, BradleyTerryElo(apart_points, apart))) {
    EXPECT_TRUE(std::isinf(width));
  }
}

// The command line: the error texts name the argument, as they always have.
TEST(MatchCliTest, ErrorTextsAreExact) {
  auto error = [](std::vector<std::string> args) {
    absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
    return settings.ok() ? std::string("accepted") : std::string(settings.status().message());
  };
  // After a valid two-engine command line.
  auto with = [&](absl::string_view more) {
    return error(
        Args(absl::StrCat("-engine cmd=e name=a -engine cmd=e name=b -each depth=1 ", more)));
  };
  EXPECT_EQ(with("-games"), "-games takes exactly one value");
  EXPECT_EQ(with("-games 2 3"), "-games takes exactly one value");
  EXPECT_EQ(with("-rounds -1"), "-rounds takes exactly one value");
  EXPECT_EQ(with("-concurrency 1.5"), "-concurrency 1.5: expected a positive integer");
  EXPECT_EQ(with("-seed abc"), "-seed abc: expected an integer");
  EXPECT_EQ(with("-stalltimeout x"), "-stalltimeout=x: expected a number of seconds");
  EXPECT_EQ(with("-repeat stray"), "unknown argument 'stray'");
  EXPECT_EQ(with("stray"), "-each 'stray': expected KEY=VALUE");
  EXPECT_EQ(with("-openings random plies=40"), "-openings random plies=40: plies must be 0 to 39");
  EXPECT_EQ(with("-openings rand plies=2"), "-openings: expected 'file=PATH' or 'random plies=N'");
  EXPECT_EQ(with("-sprt gamma=1"), "-sprt gamma=1: unknown key (elo0, elo1, alpha, beta)");
  EXPECT_EQ(with("-sprt elo0"), "-sprt elo0: expected KEY=NUMBER");
  EXPECT_EQ(with("-tournament swiss"), "-tournament swiss: expected 'roundrobin' or 'gauntlet'");
  EXPECT_EQ(with("--help"), "unknown argument '--help'");
  EXPECT_EQ(error({"-engine", "cmd=e", "=red"}), "-engine '=red': expected KEY=VALUE");
  EXPECT_EQ(error({"-engine", "name=a", "tc=1", "-engine", "cmd=e", "tc=1"}),
            "engine 1 has no cmd=");
  EXPECT_EQ(error({"-engine", "cmd=e", "-engine", "cmd=e", "-each", "tc=1+2+3"}),
            "-each tc=1+2+3: expected BASE or BASE+INC");
  EXPECT_EQ(error({"-engine", "cmd=e", "depth=0", "-engine", "cmd=e"}),
            "-engine depth 0: expected a positive integer");
  EXPECT_EQ(error({"-engine", "cmd=e", "name=a", "-engine", "cmd=e", "name=b", "-engine", "cmd=e",
                   "name=c", "-each", "tc=1", "-tournament", "roundrobin", "-sprt"}),
            "-sprt needs exactly two engines");
}

TEST(MatchCliTest, EachFillsInWhatAnEngineLeftOut) {
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(
      Args("-engine cmd=one arg=x option.A=1 tc=3+0.1 -engine st=0.2 option.B=y "
           "-each cmd=each arg=z option.C=3 option.A=9 option.D=4 depth=5 name=ignored "
           "-games 3 -repeat -seed 42 -maxmovetime 1.5"));
  ASSERT_TRUE(settings.ok()) << settings.status();
  const EngineSpec& one = settings->engines[0];
  const EngineSpec& two = settings->engines[1];
  EXPECT_EQ(one.config.name, "one") << "the command names an engine without name=";
  EXPECT_EQ(two.config.name, "each");
  EXPECT_EQ(one.config.arguments, std::vector<std::string>{"x"});
  EXPECT_EQ(two.config.arguments, std::vector<std::string>{"z"});
  EXPECT_EQ(one.time_control.text, "tc=3+0.1");
  EXPECT_EQ(two.time_control.text, "st=0.2");
  // -each's options go first, in reverse order; the engine's own win.
  using Options = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(one.config.options, (Options{{"D", "4"}, {"C", "3"}, {"A", "1"}}));
  EXPECT_EQ(two.config.options, (Options{{"D", "4"}, {"A", "9"}, {"C", "3"}, {"B", "y"}}));
  EXPECT_EQ(settings->games, 3);
  EXPECT_TRUE(settings->repeat);
  EXPECT_EQ(settings->seed, 42u);
  EXPECT_EQ(settings->max_move_time, absl::Milliseconds(1500));
  EXPECT_EQ(settings->stall_timeout, absl::Seconds(10));
}

TEST(MatchCliTest, WarnsWhenTheGamesAtOnceNeedMoreThreadsThanCores) {
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(
      Args("-engine cmd=a option.Threads=1 tc=5 -engine cmd=b option.threads=2 tc=5 "
           "-concurrency 2"));
  ASSERT_TRUE(settings.ok()) << settings.status();
  EXPECT_EQ(OversubscriptionWarning(*settings, 2),
            "-concurrency 2 with Threads=2 (b) asks for up to 4 threads on 2 cores: the "
            "engines will share cores and lose time on their clocks");
  EXPECT_EQ(OversubscriptionWarning(*settings, 4), "");
  settings->concurrency = 1;
  EXPECT_EQ(OversubscriptionWarning(*settings, 2), "") << "one game at a time fits";
  settings = ParseMatchSettings(Args("-engine cmd=a tc=5 -engine cmd=b tc=5 -concurrency 3"));
  ASSERT_TRUE(settings.ok()) << settings.status();
  EXPECT_EQ(OversubscriptionWarning(*settings, 2),
            "-concurrency 3 with Threads=1 asks for up to 3 threads on 2 cores: the engines "
            "will share cores and lose time on their clocks");
  EXPECT_EQ(OversubscriptionWarning(*settings, 0), "") << "cores unknown: no warning";
}

TEST(TimeControlTest, ParsesEveryKind) {
  EXPECT_EQ(ParseTimeControl("tc", "inf")->kind, TimeControl::Kind::kUnlimited);
  EXPECT_EQ(ParseTimeControl("st", "0.25")->movetime_ms, 250);
  EXPECT_EQ(ParseTimeControl("depth", "7")->depth, 7);
  EXPECT_EQ(ParseTimeControl("nodes", "5000")->nodes, 5000u);
  EXPECT_EQ(ParseTimeControl("tc", "0").status().message(), "tc=0: the base time must be positive");
  EXPECT_EQ(ParseTimeControl("st", "0").status().message(), "st=0: must be positive");
  EXPECT_EQ(ParseTimeControl("nodes", "-5").status().message(),
            "nodes=-5: expected a positive integer");
  EXPECT_EQ(ParseTimeControl("tc", "1+x").status().message(), "tc=x: expected a number of seconds");
}

TEST(GameClockTest, GoLinesAndDeadlinesFollowEachSidesTimeControl) {
  const TimeControl clock = *ParseTimeControl("tc", "3+0.1");
  const TimeControl movetime = *ParseTimeControl("st", "0.2");
  const absl::Duration max_move_time = absl::Seconds(7);
  GameClock game(clock, movetime, max_move_time);
  // The other side's clock shows 0 when it has none.
  EXPECT_EQ(game.GoLine(0), "go wtime 3000 btime 0 winc 100 binc 0");
  EXPECT_EQ(game.GoLine(1), "go movetime 200");
  EXPECT_EQ(game.Deadline(0), absl::Milliseconds(3000 + 100)) << "the clock and a grace";
  EXPECT_EQ(game.Deadline(1), absl::Milliseconds(200 + 500)) << "the move time and a margin";
  EXPECT_EQ(game.Charge(0, absl::Microseconds(1200999), "a"), std::nullopt);
  EXPECT_EQ(game.GoLine(0), "go wtime 1900 btime 0 winc 100 binc 0") << "1200 ms used, +100";
  EXPECT_EQ(game.Deadline(0), absl::Milliseconds(2000));
  EXPECT_EQ(game.Charge(1, absl::Milliseconds(700), "b"), std::nullopt) << "within the margin";
  EXPECT_EQ(game.Charge(1, absl::Milliseconds(701), "b"), "b used 701 ms for a 200 ms move");
  EXPECT_EQ(game.Charge(0, absl::Milliseconds(2000), "a"), "a used 2000 ms with 1900 ms left");
  EXPECT_EQ(game.GoLine(0), "go wtime 0 btime 0 winc 100 binc 0") << "never negative";

  GameClock other(*ParseTimeControl("depth", "3"), *ParseTimeControl("tc", "inf"), max_move_time);
  EXPECT_EQ(other.GoLine(0), "go depth 3");
  EXPECT_EQ(other.GoLine(1), "go");
  EXPECT_EQ(other.Deadline(0), max_move_time);
  EXPECT_EQ(other.Deadline(1), max_move_time);
  EXPECT_EQ(other.Charge(1, absl::Seconds(100), "b"), std::nullopt);
  EXPECT_EQ(GameClock(*ParseTimeControl("nodes", "900"), clock, max_move_time).GoLine(0),
            "go nodes 900");
}

TEST(OpeningsTest, ReadsEveryFormOfALine) {
  const absl::StatusOr<Opening> moves = ParseOpening("  RR62 RC43 GR46 ");
  ASSERT_TRUE(moves.ok()) << moves.status();
  EXPECT_EQ(moves->text, "RR62 RC43 GR46");
  EXPECT_EQ(moves->start_string, "startpos");
  EXPECT_EQ(moves->moves, (std::vector<std::string>{"RR62", "RC43", "GR46"}));
  EXPECT_EQ(ParseOpening("startpos moves RR62")->moves, std::vector<std::string>{"RR62"});
  EXPECT_TRUE(ParseOpening("startpos")->moves.empty());
  const absl::StatusOr<Opening> fen = ParseOpening("1/1R1/5/7/9/7/5/3/1 b moves RC43");
  ASSERT_TRUE(fen.ok()) << fen.status();
  EXPECT_EQ(fen->start_string, "fen 1/1R1/5/7/9/7/5/3/1 b");
  EXPECT_EQ(fen->moves, std::vector<std::string>{"RC43"});
  EXPECT_EQ(ParseOpening("1/3/5/7/9/7/5/3/1").status().message(),
            "opening '1/3/5/7/9/7/5/3/1': missing the side");
  EXPECT_TRUE(absl::StartsWith(ParseOpening("startpos moves ZZ99").status().message(),
                               "opening 'startpos moves ZZ99': "));
}

TEST(OpeningsTest, RandomOpeningsAreReproducibleAndAPrefixOfMore) {
  MatchSettings settings;
  settings.random_opening_plies = 3;
  settings.seed = 5;
  const absl::StatusOr<std::vector<Opening>> few = LoadOpenings(settings, 2);
  const absl::StatusOr<std::vector<Opening>> more = LoadOpenings(settings, 5);
  ASSERT_TRUE(few.ok() && more.ok());
  ASSERT_EQ(few->size(), 2u);
  ASSERT_EQ(more->size(), 5u);
  for (int k = 0; k < 2; ++k) EXPECT_EQ((*few)[k].text, (*more)[k].text);
  EXPECT_EQ((*more)[0].moves.size(), 3u);
  EXPECT_NE((*more)[0].text, (*more)[1].text);
  settings.openings_file = "/nonexistent/openings";
  EXPECT_EQ(LoadOpenings(settings, 2).status().message(), "cannot read /nonexistent/openings");
}

// The schedules of the runner before it was split into units (generated from that code).
struct ScheduleCase {
  int openings;
  std::string args;
  std::vector<ScheduledGame> games;
};

TEST(SchedulerTest, SchedulesAsBefore) {
  const std::string two = "-engine cmd=x name=a -engine cmd=x name=b -each tc=1 ";
  const std::string three = two + "-engine cmd=x name=c -tournament roundrobin ";
  const std::string four = three + "-engine cmd=x name=d ";
  const std::vector<ScheduleCase> cases = {
      {6,
       two + "-games 2 -rounds 3 -repeat",
       {{0, 0, 0, 0, 1, 0},
        {1, 0, 0, 1, 0, 0},
        {2, 1, 1, 0, 1, 1},
        {3, 1, 1, 1, 0, 1},
        {4, 2, 2, 0, 1, 2},
        {5, 2, 2, 1, 0, 2}}},
      {6,
       two + "-games 3 -rounds 2",
       {{0, 0, -1, 0, 1, 0},
        {1, 0, -1, 1, 0, 1},
        {2, 0, -1, 0, 1, 2},
        {3, 1, -1, 1, 0, 3},
        {4, 1, -1, 0, 1, 4},
        {5, 1, -1, 1, 0, 5}}},
      {4,
       two + "-games 1 -rounds 4 -repeat",
       {{0, 0, 0, 0, 1, 0}, {1, 1, 0, 1, 0, 0}, {2, 2, 1, 0, 1, 1}, {3, 3, 1, 1, 0, 1}}},
      {6,
       two + "-games 3 -rounds 2 -repeat",
       {{0, 0, 0, 0, 1, 0},
        {1, 0, 0, 1, 0, 0},
        {2, 0, 1, 0, 1, 1},
        {3, 1, 1, 1, 0, 1},
        {4, 1, 2, 0, 1, 2},
        {5, 1, 2, 1, 0, 2}}},
      {12,
       three + "-games 2 -rounds 2 -repeat",
       {{0, 0, 0, 0, 1, 0},
        {1, 0, 0, 1, 0, 0},
        {2, 0, 1, 0, 2, 1},
        {3, 0, 1, 2, 0, 1},
        {4, 0, 2, 1, 2, 2},
        {5, 0, 2, 2, 1, 2},
        {6, 1, 3, 0, 1, 3},
        {7, 1, 3, 1, 0, 3},
        {8, 1, 4, 0, 2, 4},
        {9, 1, 4, 2, 0, 4},
        {10, 1, 5, 1, 2, 5},
        {11, 1, 5, 2, 1, 5}}},
      {12,
       four + "-games 1 -rounds 2",
       {{0, 0, -1, 0, 1, 0},
        {1, 0, -1, 0, 2, 1},
        {2, 0, -1, 0, 3, 2},
        {3, 0, -1, 1, 2, 3},
        {4, 0, -1, 1, 3, 4},
        {5, 0, -1, 2, 3, 5},
        {6, 1, -1, 1, 0, 6},
        {7, 1, -1, 2, 0, 7},
        {8, 1, -1, 3, 0, 8},
        {9, 1, -1, 2, 1, 9},
        {10, 1, -1, 3, 1, 10},
        {11, 1, -1, 3, 2, 11}}},
      // Fewer openings than games: used again from the first (an openings file).
      {3,
       three + "-games 3 -rounds 1 -repeat",
       {{0, 0, 0, 0, 1, 0},
        {1, 0, 0, 1, 0, 0},
        {2, 0, 1, 0, 1, 1},
        {3, 0, 2, 0, 2, 2},
        {4, 0, 2, 2, 0, 2},
        {5, 0, 3, 0, 2, 0},
        {6, 0, 4, 1, 2, 1},
        {7, 0, 4, 2, 1, 1},
        {8, 0, 5, 1, 2, 2}}},
      {4,
       two + "-games 2 -rounds 3",
       {{0, 0, -1, 0, 1, 0},
        {1, 0, -1, 1, 0, 1},
        {2, 1, -1, 0, 1, 2},
        {3, 1, -1, 1, 0, 3},
        {4, 2, -1, 0, 1, 0},
        {5, 2, -1, 1, 0, 1}}},
      {1,
       two + "-games 2 -rounds 2 -repeat",
       {{0, 0, 0, 0, 1, 0}, {1, 0, 0, 1, 0, 0}, {2, 1, 1, 0, 1, 0}, {3, 1, 1, 1, 0, 0}}},
  };
  for (const ScheduleCase& c : cases) {
    const absl::StatusOr<MatchSettings> settings = ParseMatchSettings(Args(c.args));
    ASSERT_TRUE(settings.ok()) << settings.status();
    const std::vector<ScheduledGame> games = Schedule(*settings, c.openings);
    EXPECT_EQ(TotalGames(*settings), static_cast<int>(c.games.size()));
    ASSERT_EQ(games.size(), c.games.size()) << c.args;
    for (size_t g = 0; g < games.size(); ++g) {
      EXPECT_TRUE(games[g] == c.games[g]) << c.args << ": game " << g;
    }
  }
}

TEST(WorkerPoolTest, PlaysInOrderFillsTheScheduleAndStopsWhenTold) {
  absl::StatusOr<MatchSettings> settings =
      ParseMatchSettings(Args("-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each depth=1 "
                              "-games 2 -rounds 2 -repeat -stalltimeout 5"));
  ASSERT_TRUE(settings.ok()) << settings.status();
  const absl::StatusOr<std::vector<Opening>> openings = LoadOpenings(*settings, 4);
  ASSERT_TRUE(openings.ok());
  const std::vector<ScheduledGame> games = Schedule(*settings, 4);
  std::vector<GameRecord> played;
  WorkerPool(*settings, *openings).Play(games, [&](const GameRecord& record) {
    played.push_back(record);
    return true;
  });
  ASSERT_EQ(played.size(), 4u);
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(played[g].game, g) << "one worker takes the games in order";
    EXPECT_EQ(played[g].round, games[g].round);
    EXPECT_EQ(played[g].pair, games[g].pair);
    EXPECT_EQ(played[g].first_engine, games[g].first);
    EXPECT_EQ(played[g].p1, games[g].first == 0 ? "one" : "two");
    EXPECT_EQ(played[g].termination, Termination::kNormal);
  }
  // Told to stop after the second game: no further game starts; with two workers, the one
  // game under way still finishes.
  for (int concurrency : {1, 2}) {
    played.clear();
    settings->concurrency = concurrency;
    WorkerPool(*settings, *openings).Play(games, [&](const GameRecord& record) {
      played.push_back(record);
      return played.size() < 2;
    });
    EXPECT_GE(played.size(), 2u);
    EXPECT_LE(played.size(), 1u + concurrency) << concurrency << " workers";
  }
}

// A finished game for the reporter's tests.
GameRecord Played(int game, int round, int pair, int first, int second,
                  const std::vector<std::string>& names, GameOutcome result,
                  Termination termination = Termination::kNormal, std::string reason = "",
                  std::string opening = "", std::vector<std::int64_t> ms = {}) {
  GameRecord record;
  record.game = game;
  record.round = round;
  record.pair = pair;
  record.first_engine = first;
  record.second_engine = second;
  record.p1 = names[first];
  record.p2 = names[second];
  record.result = result;
  record.termination = termination;
  record.reason = std::move(reason);
  record.opening = std::move(opening);
  for (std::int64_t m : ms) record.moves.push_back({"RC14", m, std::nullopt, false, std::nullopt});
  return record;
}

// What the runner prints for `records` finished in order: statistics after every game with
// -sprt, else after every `statistics_every`.
std::string Report(absl::string_view args, const std::vector<GameRecord>& records,
                   int statistics_every) {
  const absl::StatusOr<MatchSettings> settings = ParseMatchSettings(Args(args));
  EXPECT_TRUE(settings.ok()) << settings.status();
  if (!settings.ok()) return "";
  std::ostringstream out;
  Reporter reporter(*settings, TotalGames(*settings), out);
  FinishedGames finished;
  for (size_t k = 0; k < records.size(); ++k) {
    finished[records[k].game] = records[k];
    reporter.GameFinished(records[k], finished);
    if (settings->sprt || (statistics_every > 0 && (k + 1) % statistics_every == 0)) {
      reporter.Statistics(finished);
    }
  }
  return out.str();
}

const std::vector<std::string>& AlphaBeta() {
  static const auto* const kNames = new std::vector<std::string>{"alpha", "beta"};
  return *kNames;
}

// Six games of alpha and beta in three colour swaps.
std::vector<GameRecord> MatchGames() {
  const std::vector<std::string>& kAlphaBeta = AlphaBeta();
  return {
      Played(0, 0, 0, 0, 1, kAlphaBeta, GameOutcome::kFirstWins),
      Played(1, 0, 0, 1, 0, kAlphaBeta, GameOutcome::kDraw),
      Played(2, 1, 1, 0, 1, kAlphaBeta, GameOutcome::kSecondWins, Termination::kTime,
             "alpha used 120 ms with 100 ms left"),
      Played(3, 1, 1, 1, 0, kAlphaBeta, GameOutcome::kSecondWins),
      Played(4, 2, 2, 0, 1, kAlphaBeta, GameOutcome::kFirstWins, Termination::kCrash,
             "beta exited"),
      Played(5, 2, 2, 1, 0, kAlphaBeta, GameOutcome::kSecondWins),
  };
}

// The reports below are those of the runner before it was split into units.
TEST(ReporterTest, MatchWithPairsAndSprtReportsAsBefore) {
  const std::vector<GameRecord> games = MatchGames();
  EXPECT_EQ(Report("-engine cmd=x name=alpha -engine cmd=x name=beta -each tc=1 -games 2 "
                   "-rounds 3 -repeat -sprt elo0=0 elo1=50 alpha=0.1 beta=0.1",
                   {games.begin(), games.begin() + 4}, 0),
            R"(Finished game 1 of 6 (alpha vs beta): 1-0 {normal}
Score of alpha vs beta: 1 - 0 - 0  [1.000] 1
--- alpha vs beta after 1 games
Elo difference: inf +/- inf (95%, trinomial), LOS: 100.0 %, DrawRatio: 0.0 %
Games: 1, Wins: 1, Losses: 0, Draws: 0, Points: 1.0 (100.00 %)
Ptnml(0-2): [0, 0, 0, 0, 0]
LLR: 0.00 (-2.20, 2.20) [0.0, 50.0]
Finished game 2 of 6 (beta vs alpha): 1/2-1/2 {normal}
Score of alpha vs beta: 1 - 0 - 1  [0.750] 2
--- alpha vs beta after 2 games
Elo difference: 190.8 +/- inf (95%, pentanomial), LOS: 100.0 %, DrawRatio: 50.0 %
Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)
Ptnml(0-2): [0, 0, 0, 1, 0]
LLR: 0.00 (-2.20, 2.20) [0.0, 50.0]
Finished game 3 of 6 (alpha vs beta): 0-1 {time: alpha used 120 ms with 100 ms left}
Score of alpha vs beta: 1 - 1 - 1  [0.500] 3
--- alpha vs beta after 3 games
Elo difference: 190.8 +/- inf (95%, pentanomial), LOS: 100.0 %, DrawRatio: 33.3 %
Games: 3, Wins: 1, Losses: 1, Draws: 1, Points: 1.5 (50.00 %)
Ptnml(0-2): [0, 0, 0, 1, 0]
LLR: 0.00 (-2.20, 2.20) [0.0, 50.0]
Finished game 4 of 6 (beta vs alpha): 0-1 {normal}
Score of alpha vs beta: 2 - 1 - 1  [0.625] 4
--- alpha vs beta after 4 games
Elo difference: 88.7 +/- 136.3 (95%, pentanomial), LOS: 92.1 %, DrawRatio: 25.0 %
Games: 4, Wins: 2, Losses: 1, Draws: 1, Points: 2.5 (62.50 %)
Ptnml(0-2): [0, 0, 1, 1, 0]
LLR: 0.82 (-2.20, 2.20) [0.0, 50.0]
)");
}

TEST(ReporterTest, MatchAtARatingIntervalReportsAsBefore) {
  EXPECT_EQ(Report("-engine cmd=x name=alpha -engine cmd=x name=beta -each tc=1 -games 2 "
                   "-rounds 3",
                   MatchGames(), 3),
            R"(Finished game 1 of 6 (alpha vs beta): 1-0 {normal}
Score of alpha vs beta: 1 - 0 - 0  [1.000] 1
Finished game 2 of 6 (beta vs alpha): 1/2-1/2 {normal}
Score of alpha vs beta: 1 - 0 - 1  [0.750] 2
Finished game 3 of 6 (alpha vs beta): 0-1 {time: alpha used 120 ms with 100 ms left}
Score of alpha vs beta: 1 - 1 - 1  [0.500] 3
--- alpha vs beta after 3 games
Elo difference: -0.0 +/- 561.2 (95%, trinomial), LOS: 50.0 %, DrawRatio: 33.3 %
Games: 3, Wins: 1, Losses: 1, Draws: 1, Points: 1.5 (50.00 %)
Finished game 4 of 6 (beta vs alpha): 0-1 {normal}
Score of alpha vs beta: 2 - 1 - 1  [0.625] 4
Finished game 5 of 6 (alpha vs beta): 1-0 {crash: beta exited}
Score of alpha vs beta: 3 - 1 - 1  [0.700] 5
Finished game 6 of 6 (beta vs alpha): 0-1 {normal}
Score of alpha vs beta: 4 - 1 - 1  [0.750] 6
--- alpha vs beta after 6 games
Elo difference: 190.8 +/- 1219.4 (95%, trinomial), LOS: 94.6 %, DrawRatio: 16.7 %
Games: 6, Wins: 4, Losses: 1, Draws: 1, Points: 4.5 (75.00 %)
)");
}

const std::vector<std::string>& RoundRobinNames() {
  static const auto* const kNames =
      new std::vector<std::string>{"first-engine-long-name", "b", "c"};
  return *kNames;
}

// Six games of a round robin of three engines.
std::vector<GameRecord> RoundRobinGames() {
  const std::vector<std::string>& names = RoundRobinNames();
  return {
      Played(0, 0, 0, 0, 1, names, GameOutcome::kFirstWins, Termination::kNormal, "", "RC14",
             {10, 20, 30}),
      Played(1, 0, 0, 1, 0, names, GameOutcome::kDraw, Termination::kNormal, "", "RC14", {40, 50}),
      Played(2, 0, 1, 0, 2, names, GameOutcome::kSecondWins, Termination::kNormal, "", "",
             {5, 7, 9, 11}),
      Played(3, 0, 1, 2, 0, names, GameOutcome::kFirstWins, Termination::kIllegal, "played 'XX99'",
             "RC14 GR04", {100}),
      Played(4, 0, 2, 1, 2, names, GameOutcome::kFirstWins, Termination::kNormal, "", "", {1}),
      Played(5, 0, 2, 2, 1, names, GameOutcome::kSecondWins, Termination::kStall,
             "c: no 'readyok' within 1s", "", {}),
  };
}

TEST(ReporterTest, RoundRobinTableReportsAsBefore) {
  const std::vector<GameRecord> games = RoundRobinGames();
  EXPECT_EQ(Report("-engine cmd=x name=first-engine-long-name -engine cmd=x name=b "
                   "-engine cmd=x name=c -each tc=1 -games 2 -repeat -tournament roundrobin",
                   games, 3),
            R"(Finished game 1 of 6 (first-engine-long-name vs b): 1-0 {normal}
Finished game 2 of 6 (b vs first-engine-long-name): 1/2-1/2 {normal}
Finished game 3 of 6 (first-engine-long-name vs c): 0-1 {normal}
--- Round robin after 3 of 6 games (W-D-L of the row against the column)
                            c first-engine            b    score       %  Elo(BT)   ms/move
c                           -        1-0-0        0-0-0      1.0  100.0%      167       9.0
first-engine-lon        0-0-1            -        1-1-0      1.5   50.0%      -23      18.5
b                       0-0-0        0-1-1            -      0.5   25.0%     -144      30.0
Finished game 4 of 6 (c vs first-engine-long-name): 1-0 {illegal: played 'XX99'}
Finished game 5 of 6 (b vs c): 1-0 {normal}
Finished game 6 of 6 (c vs b): 0-1 {stall: c: no 'readyok' within 1s}
--- Round robin after 6 of 6 games (W-D-L of the row against the column)
                            b            c first-engine    score       %  Elo(BT)   ms/move
b                           -        2-0-0        0-1-1      2.5   62.5%       39      22.8
c                       0-0-2            -        2-0-0      2.0   50.0%        0      39.3
first-engine-lon        1-1-0        0-0-2            -      1.5   37.5%      -39      18.5
)");
}

// -ratings: the round robin table's numbers as JSON, best first, for plot_tournament.py.
void ExpectTheTablesStandings(const std::string& json) {
  const absl::StatusOr<Json> standings = ParseJson(json);
  ASSERT_TRUE(standings.ok()) << standings.status() << json;
  EXPECT_EQ((*standings)["games"], 6);
  const Json& engines = (*standings)["engines"];
  ASSERT_EQ(engines.size(), 3u) << json;
  const std::vector<std::string> names = {"b", "c", "first-engine-long-name"};
  const std::vector<double> elo = {39, 0, -39}, points = {2.5, 2, 1.5}, ms = {22.75, 39.33, 18.5};
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(engines[k]["name"], names[k]) << json;
    EXPECT_NEAR(engines[k]["elo"].get<double>(), elo[k], 0.5) << json;
    EXPECT_EQ(engines[k]["points"].get<double>(), points[k]) << json;
    EXPECT_EQ(engines[k]["games"], 4) << json;
    EXPECT_EQ(engines[k]["score"].get<double>(), points[k] / 4) << json;
    EXPECT_NEAR(engines[k]["ms_per_move"].get<double>(), ms[k], 0.05) << json;
  }
}

TEST(ReporterTest, StandingsAreTheRoundRobinTablesNumbers) {
  FinishedGames finished;
  for (const GameRecord& game : RoundRobinGames()) finished[game.game] = game;
  std::ostringstream out;
  WriteStandingsJson(finished, RoundRobinNames(), out);
  ExpectTheTablesStandings(out.str());
}

TEST(ReporterTest, StandingsOfRecordsFilesTellEnginesApartByName) {
  // Two files, as two runs would write them: the second numbers the engines otherwise.
  const std::string first = ::testing::TempDir() + "/standings_1.jsonl";
  const std::string second = ::testing::TempDir() + "/standings_2.jsonl";
  std::vector<GameRecord> games = RoundRobinGames();
  for (size_t k = 0; k < games.size(); ++k) {
    GameRecord& game = games[k];
    if (k >= 3) {
      game.first_engine = 2 - game.first_engine;
      game.second_engine = 2 - game.second_engine;
    }
    std::ofstream(k < 3 ? first : second, std::ios::app) << DumpJson(game.ToJson()) << "\n";
  }
  std::ostringstream out;
  ASSERT_TRUE(WriteRecordsStandings({first, second}, out).ok());
  ExpectTheTablesStandings(out.str());
  const std::string empty = ::testing::TempDir() + "/standings_empty.jsonl";
  std::ofstream(empty, std::ios::trunc).close();
  EXPECT_EQ(WriteRecordsStandings({empty}, out).message(), empty + ": no games");
  std::filesystem::remove(first);
  std::filesystem::remove(second);
  std::filesystem::remove(empty);
}

TEST(ScoreboardTest, TheSprtDecidesOnTheGameItDidBefore) {
  // Alpha loses every pair but one drawn game: H0 from the fourth game on, as before.
  FinishedGames finished;
  const SprtParameters sprt{0, 100, 0.2, 0.2};
  for (int g = 0; g < 8; ++g) {
    finished[g] = Played(g, g / 2, g / 2, g % 2, 1 - g % 2, AlphaBeta(),
                         g == 3  ? GameOutcome::kDraw
                         : g % 2 ? GameOutcome::kFirstWins
                                 : GameOutcome::kSecondWins);
    const SprtState state = MatchSprt(sprt, ScoreMatch(finished, /*repeat=*/true));
    EXPECT_EQ(state.decision, g < 3 ? SprtDecision::kContinue : SprtDecision::kAcceptH0)
        << "game " << g;
  }
  const MatchScore score = ScoreMatch(finished, true);
  EXPECT_EQ(score.pairs, (Pentanomial{3, 1, 0, 0, 0}));
  EXPECT_TRUE(score.paired);
  EXPECT_FALSE(ScoreMatch(finished, false).paired);
}

}  // namespace
}  // namespace divercite
