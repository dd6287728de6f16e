// The course agents (agents/): each one's defining behaviour on hand-made positions, its
// search against the references (tests/agents_test_util.h), and legal moves over whole games.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "agents/agent.h"
#include "agents/agents_internal.h"
#include "agents/course_evaluation.h"
#include "agents/course_search.h"
#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "tests/agents_test_util.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

using testing::FromMoves;
using testing::FromString;
using testing::kDiverciteMove;
using testing::kDivercitePosition;
using testing::MoveText;
using testing::Reference;
using testing::ReferenceResult;

// The final margin for the side to move under perfect play (scores include the tie-break).
int PerfectMargin(const Position& position) {
  if (position.IsGameOver()) {
    const Player us = position.SideToMove();
    return position.Score(us) - position.Score(Opponent(us));
  }
  int best = std::numeric_limits<int>::min();
  for (const Move move : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    best = std::max(best, -PerfectMargin(child));
  }
  return best;
}

// Plays a whole game, checking every move is legal; returns the number of moves checked.
int PlayCheckedGame(Agent& first, Agent& second) {
  Position position = Position::Start();
  int moves = 0;
  while (!position.IsGameOver()) {
    Agent& agent = position.SideToMove() == Player::kFirst ? first : second;
    const Move move = agent.ChooseMove(position, {});
    EXPECT_TRUE(position.IsLegal(move))
        << "ply " << position.Ply() << ": " << position.CheckLegal(move) << " in "
        << ToPositionString(position);
    if (!position.IsLegal(move)) return moves;
    position.Play(move);
    ++moves;
  }
  return moves;
}

// --- Registry -------------------------------------------------------------------------------

TEST(AgentRegistryTest, NamesInTheDocumentedOrderAndEveryNameBuilds) {
  const std::vector<absl::string_view> expected = {"random",      "greedy",     "little_garden",
                                                   "water_seven", "skypiea_v2", "skypiea_v5",
                                                   "mcts",        "impel_down"};
  EXPECT_EQ(AgentNames(), expected);
  for (const absl::string_view name : AgentNames()) {
    EXPECT_NE(MakeAgent(name, 1), nullptr) << name;
  }
  EXPECT_EQ(MakeAgent("stockfish", 1), nullptr);
  EXPECT_EQ(MakeAgent("", 1), nullptr);
}

// --- random ---------------------------------------------------------------------------------

TEST(RandomAgentTest, LegalReproducibleAndSpread) {
  const Position start = Position::Start();
  std::unique_ptr<Agent> a = MakeAgent("random", 7);
  std::unique_ptr<Agent> b = MakeAgent("random", 7);
  std::unique_ptr<Agent> c = MakeAgent("random", 8);
  std::set<int> seen;
  int differences = 0;
  for (int i = 0; i < 2000; ++i) {
    const Move move = a->ChooseMove(start, {});
    ASSERT_TRUE(start.IsLegal(move));
    EXPECT_EQ(move, b->ChooseMove(start, {}));
    differences += move != c->ChooseMove(start, {});
    seen.insert(move.Index());
  }
  EXPECT_GT(differences, 1900);
  // 2000 uniform draws among 164 moves miss a given move with probability ~5e-6.
  EXPECT_EQ(seen.size(), 164u);
}

// --- greedy ---------------------------------------------------------------------------------

TEST(GreedyAgentTest, OpensRC14FromTheEmptyBoard) {
  std::unique_ptr<Agent> greedy = MakeAgent("greedy", 1);
  EXPECT_EQ(MoveText(greedy->ChooseMove(Position::Start(), {})), "RC14");
  EXPECT_EQ(greedy->nodes(), 164u);
  // The first move of the generation order after RC14 is played: RC23 scores 0 like every other
  // city move, no resource scores, so the second player answers with the first move too.
  EXPECT_EQ(MoveText(greedy->ChooseMove(FromMoves({"RC14"}), {})), "RC23");
}

