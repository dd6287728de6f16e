// The match's statistics (Elo, LOS, SPRT, Bradley-Terry ratings and their intervals), and what
// the runner reports of them: its lines after each game, the round robin's table, the
// standings as JSON, the SPRT's decision on the scoreboard.
#include "tools/match/match_stats.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/common/json.h"
#include "tools/match/cli.h"
#include "tools/match/match_settings.h"
#include "tools/match/merge.h"
#include "tools/match/reporter.h"
#include "tools/match/scheduler.h"
#include "tools/match/scoreboard.h"
#include "tools/records/game_record.h"

namespace divercite {
namespace {

using testing::Args;

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

// A finished game for the reporter's tests.
GameRecord Played(int game, int round, int pair, int first, int second,
                  const std::vector<std::string>& names, GameResult result,
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
  for (std::int64_t m : ms) {
    MoveRecord move;
    move.move = "RC14";
    move.ms = m;
    record.moves.push_back(move);
  }
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
      Played(0, 0, 0, 0, 1, kAlphaBeta, GameResult::kFirstWins),
      Played(1, 0, 0, 1, 0, kAlphaBeta, GameResult::kDraw),
      Played(2, 1, 1, 0, 1, kAlphaBeta, GameResult::kSecondWins, Termination::kTime,
             "alpha used 120 ms with 100 ms left"),
      Played(3, 1, 1, 1, 0, kAlphaBeta, GameResult::kSecondWins),
      Played(4, 2, 2, 0, 1, kAlphaBeta, GameResult::kFirstWins, Termination::kCrash, "beta exited"),
      Played(5, 2, 2, 1, 0, kAlphaBeta, GameResult::kSecondWins),
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
      Played(0, 0, 0, 0, 1, names, GameResult::kFirstWins, Termination::kNormal, "", "RC14",
             {10, 20, 30}),
      Played(1, 0, 0, 1, 0, names, GameResult::kDraw, Termination::kNormal, "", "RC14", {40, 50}),
      Played(2, 0, 1, 0, 2, names, GameResult::kSecondWins, Termination::kNormal, "", "",
             {5, 7, 9, 11}),
      Played(3, 0, 1, 2, 0, names, GameResult::kFirstWins, Termination::kIllegal, "played 'XX99'",
             "RC14 GR04", {100}),
      Played(4, 0, 2, 1, 2, names, GameResult::kFirstWins, Termination::kNormal, "", "", {1}),
      Played(5, 0, 2, 2, 1, names, GameResult::kSecondWins, Termination::kStall,
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
                         g == 3  ? GameResult::kDraw
                         : g % 2 ? GameResult::kFirstWins
                                 : GameResult::kSecondWins);
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
