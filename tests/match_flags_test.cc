// The match runner's flags beyond a plain match, played out: gauntlets, the protocol log
// (-log), where the openings start and in which order, exact adjudication, the startup
// timeout, an engine stopped from outside, and the flags' errors. Games are played by
// depth-limited `divercite` engines and by the fake engine.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/move.h"
#include "engine/position.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/match/adjudication.h"
#include "tools/match/cli.h"
#include "tools/match/match_settings.h"
#include "tools/match/openings.h"
#include "tools/match/scheduler.h"
#include "tools/records/game_record.h"

namespace divercite {
namespace {

using testing::Args;
using testing::CommandLineErrorAfter;
using testing::FreshTempPath;
using testing::MatchRun;
using testing::RunMatch;
using testing::SettingsOf;
using testing::With;

TEST(GauntletTest, TheFirstEngineMeetsEachOtherWithATablePerOpponentAndItsTotal) {
  const std::string args =
      "-engine cmd=ENGINE name=d3 depth=3 -engine cmd=ENGINE name=d1 depth=1 -engine "
      "cmd=ENGINE name=d2 depth=2 -engine cmd=ENGINE name=greedy option.Agent=greedy tc=inf "
      "-tournament gauntlet -games 2 -rounds 2 -repeat -openings random plies=3 -concurrency 2";
  const MatchSettings settings = SettingsOf(Args(args));
  EXPECT_EQ(TotalGames(settings), 12);
  for (const ScheduledGame& game : Schedule(settings, 12)) {
    EXPECT_TRUE(game.first == 0 || game.second == 0) << "game " << game.game;
  }
  const MatchRun run = RunMatch(Args(args));
  ASSERT_TRUE(run.status.ok()) << run.status;
  ASSERT_EQ(run.records.size(), 12u);
  const std::string& out = run.output;
  EXPECT_TRUE(absl::StrContains(out, "--- Gauntlet of d3 after 12 of 12 games\n")) << out;
  for (const char* opponent : {"d1", "d2", "greedy"}) {
    EXPECT_TRUE(absl::StrContains(out, absl::StrCat("--- d3 vs ", opponent, " after 4 games\n")))
        << out;
    EXPECT_TRUE(absl::StrContains(out, absl::StrCat("Score of d3 vs ", opponent, ": "))) << out;
  }
  EXPECT_TRUE(absl::StrContains(out, "--- d3 vs all after 12 games\n")) << out;
  EXPECT_LT(out.find("--- d3 vs greedy"), out.find("--- d3 vs all"));
  // The total is the sum of the tables.
  int wins = 0, total_wins = -1;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(out, '\n'))) {
    int w = 0;
    if (std::sscanf(line.c_str(), "Games: 4, Wins: %d", &w) == 1) wins += w;
    if (std::sscanf(line.c_str(), "Games: 12, Wins: %d", &w) == 1) total_wins = w;
  }
  EXPECT_EQ(wins, total_wins) << out;
}

TEST(LogTest, EveryProtocolLineWithItsTimeGameAndEngine) {
  const std::string log = FreshTempPath("match_shard_protocol.log");
  const MatchRun run =
      RunMatch(Args("-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 "
                    "-games 2 -openings random plies=2 -log file=" +
                    log));
  ASSERT_TRUE(run.status.ok()) << run.status;
  std::ifstream in(log);
  std::string line;
  const std::regex shape(
      R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z game ([0-2]) (one|two) ([<>*]) (.*))");
  std::map<std::string, int> counts;  // "game engine direction first-word"
  int lines = 0;
  while (std::getline(in, line)) {
    std::smatch match;
    ASSERT_TRUE(std::regex_match(line, match, shape)) << line;
    const std::string text = match[4];
    ++counts[absl::StrCat(match[1].str(), " ", match[2].str(), " ", match[3].str(), " ",
                          text.substr(0, text.find(' ')))];
    ++lines;
  }
  EXPECT_GT(lines, 100);
  for (const char* game : {"1", "2"}) {
    for (const char* engine : {"one", "two"}) {
      // 38 moves a game, 19 each: a go sent and a bestmove received for every one.
      EXPECT_EQ((counts[absl::StrCat(game, " ", engine, " > go")]), 19) << game << engine;
      EXPECT_EQ((counts[absl::StrCat(game, " ", engine, " < bestmove")]), 19) << game << engine;
      EXPECT_EQ((counts[absl::StrCat(game, " ", engine, " > ucinewgame")]), 1);
    }
  }
  EXPECT_EQ((counts["1 one > uci"]), 1) << "started in the first game";
  EXPECT_EQ((counts["1 one < uciok"]), 1);
  EXPECT_EQ((counts["1 one * started"]), 1);
  EXPECT_EQ((counts["0 one > quit"]), 1) << "quit between games";
}

