// The match runner against engines that misbehave, and its statistics and settings.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tools/common/json.h"
#include "tools/match/match_runner.h"
#include "tools/match/match_settings.h"
#include "tools/match/match_stats.h"

namespace divercite {
namespace {

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
  return {"-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=good", "arg=--mode=good",
          "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=faulty",
          "arg=--mode=" + mode, "arg=--after=2",
          "-each", "tc=2+0.1", "-games", "2", "-stalltimeout", stall_seconds,
          "-maxmovetime", "2"};
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
  ExpectFaultyLosesBoth(RunMatch(FaultMatch("crash")), Termination::kCrash);
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

TEST(MatchFaultTest, AnEngineThatCannotStartLoses) {
  std::vector<std::string> args = FaultMatch("good");
  args[5] = "cmd=/nonexistent/engine";
  ExpectFaultyLosesBoth(RunMatch(args), Termination::kCrash);
}

TEST(MatchFaultTest, OverTheClockLosesOnTime) {
  std::vector<std::string> args = {
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=good", "arg=--mode=good",
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=faulty", "arg=--mode=slow",
      "arg=--delay_ms=150", "-each", "tc=0.5", "-games", "2"};
  ExpectFaultyLosesBoth(RunMatch(args), Termination::kTime);
}

TEST(MatchTest, GoodEnginesFinishEveryGameWithEveryMoveRecorded) {
  const std::string path = ::testing::TempDir() + "/match_good.jsonl";
  std::filesystem::remove(path);
  std::vector<std::string> args = {
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=one",
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=two",
      "-each", "tc=5", "-games", "2", "-rounds", "2", "-repeat", "-openings", "random",
      "plies=3", "-concurrency", "2", "-seed", "7"};
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
  std::vector<std::string> args = {
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=one",
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=two",
      "-each", "tc=5", "-games", "1", "-rounds", "4", "-repeat", "-openings", "random",
      "plies=4", "-concurrency", "2", "-seed", "11"};
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
  std::vector<std::string> args = {
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=one",
      "-engine", "cmd=" + std::string(DIVERCITE_FAKE_ENGINE), "name=two",
      "-each", "tc=5", "-games", "2", "-rounds", "2", "-repeat"};
  ASSERT_EQ(RunMatch(args, path).records.size(), 4u);
  // Keep the first two games and half of the third line, as an interrupted run would.
  std::ifstream in(path);
  std::string first, second, third;
  std::getline(in, first);
  std::getline(in, second);
  std::getline(in, third);
  in.close();
  std::ofstream(path, std::ios::trunc) << first << '\n' << second << '\n'
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

TEST(MatchSettingsTest, RejectsBadCommandLinesWithTheReason) {
  const std::string engine = "cmd=" + std::string(DIVERCITE_FAKE_ENGINE);
  auto error = [](std::vector<std::string> args) {
    absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
    return settings.ok() ? std::string("accepted") : std::string(settings.status().message());
  };
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "tc=1"}), "at least two"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "-engine", engine}),
                                "no time control"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "tc=x", "-engine", engine}),
                                "tc=x"));
  EXPECT_TRUE(absl::StrContains(
      error({"-engine", engine, "name=a", "-engine", engine, "name=a", "-each", "tc=1"}),
      "two engines are named 'a'"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "colour=red"}), "unknown engine"));
  EXPECT_TRUE(absl::StrContains(error({"-frobnicate"}), "unknown argument"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "name=a", "-engine", engine,
                                       "name=b", "-each", "tc=1", "-sprt", "elo0=5", "elo1=0"}),
                                "elo0 < elo1"));
  EXPECT_TRUE(absl::StrContains(error({"-engine", engine, "name=a", "-engine", engine,
                                       "name=b", "-engine", engine, "name=c", "-each", "tc=1"}),
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
  EXPECT_NEAR(better.error95, (EloFromScore(0.6 + 1.959964 * 0.04899) -
                               EloFromScore(0.6 - 1.959964 * 0.04899)) / 2, 0.05);
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

}  // namespace
}  // namespace divercite