TEST(GreedyAgentTest, KeepsTheLastMoveBeatingTheFirstMovesScoreNotTheBest) {
  // Ply 4, only the top corner of kDivercitePosition: the first legal move, RC23, scores 0.
  // Three moves beat it, in generation order: RR24 (+5, the divercité), BC23 (+1, next to b on
  // (1,3)) and YC25 (+1, next to y on (1,5)). The course greedy keeps the last of them, YC25.
  const Position position = FromString("G/bRy/5/7/9/7/5/3/1 w");
  const MoveList moves = LegalMoves(position);
  ASSERT_EQ(MoveText(moves[0]), "RC23");
  std::vector<std::string> beating;
  for (const Move move : moves) {
    Position child = position;
    child.Play(move);
    if (child.Score(Player::kFirst) > 0) beating.push_back(MoveText(move));
  }
  EXPECT_EQ(beating, (std::vector<std::string>{"RR24", "BC23", "YC25"}));
  EXPECT_EQ(MoveText(MakeAgent("greedy", 1)->ChooseMove(position, {})), "YC25");
}

TEST(GreedyAgentTest, OwnScoreIncludesTheLastMoveTieBreak) {
  // On the 40th move the score compared is the one after the tie-break: the greedy move must
  // be the last one whose final mover score (tie-break included) beats the first's.
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Position position = testing::RandomGame(seed, kTotalPlies - 1).back();
    const MoveList moves = LegalMoves(position);
    const Player me = position.SideToMove();
    Position first = position;
    first.Play(moves[0]);
    Move expected = moves[0];
    for (const Move move : moves) {
      Position child = position;
      child.Play(move);
      if (child.Score(me) > first.Score(me)) expected = move;
    }
    EXPECT_EQ(MakeAgent("greedy", 1)->ChooseMove(position, {}), expected) << "seed " << seed;
  }
}

// --- little_garden / water_seven / skypiea_v2 -----------------------------------------------

class DiverciteSeekerTest : public ::testing::TestWithParam<const char*> {};

TEST_P(DiverciteSeekerTest, TakesTheDivercite) {
  const Position position = FromString(kDivercitePosition);
  std::unique_ptr<Agent> agent = MakeAgent(GetParam(), 3);
  EXPECT_EQ(MoveText(agent->ChooseMove(position, {})), kDiverciteMove);
  EXPECT_GT(agent->nodes(), 0u);
}

INSTANTIATE_TEST_SUITE_P(MinimaxAgents, DiverciteSeekerTest,
                         ::testing::Values("little_garden", "water_seven", "skypiea_v2",
                                           "impel_down"));

class RandomOpeningTest : public ::testing::TestWithParam<const char*> {};

TEST_P(RandomOpeningTest, FirstMoveOfEachSideIsRandomLegalAndSeedReproducible) {
  std::set<int> openings;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    std::unique_ptr<Agent> a = MakeAgent(GetParam(), seed);
    std::unique_ptr<Agent> b = MakeAgent(GetParam(), seed);
    const Move first = a->ChooseMove(Position::Start(), {});
    ASSERT_TRUE(Position::Start().IsLegal(first));
    EXPECT_EQ(b->ChooseMove(Position::Start(), {}), first);
    EXPECT_EQ(a->nodes(), 0u) << "no search on ply 0";
    Position after = Position::Start();
    after.Play(first);
    const Move second = a->ChooseMove(after, {});
    ASSERT_TRUE(after.IsLegal(second));
    EXPECT_EQ(b->ChooseMove(after, {}), second);
    openings.insert(first.Index());
  }
  EXPECT_GT(openings.size(), 20u) << "40 seeds, 164 moves: the opening must vary";
}

INSTANTIATE_TEST_SUITE_P(MinimaxAgents, RandomOpeningTest,
                         ::testing::Values("little_garden", "water_seven", "skypiea_v2"));