TEST(OpeningsTest, StartAndOrderPickWhereAndHowTheFileIsRead) {
  const std::string file = FreshTempPath("match_shard_openings.txt");
  std::ofstream(file) << "# five openings\nRC14\nGR04\nBC23\nYR75\nRR35\n";
  auto texts = [&](const std::string& flags) {
    const absl::StatusOr<std::vector<Opening>> openings =
        LoadOpenings(SettingsOf(Args("-engine cmd=x -engine cmd=y -each tc=1 " + flags)), 3);
    std::vector<std::string> result;
    if (!openings.ok()) return std::vector<std::string>{std::string(openings.status().message())};
    for (const Opening& opening : *openings) result.push_back(opening.text);
    return result;
  };
  using Texts = std::vector<std::string>;
  EXPECT_EQ(texts("-openings file=" + file), (Texts{"RC14", "GR04", "BC23", "YR75", "RR35"}));
  EXPECT_EQ(texts("-openings file=" + file + " order=sequential start=4"),
            (Texts{"YR75", "RR35", "RC14", "GR04", "BC23"}));
  const Texts shuffled = texts("-openings file=" + file + " order=random -seed 9");
  EXPECT_EQ(texts("-openings file=" + file + " order=random -seed 9"), shuffled)
      << "the seed's order, every time (so every shard's)";
  Texts sorted = shuffled;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (Texts{"BC23", "GR04", "RC14", "RR35", "YR75"}));
  bool some_order_differs = false;
  for (int seed = 1; seed < 5; ++seed) {
    some_order_differs |= texts(absl::StrCat("-openings file=", file, " order=random -seed ",
                                             seed)) != texts("-openings file=" + file);
  }
  EXPECT_TRUE(some_order_differs);
  const Texts shuffled_from_2 = texts("-openings file=" + file + " order=random start=2 -seed 9");
  EXPECT_EQ(shuffled_from_2[0], shuffled[1]);
  EXPECT_EQ(texts("-openings file=" + file + " start=6"),
            (Texts{"-openings start=6: " + file + " has 5 openings"}));
  // Random openings: start=N skips the first N - 1 of the seed's sequence.
  const Texts random = texts("-openings random plies=3 -seed 2");
  const Texts random_from_2 = texts("-openings random plies=3 start=2 -seed 2");
  ASSERT_EQ(random_from_2.size(), 3u);
  EXPECT_EQ(random_from_2[0], random[1]);
  EXPECT_EQ(random_from_2[1], random[2]);
  // The games use them from there.
  const MatchRun run =
      RunMatch(Args("-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 "
                    "-games 2 -openings file=" +
                    file + " start=3"));
  ASSERT_EQ(run.records.size(), 2u);
  EXPECT_EQ(run.records[0].opening, "BC23");
  EXPECT_EQ(run.records[1].opening, "YR75");
}

TEST(AdjudicationTest, AgreementNeedsEveryOneOfTheLastPliesExactAndEqual) {
  using Values = std::vector<std::optional<int>>;
  EXPECT_EQ(AgreedExactValue(Values{std::nullopt, 200, 200}, 2), 200);
  EXPECT_EQ(AgreedExactValue(Values{200, std::nullopt, 200}, 2), std::nullopt);
  EXPECT_EQ(AgreedExactValue(Values{100, 200}, 2), std::nullopt);
  EXPECT_EQ(AgreedExactValue(Values{200}, 2), std::nullopt);
  EXPECT_EQ(AgreedExactValue(Values{-300, -300, -300}, 3), -300);
}

