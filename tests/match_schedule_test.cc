// What a match plays and when: time controls and each game's clocks, the openings, the
// schedule of games, and the worker pool that plays it.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/match/cli.h"
#include "tools/match/match_settings.h"
#include "tools/match/openings.h"
#include "tools/match/scheduler.h"
#include "tools/match/time_control.h"
#include "tools/match/worker_pool.h"
#include "tools/records/game_record.h"

namespace divercite {
namespace {

using testing::Args;

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

}  // namespace
}  // namespace divercite