TEST(LittleGardenTest, PlaysTheDepthThreeMinimaxOfTheScoreDifference) {
  const Position position = testing::RandomGame(5, 30).back();
  const ReferenceResult reference = Reference(position, 3, kLittleGardenEvaluation);
  std::unique_ptr<Agent> agent = MakeAgent("little_garden", 1);
  EXPECT_EQ(agent->ChooseMove(position, {}), reference.move);
  EXPECT_EQ(agent->nodes(), reference.nodes);
}

TEST(WaterSevenTest, PlaysTheDepthThreeMinimaxOfItsEvaluation) {
  const Position position = testing::RandomGame(6, 31).back();
  const ReferenceResult reference = Reference(position, 3, kWaterSevenEvaluation);
  std::unique_ptr<Agent> agent = MakeAgent("water_seven", 1);
  EXPECT_EQ(agent->ChooseMove(position, {}), reference.move);
  EXPECT_EQ(agent->nodes(), reference.nodes);
}

TEST(SkypieaV2Test, DepthFourWhileTwelvePiecesAreLeftThenSix) {
  EXPECT_EQ(SkypieaV2Depth(testing::RandomGame(1, 2).back()), 4);
  EXPECT_EQ(SkypieaV2Depth(testing::RandomGame(1, 28).back()), 4);  // 12 pieces left
  EXPECT_EQ(SkypieaV2Depth(testing::RandomGame(1, 29).back()), 6);  // 11 pieces left
  const Position position = testing::RandomGame(2, 30).back();
  const CourseEvaluator evaluate(kWaterSevenEvaluation, position.SideToMove());
  CourseSearch search(evaluate);
  const Move expected = search.AlphaBeta(position, 6);
  std::unique_ptr<Agent> agent = MakeAgent("skypiea_v2", 1);
  EXPECT_EQ(agent->ChooseMove(position, {}), expected);
  EXPECT_EQ(agent->nodes(), search.nodes());
}

// --- skypiea_v5 -----------------------------------------------------------------------------

TEST(SkypieaV5Test, FirstMoveOfEachSideIsARandomCity) {
  std::set<int> openings;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    std::unique_ptr<Agent> agent = MakeAgent("skypiea_v5", seed);
    const Move first = agent->ChooseMove(Position::Start(), {});
    ASSERT_TRUE(Position::Start().IsLegal(first));
    EXPECT_EQ(first.kind(), Kind::kCity);
    EXPECT_EQ(MakeAgent("skypiea_v5", seed)->ChooseMove(Position::Start(), {}), first);
    Position after = Position::Start();
    after.Play(first);
    const Move second = agent->ChooseMove(after, {});
    ASSERT_TRUE(after.IsLegal(second));
    EXPECT_EQ(second.kind(), Kind::kCity);
    openings.insert(first.Index());
  }
  EXPECT_GT(openings.size(), 20u) << "60 seeds, 64 city moves: the opening must vary";
}

TEST(SkypieaV5Test, DepthScheduleByPiecesLeft) {
  // calculate_depth: >= 35 pieces left -> 2, >= 24 -> 4, >= 16 -> 5, else 7.
  const std::vector<std::pair<int, int>> ply_depth = {{2, 2},  {5, 2},  {6, 4},  {16, 4},
                                                      {17, 5}, {24, 5}, {25, 7}, {39, 7}};
  const std::vector<Position> game = testing::RandomGame(3);
  for (const auto& [ply, depth] : ply_depth) {
    EXPECT_EQ(SkypieaV5Depth(game[ply]), depth) << "ply " << ply;
  }
}

TEST(SkypieaV5Test, PlaysItsAlphaBetaAtTheScheduledDepth) {
  for (const int ply : {3, 8, 20, 27}) {
    const Position position = testing::RandomGame(40 + ply, ply).back();
    const CourseEvaluator evaluate(kSkypieaV5Evaluation, position.SideToMove());
    CourseSearch search(evaluate);
    const Move expected = search.AlphaBeta(position, SkypieaV5Depth(position));
    std::unique_ptr<Agent> agent = MakeAgent("skypiea_v5", 1);
    EXPECT_EQ(agent->ChooseMove(position, {}), expected) << "ply " << ply;
    EXPECT_EQ(agent->nodes(), search.nodes()) << "ply " << ply;
  }
}

