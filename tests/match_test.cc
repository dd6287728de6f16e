// Whole matches of the fake engine (every game and move recorded, colours and openings
// paired, an interrupted match resumed), and the command line that sets one up.
#include "absl/strings/match.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/common/json.h"
#include "tools/match/cli.h"
#include "tools/match/match_settings.h"
#include "tools/match/time_control.h"
#include "tools/records/game_record.h"

namespace divercite {
namespace {

using testing::Args;
using testing::CommandLineError;
using testing::CommandLineErrorAfter;
using testing::MatchRun;
using testing::RunMatch;

TEST(MatchTest, GoodEnginesFinishEveryGameWithEveryMoveRecorded) {
  const std::string path = testing::FreshTempPath("match_good.jsonl");
  const std::vector<std::string> args = Args(
      "-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 -games 2 -rounds 2 "
      "-repeat -openings random plies=3 -concurrency 2 -seed 7");
  const MatchRun outcome = RunMatch(args, path);
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
  const MatchRun outcome = RunMatch(args);
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
  const MatchRun unpaired = RunMatch(args);
  ASSERT_TRUE(unpaired.status.ok()) << unpaired.status;
  ASSERT_EQ(unpaired.records.size(), 4u);
  EXPECT_EQ(unpaired.records[0].p1, "one");
  EXPECT_EQ(unpaired.records[1].p1, "two");
  EXPECT_NE(unpaired.records[0].opening, unpaired.records[1].opening);
}

TEST(MatchTest, AnInterruptedMatchResumesWithoutReplayingFinishedGames) {
  const std::string path = testing::FreshTempPath("match_resume.jsonl");
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
  const MatchRun resumed = RunMatch(args, path);
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
  const std::string path = testing::FreshTempPath("match_resume_seed.jsonl");
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

  const MatchRun other_seed = RunMatch(Args(match + "4"), path);
  ASSERT_FALSE(other_seed.status.ok());
  EXPECT_TRUE(absl::StrContains(other_seed.status.message(), "holds game 1 from opening"))
      << other_seed.status;
  std::ifstream kept(path);
  std::string line;
  int lines = 0;
  while (std::getline(kept, line)) ++lines;
  EXPECT_EQ(lines, 2) << "the refused run writes nothing";

  const MatchRun same_seed = RunMatch(Args(match + "3"), path);
  ASSERT_TRUE(same_seed.status.ok()) << same_seed.status;
  EXPECT_EQ(same_seed.records.size(), 4u);
}

TEST(MatchSettingsTest, RejectsBadCommandLinesWithTheReason) {
  const std::string engine = "cmd=" + std::string(DIVERCITE_FAKE_ENGINE);
  EXPECT_TRUE(absl::StrContains(CommandLineError({"-engine", engine, "tc=1"}), "at least two"));
  EXPECT_TRUE(absl::StrContains(CommandLineError({"-engine", engine, "-engine", engine}),
                                "no time control"));
  EXPECT_TRUE(
      absl::StrContains(CommandLineError({"-engine", engine, "tc=x", "-engine", engine}), "tc=x"));
  EXPECT_TRUE(absl::StrContains(
      CommandLineError({"-engine", engine, "name=a", "-engine", engine, "name=a", "-each", "tc=1"}),
      "two engines are named 'a'"));
  EXPECT_TRUE(
      absl::StrContains(CommandLineError({"-engine", engine, "colour=red"}), "unknown engine"));
  EXPECT_TRUE(absl::StrContains(CommandLineError({"-frobnicate"}), "unknown argument"));
  EXPECT_TRUE(
      absl::StrContains(CommandLineError({"-engine", engine, "name=a", "-engine", engine, "name=b",
                                          "-each", "tc=1", "-sprt", "elo0=5", "elo1=0"}),
                        "elo0 < elo1"));
  EXPECT_TRUE(
      absl::StrContains(CommandLineError({"-engine", engine, "name=a", "-engine", engine, "name=b",
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

// The command line: the error texts name the argument, as they always have.
TEST(MatchCliTest, ErrorTextsAreExact) {
  EXPECT_EQ(CommandLineErrorAfter("-games"), "-games takes exactly one value");
  EXPECT_EQ(CommandLineErrorAfter("-games 2 3"), "-games takes exactly one value");
  EXPECT_EQ(CommandLineErrorAfter("-rounds -1"), "-rounds takes exactly one value");
  EXPECT_EQ(CommandLineErrorAfter("-concurrency 1.5"),
            "-concurrency 1.5: expected a positive integer");
  EXPECT_EQ(CommandLineErrorAfter("-seed abc"), "-seed abc: expected an integer");
  EXPECT_EQ(CommandLineErrorAfter("-stalltimeout x"),
            "-stalltimeout=x: expected a number of seconds");
  EXPECT_EQ(CommandLineErrorAfter("-repeat stray"), "unknown argument 'stray'");
  EXPECT_EQ(CommandLineErrorAfter("stray"), "-each 'stray': expected KEY=VALUE");
  EXPECT_EQ(CommandLineErrorAfter("-openings random plies=40"),
            "-openings random plies=40: plies must be 0 to 39");
  EXPECT_EQ(CommandLineErrorAfter("-openings rand plies=2"),
            "-openings: expected 'file=PATH' or 'random plies=N'");
  EXPECT_EQ(CommandLineErrorAfter("-sprt gamma=1"),
            "-sprt gamma=1: unknown key (elo0, elo1, alpha, beta)");
  EXPECT_EQ(CommandLineErrorAfter("-sprt elo0"), "-sprt elo0: expected KEY=NUMBER");
  EXPECT_EQ(CommandLineErrorAfter("-tournament swiss"),
            "-tournament swiss: expected 'roundrobin' or 'gauntlet'");
  EXPECT_EQ(CommandLineErrorAfter("--help"), "unknown argument '--help'");
  EXPECT_EQ(CommandLineError({"-engine", "cmd=e", "=red"}), "-engine '=red': expected KEY=VALUE");
  EXPECT_EQ(CommandLineError({"-engine", "name=a", "tc=1", "-engine", "cmd=e", "tc=1"}),
            "engine 1 has no cmd=");
  EXPECT_EQ(CommandLineError({"-engine", "cmd=e", "-engine", "cmd=e", "-each", "tc=1+2+3"}),
            "-each tc=1+2+3: expected BASE or BASE+INC");
  EXPECT_EQ(CommandLineError({"-engine", "cmd=e", "depth=0", "-engine", "cmd=e"}),
            "-engine depth 0: expected a positive integer");
  EXPECT_EQ(
      CommandLineError({"-engine", "cmd=e", "name=a", "-engine", "cmd=e", "name=b", "-engine",
                        "cmd=e", "name=c", "-each", "tc=1", "-tournament", "roundrobin", "-sprt"}),
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

}  // namespace
}  // namespace divercite