TEST(AdjudicationTest, AGameEndsOnceTheSolveConfirmsWhatBothEnginesReported) {
  // Ten plies left after the openings: engines searching ten plies deep report exact scores
  // from their first move on.
  const std::string args =
      "-engine cmd=ENGINE name=a depth=10 -engine cmd=ENGINE name=b depth=10 -games 2 -rounds 2 "
      "-repeat -openings random plies=30 -seed 4";
  const MatchRun full = RunMatch(Args(args));
  const MatchRun adjudicated = RunMatch(With(Args(args), "-adjudicate exact plies=3"));
  ASSERT_TRUE(full.status.ok() && adjudicated.status.ok());
  ASSERT_EQ(full.records.size(), 4u);
  ASSERT_EQ(adjudicated.records.size(), 4u);
  for (size_t g = 0; g < 4; ++g) {
    const GameRecord& played = full.records[g];
    const GameRecord& ended = adjudicated.records[g];
    EXPECT_EQ(played.termination, Termination::kNormal);
    EXPECT_EQ(ended.termination, Termination::kAdjudication) << ended.reason;
    EXPECT_EQ(TerminationText(ended.termination), "adjudication");
    EXPECT_EQ(ended.moves.size(), 3u) << "after the third exact move";
    EXPECT_EQ(ended.result, played.result) << "game " << g;
    EXPECT_EQ(ended.final_scores[0] - ended.final_scores[1],
              played.final_scores[0] - played.final_scores[1]);
    EXPECT_TRUE(absl::StrContains(ended.reason, "the runner's solve confirms it")) << ended.reason;
    EXPECT_TRUE(absl::StrContains(
        ended.reason, absl::StrFormat("exact margin %+d for %s",
                                      played.final_scores[0] - played.final_scores[1], played.p1)))
        << ended.reason;
    // The record reads back as written.
    const absl::StatusOr<GameRecord> read = GameRecord::FromJson(ended.ToJson());
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(read->termination, Termination::kAdjudication);
  }
  EXPECT_TRUE(absl::StrContains(adjudicated.output, "{adjudication: both engines reported"));
}

TEST(AdjudicationTest, PlayedOnWhenTheSolveDisagreesOrTheEnginesDoNotAgree) {
  // 12.34 points is no margin the board can end with: the solve never confirms it.
  for (const char* claims : {"arg=--exact_cp=1234 -engine cmd=FAKE name=two arg=--exact_cp=1234",
                             "arg=--exact_cp=200 -engine cmd=FAKE name=two arg=--exact_cp=300",
                             "arg=--exact_cp=200 -engine cmd=FAKE name=two"}) {
    const MatchRun run =
        RunMatch(Args(absl::StrCat("-engine cmd=FAKE name=one ", claims,
                                   " -each tc=5 -games 2 -openings random plies=26 "
                                   "-adjudicate exact plies=2")));
    ASSERT_TRUE(run.status.ok()) << run.status;
    ASSERT_EQ(run.records.size(), 2u);
    for (const GameRecord& record : run.records) {
      EXPECT_EQ(record.termination, Termination::kNormal) << claims << ": " << record.reason;
      EXPECT_EQ(record.moves.size(), 14u) << claims;
    }
  }
}

TEST(MaxPliesTest, AGameStillGoingAfterTheMovesIsCutAsADrawWithTheBoardsScores) {
  const MatchRun cut =
      RunMatch(Args("-engine cmd=ENGINE name=a depth=2 -engine cmd=ENGINE name=b depth=2 -games 2 "
                    "-maxplies 8"));
  ASSERT_TRUE(cut.status.ok()) << cut.status;
  ASSERT_EQ(cut.records.size(), 2u);
  for (const GameRecord& record : cut.records) {
    EXPECT_EQ(record.termination, Termination::kMaxPlies);
    EXPECT_EQ(record.result, GameResult::kDraw);
    EXPECT_EQ(record.moves.size(), 8u);
    EXPECT_EQ(record.reason, "cut after 8 moves (-maxplies 8)");
    Position position = Position::Start();
    for (const MoveRecord& move : record.moves) position.Play(*ParseMove(move.move));
    EXPECT_EQ(record.final_scores[0], position.Score(Player::kFirst));
    EXPECT_EQ(record.final_scores[1], position.Score(Player::kSecond));
    const absl::StatusOr<GameRecord> read = GameRecord::FromJson(record.ToJson());
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->termination, Termination::kMaxPlies);
    EXPECT_EQ(TerminationText(read->termination), "maxplies");
  }
  EXPECT_TRUE(absl::StrContains(cut.output, "{maxplies: cut after 8 moves")) << cut.output;
}