TEST(SkypieaV5Test, PrefersCitiesToAnEarlyDivercite) {
  // Its evaluation weighs a city left at 1 - 24*step/40 (negative from step 2) and a resource
  // at 1 + 24*step/40: in mid-game, holding resources outweighs the +5 of the divercité. The
  // replica must keep that flaw.
  const Position position = FromString(kDivercitePosition);
  const Move move = MakeAgent("skypiea_v5", 1)->ChooseMove(position, {});
  EXPECT_EQ(move.kind(), Kind::kCity);
}

// --- mcts -----------------------------------------------------------------------------------

TEST(MctsTest, FindsTheWinningMoveNearTheEnd) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 400 && checked < 6; ++seed) {
    const Position position = testing::RandomGame(seed, kTotalPlies - 3).back();
    int winning = 0, losing = 0;
    for (const Move move : LegalMoves(position)) {
      Position child = position;
      child.Play(move);
      (-PerfectMargin(child) > 0 ? winning : losing) += 1;
    }
    if (winning == 0 || losing < 2) continue;
    ++checked;
    std::unique_ptr<Agent> agent = MakeAgent("mcts", seed);
    const Move move = agent->ChooseMove(position, {});
    ASSERT_TRUE(position.IsLegal(move));
    Position child = position;
    child.Play(move);
    EXPECT_GT(-PerfectMargin(child), 0)
        << "seed " << seed << ": " << MoveText(move) << " in " << ToPositionString(position);
    EXPECT_GT(agent->nodes(), 2000u);
  }
  EXPECT_EQ(checked, 6);
}

TEST(MctsTest, ReproducibleBySeedAndStopsOnTime) {
  const Position position = testing::RandomGame(9, 12).back();
  const Move a = MakeMctsAgent(4, 300)->ChooseMove(position, {});
  EXPECT_EQ(MakeMctsAgent(4, 300)->ChooseMove(position, {}), a);
  ASSERT_TRUE(position.IsLegal(a));
  std::unique_ptr<Agent> timed = MakeAgent("mcts", 4);
  AgentLimits limits;
  limits.movetime_ms = 50;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(position.IsLegal(timed->ChooseMove(position, limits)));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::milliseconds(500));
  EXPECT_GT(timed->nodes(), 0u);
  // A stop already requested still gives a legal move (one iteration).
  std::atomic<bool> stop{true};
  limits.movetime_ms = 0;
  limits.stop = &stop;
  EXPECT_TRUE(position.IsLegal(timed->ChooseMove(position, limits)));
}

// --- impel_down -----------------------------------------------------------------------------

TEST(ImpelDownTest, GreedyOnPliesZeroAndOne) {
  std::unique_ptr<Agent> agent = MakeAgent("impel_down", 1);
  EXPECT_EQ(MoveText(agent->ChooseMove(Position::Start(), {})), "RC14");
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Position position = testing::RandomGame(seed, 1).back();
    std::uint64_t nodes = 0;
    EXPECT_EQ(agent->ChooseMove(position, {}), GreedyMove(position, nodes));
  }
}

