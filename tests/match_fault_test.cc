// The match runner against engines that misbehave (tests/fake_engine.cc's modes): each fault
// loses the game with its termination and reason; and the engines' text as the records keep it
// (valid UTF-8, the stderr tail, the last limit line).
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/client/engine_reply.h"
#include "tools/common/child_process.h"
#include "tools/common/json.h"
#include "tools/records/game_record.h"
#include "tools/records/record_store.h"

namespace divercite {
namespace {

using testing::Args;
using testing::MatchRun;
using testing::RunMatch;

// A busy machine can take a while to start a process: 5 s before calling it a stall, except
// where the stall itself is tested.
std::vector<std::string> FaultMatch(const std::string& mode,
                                    const std::string& stall_seconds = "5") {
  return Args(absl::StrCat("-engine cmd=FAKE name=good arg=--mode=good",
                           " -engine cmd=FAKE name=faulty arg=--mode=", mode, " arg=--after=2",
                           " -each tc=2+0.1 -games 2 -stalltimeout ", stall_seconds,
                           " -maxmovetime 2"));
}

void ExpectFaultyLosesBoth(const MatchRun& outcome, Termination termination) {
  ASSERT_TRUE(outcome.status.ok()) << outcome.status;
  ASSERT_EQ(outcome.records.size(), 2u) << outcome.output;
  for (const GameRecord& record : outcome.records) {
    const bool faulty_first = record.p1 == "faulty";
    EXPECT_EQ(record.result, faulty_first ? GameResult::kSecondWins : GameResult::kFirstWins)
        << record.reason;
    EXPECT_EQ(record.termination, termination)
        << TerminationText(record.termination) << ": " << record.reason;
    EXPECT_FALSE(record.reason.empty());
  }
}

TEST(MatchFaultTest, ACrashLosesAndTheEngineIsRestarted) {
  const std::string log_path = ::testing::TempDir() + "/crash_protocol.log";
  std::vector<std::string> args = FaultMatch("crash");
  args.insert(args.end(), {"-log", "file=" + log_path});
  const MatchRun outcome = RunMatch(args);
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
  const MatchRun outcome = RunMatch(FaultMatch("illegal"));
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  EXPECT_TRUE(absl::StrContains(outcome.records[0].reason, "occupied") ||
              absl::StrContains(outcome.records[1].reason, "occupied"));
}

TEST(MatchFaultTest, AMalformedMoveLoses) {
  const MatchRun outcome = RunMatch(FaultMatch("malformed"));
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  EXPECT_TRUE(absl::StrContains(outcome.records[0].reason, "XX99"));
}

TEST(MatchFaultTest, TheEnginesOwnErrorIsInTheReason) {
  // An engine that cannot move says why before `bestmove (none)`: the record keeps its words.
  const MatchRun outcome = RunMatch(FaultMatch("explained"));
  ExpectFaultyLosesBoth(outcome, Termination::kIllegal);
  for (const GameRecord& record : outcome.records) {
    EXPECT_TRUE(
        absl::StrContains(record.reason, "played '(none)': move '(none)' must be 4 characters"))
        << record.reason;
    EXPECT_TRUE(absl::StrContains(record.reason, "(engine said: the fake engine gives up)"))
        << record.reason;
  }
}

TEST(MatchFaultTest, AnEngineThatSaysItsCodeFailedLosesByACrash) {
  // `info string crash:` then `bestmove (none)`: a crash in its words, not an illegal move.
  const MatchRun outcome = RunMatch(FaultMatch("crashed"));
  ExpectFaultyLosesBoth(outcome, Termination::kCrash);
  for (const GameRecord& record : outcome.records) {
    EXPECT_EQ(record.reason,
              "faulty: ZeroDivisionError in my_player.py, line 9 (MyPlayer.compute_action): "
              "division by zero");
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
  const std::string path = testing::FreshTempPath("match_limit.jsonl");
  const MatchRun outcome = RunMatch(FaultMatch("limit"), path);
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
  const MatchRun outcome = RunMatch(FaultMatch("limit-exit"));
  ExpectFaultyLosesBoth(outcome, Termination::kLimit);
  for (const GameRecord& record : outcome.records) {
    EXPECT_TRUE(absl::StartsWith(record.reason, absl::StrCat(kMemoryLimit, " (faulty exited: ")))
        << record.reason;
    EXPECT_TRUE(absl::StrContains(record.reason, "its stderr ended: ")) << record.reason;
    EXPECT_TRUE(absl::StrContains(record.reason, "MemoryError")) << record.reason;
  }
}

TEST(MatchFaultTest, ALimitHitAtTheStartLosesByLimit) {
  const MatchRun outcome = RunMatch(FaultMatch("limit-start"));
  ExpectFaultyLosesBoth(outcome, Termination::kLimit);
  for (const GameRecord& record : outcome.records) {
    EXPECT_EQ(record.reason,
              "processes limit: its processes may be 64 at most (faulty, before its 'uciok')");
  }
}

TEST(MatchFaultTest, BytesThatAreNotUtf8OnStderrReachTheRecordAsValidText) {
  const std::string path = testing::FreshTempPath("match_bad_utf8.jsonl");
  const MatchRun outcome = RunMatch(FaultMatch("bad-utf8"), path);
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
  const std::string path = testing::FreshTempPath("match_bad_utf8_move.jsonl");
  const MatchRun outcome = RunMatch(FaultMatch("bad-utf8-move"), path);
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

}  // namespace
}  // namespace divercite