TEST(CpuTimeTest, EachMoveHasTheMoversProcessorTimeAndTheGameEachEnginesTotal) {
  // The spinning engine keeps a core busy 150 ms a move; the other answers at once.
  const MatchRun measured = RunMatch(
      Args("-engine cmd=FAKE name=spinner arg=--mode=spin arg=--delay_ms=150 -engine cmd=FAKE "
           "name=quick arg=--mode=good -each tc=60 -cputime -maxplies 6"));
  ASSERT_TRUE(measured.status.ok()) << measured.status;
  ASSERT_EQ(measured.records.size(), 1u);
  const GameRecord& record = measured.records[0];
  ASSERT_EQ(record.moves.size(), 6u);
  ASSERT_TRUE(record.cpu_ms && record.wait_ms);
  std::int64_t spun = 0;
  for (size_t ply = 0; ply < record.moves.size(); ++ply) {
    const MoveRecord& move = record.moves[ply];
    ASSERT_TRUE(move.cpu_ms && move.wait_ms);
    if (ply % 2 == 0) {
      // Its whole move on a core or waiting for one: on a busy machine, part of it waits.
      EXPECT_GE(*move.cpu_ms + *move.wait_ms, 100) << "ply " << ply;
      spun += *move.cpu_ms;
    } else {
      EXPECT_LE(*move.cpu_ms, 50) << "ply " << ply;
    }
  }
  EXPECT_EQ((*record.cpu_ms)[0], spun);
  const absl::StatusOr<GameRecord> read = GameRecord::FromJson(record.ToJson());
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->cpu_ms, record.cpu_ms);
  EXPECT_EQ(read->wait_ms, record.wait_ms);
  EXPECT_EQ(read->moves[0].cpu_ms, record.moves[0].cpu_ms);
  // Without -cputime, nothing is measured or written.
  const MatchRun plain = RunMatch(
      Args("-engine cmd=FAKE name=a arg=--mode=good -engine cmd=FAKE name=b arg=--mode=good -each "
           "tc=60 -maxplies 2"));
  ASSERT_TRUE(plain.status.ok() && plain.records.size() == 1u);
  EXPECT_FALSE(plain.records[0].cpu_ms);
  EXPECT_FALSE(plain.records[0].ToJson().contains("cpu"));
  EXPECT_FALSE(plain.records[0].ToJson()["moves"][0].contains("cpu"));
}

TEST(StartupTimeoutTest, TheStartHasItsOwnTimeoutAndTheStallTimeoutIsForIsready) {
  const std::string slow_start =
      "-engine cmd=FAKE name=good -engine cmd=FAKE name=slow arg=--uci_delay_ms=700 -each tc=5 "
      "-games 2 ";
  const MatchRun lost = RunMatch(Args(slow_start + "-startuptimeout 0.2"));
  ASSERT_TRUE(lost.status.ok()) << lost.status;
  ASSERT_EQ(lost.records.size(), 2u);
  for (const GameRecord& record : lost.records) {
    EXPECT_EQ(record.termination, Termination::kStall);
    EXPECT_EQ(record.reason, "slow: no 'uciok' within 200ms");
    EXPECT_EQ(record.result,
              record.p1 == "slow" ? GameResult::kSecondWins : GameResult::kFirstWins);
  }
  // A slow start within -startuptimeout is fine, however short -stalltimeout is.
  const MatchRun played = RunMatch(Args(slow_start + "-startuptimeout 5 -stalltimeout 0.3"));
  ASSERT_EQ(played.records.size(), 2u);
  for (const GameRecord& record : played.records) {
    EXPECT_EQ(record.termination, Termination::kNormal) << record.reason;
  }
  // Without it, the stall timeout covers the start, as it always has.
  const MatchRun old = RunMatch(Args(slow_start + "-stalltimeout 0.3"));
  ASSERT_EQ(old.records.size(), 2u);
  EXPECT_EQ(old.records[0].reason, "slow: no 'uciok' within 300ms");
  const MatchSettings defaults = SettingsOf(Args("-engine cmd=x -engine cmd=y -each tc=1"));
  EXPECT_EQ(defaults.StartupTimeout(), absl::Seconds(10));
  EXPECT_EQ(defaults.stall_timeout, absl::Seconds(10));
}