TEST(ImpelDownTest, MctsPhaseChoosesAmongTheTenBestEvaluatedMoves) {
  for (const int ply : {2, 5, 9}) {
    const Position position = testing::RandomGame(70 + ply, ply).back();
    const CourseEvaluator evaluate(kImpelDownEvaluation, position.SideToMove());
    // The tenth best evaluation: the chosen move's must be at least that.
    std::vector<double> values;
    for (const Move move : LegalMoves(position)) {
      Position child = position;
      child.Play(move);
      values.push_back(evaluate(child));
    }
    std::sort(values.rbegin(), values.rend());
    std::unique_ptr<Agent> a = MakeImpelDownAgent(11, 600);
    const Move move = a->ChooseMove(position, {});
    ASSERT_TRUE(position.IsLegal(move));
    Position child = position;
    child.Play(move);
    EXPECT_GE(evaluate(child), values[9]) << "ply " << ply;
    EXPECT_EQ(MakeImpelDownAgent(11, 600)->ChooseMove(position, {}), move) << "reproducible";
    EXPECT_GT(a->nodes(), 600u);
  }
}

TEST(ImpelDownTest, AlphaBetaFromPlyTen) {
  for (const int ply : {10, 29}) {
    const Position position = testing::RandomGame(90 + ply, ply).back();
    const CourseEvaluator evaluate(kImpelDownEvaluation, position.SideToMove());
    CourseSearch search(evaluate);
    const Move expected = search.AlphaBeta(position, ply == 10 ? 4 : 6);
    std::unique_ptr<Agent> agent = MakeAgent("impel_down", 1);
    EXPECT_EQ(agent->ChooseMove(position, {}), expected) << "ply " << ply;
    EXPECT_EQ(agent->nodes(), search.nodes());
  }
}

// --- Whole games ----------------------------------------------------------------------------

TEST(AgentGamesTest, EveryAgentPlaysLegalMovesThroughWholeGames) {
  for (const absl::string_view name : AgentNames()) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      // The heavy agents play one side of a game each; impel_down with a short MCTS phase.
      std::unique_ptr<Agent> agent =
          name == "impel_down" ? MakeImpelDownAgent(seed, 500) : MakeAgent(name, seed);
      std::unique_ptr<Agent> opponent = MakeAgent("random", seed + 100);
      const int moves =
          seed == 1 ? PlayCheckedGame(*agent, *opponent) : PlayCheckedGame(*opponent, *agent);
      EXPECT_EQ(moves, kTotalPlies) << name << " seed " << seed;
    }
  }
}

TEST(AgentGamesTest, SameSeedsReplayTheSameGame) {
  auto play = [](std::uint64_t seed) {
    std::unique_ptr<Agent> first = MakeAgent("mcts", seed);
    std::unique_ptr<Agent> second = MakeAgent("little_garden", seed);
    std::vector<Move> moves;
    Position position = Position::Start();
    while (!position.IsGameOver()) {
      Agent& agent = position.SideToMove() == Player::kFirst ? *first : *second;
      moves.push_back(agent.ChooseMove(position, {}));
      position.Play(moves.back());
    }
    return moves;
  };
  EXPECT_EQ(play(21), play(21));
}

// Not run by default: time per move of every agent from the start and at ply 20.
//   build/bin/agents_test --gtest_also_run_disabled_tests --gtest_filter=*TimePerMove*
TEST(AgentTimingTest, DISABLED_TimePerMove) {
  for (const absl::string_view name : AgentNames()) {
    for (const int ply : {0, 2, 10, 20, 25, 30}) {
      double total_ms = 0.0;
      std::uint64_t total_nodes = 0;
      constexpr int kSamples = 3;
      for (int sample = 0; sample < kSamples; ++sample) {
        const Position position = testing::RandomGame(1000 + sample, ply).back();
        std::unique_ptr<Agent> agent = MakeAgent(name, sample + 1);
        const auto start = std::chrono::steady_clock::now();
        const Move move = agent->ChooseMove(position, {});
        total_ms +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        total_nodes += agent->nodes();
        EXPECT_TRUE(position.IsLegal(move));
      }
      std::printf("%-14s ply %2d  %10.2f ms/move  %12llu nodes/move\n", std::string(name).c_str(),
                  ply, total_ms / kSamples,
                  static_cast<unsigned long long>(total_nodes / kSamples));
    }
  }
}

}  // namespace
}  // namespace divercite