TEST(StoppedEngineTest, AnEngineEndedFromOutsideLosesByACrashIfTheRunGoesOn) {
  // An engine ended by SIGTERM is most likely stopped with the whole run (a cancelled Slurm
  // job): the runner waits a moment for its own end before it records the crash, and records
  // it if it goes on.
  const absl::Time start = absl::Now();
  const MatchRun run =
      RunMatch(Args("-engine cmd=FAKE name=good -engine cmd=FAKE name=stopped "
                    "arg=--mode=terminated arg=--after=2 -each tc=5 -games 1"));
  ASSERT_EQ(run.records.size(), 1u);
  EXPECT_EQ(run.records[0].termination, Termination::kCrash);
  EXPECT_EQ(run.records[0].result, GameResult::kFirstWins);
  EXPECT_GE(absl::Now() - start, absl::Seconds(2));
}

TEST(MatchCliTest, TheNewFlagsAndTheirErrors) {
  EXPECT_EQ(CommandLineErrorAfter("-shard 2/4"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-shard 5/4"), "-shard 5/4: expected K/N with 1 <= K <= N");
  EXPECT_EQ(CommandLineErrorAfter("-shard 0/4"), "-shard 0/4: expected K/N with 1 <= K <= N");
  EXPECT_EQ(CommandLineErrorAfter("-shard 2"), "-shard 2: expected K/N with 1 <= K <= N");
  EXPECT_EQ(CommandLineErrorAfter("-merge"), "-merge: expected one or more records files");
  EXPECT_EQ(CommandLineErrorAfter("-tournament gauntlet"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-log file=x.log"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-log x.log"), "-log: expected 'file=PATH'");
  EXPECT_EQ(CommandLineErrorAfter("-adjudicate exact plies=4"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-maxplies 8"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-maxplies 40"),
            "-maxplies 40: expected 1 to 39 (a game ends after 40 moves anyway)");
  EXPECT_EQ(CommandLineErrorAfter("-maxplies x"),
            "-maxplies x: expected 1 to 39 (a game ends after 40 moves anyway)");
  EXPECT_EQ(CommandLineErrorAfter("-cputime"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-adjudicate exact plies=1"),
            "-adjudicate exact plies=1: plies must be 2 to 40 (both engines must have said it)");
  EXPECT_EQ(CommandLineErrorAfter("-adjudicate score plies=4"),
            "-adjudicate: expected 'exact plies=N'");
  EXPECT_EQ(CommandLineErrorAfter("-startuptimeout x"),
            "-startuptimeout=x: expected a number of seconds");
  EXPECT_EQ(CommandLineErrorAfter("-openings random plies=2 start=0"),
            "-openings start=0: expected a positive integer");
  EXPECT_EQ(CommandLineErrorAfter("-openings random plies=2 order=random"),
            "-openings order=random: order= applies to an openings file");
  EXPECT_EQ(CommandLineErrorAfter("-openings file=f order=shuffled"),
            "-openings order=shuffled: expected order=sequential, order=random or start=N");
  EXPECT_EQ(CommandLineErrorAfter("-engine cmd=e name=c -tournament gauntlet -sprt"),
            "-sprt needs exactly two engines");
  EXPECT_EQ(CommandLineErrorAfter("-engine cmd=e name=c"),
            "more than two engines need -tournament roundrobin or -tournament gauntlet");
}

}  // namespace
}  // namespace divercite
