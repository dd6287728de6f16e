// The course agents built on CourseSearch: little_garden and water_seven (plain minimax, depth
// 3), skypiea_v2 and skypiea_v5 (alpha-beta with a depth schedule). All play a random first
// move on plies 0 and 1 ("if current_state.get_step() < 2"), as the seeds do to save clock.
#include <cstdint>
#include <memory>

#include "agents/agents_internal.h"
#include "agents/course_evaluation.h"
#include "agents/course_search.h"

namespace divercite {

int SkypieaV2Depth(const Position& position) {
  // nb_pieces_1 + nb_pieces_2: every piece still held is a ply still to play.
  return position.PliesLeft() >= 12 ? 4 : 6;
}

int SkypieaV5Depth(const Position& position) {
  const int total_pieces = position.PliesLeft();
  if (total_pieces >= 35) return 2;
  if (total_pieces >= 24) return 4;
  if (total_pieces >= 16) return 5;
  return 7;
}

namespace {

enum class FirstMove { kAnyMove, kCityMove };
enum class Algorithm { kMinimax, kAlphaBeta };

struct CourseAgentConfig {
  FirstMove first_move;
  Algorithm algorithm;
  int (*depth)(const Position&);
  CourseEvaluation evaluation;
};

int FixedDepthThree(const Position&) { return 3; }

class CourseSearchAgent final : public Agent {
 public:
  CourseSearchAgent(const CourseAgentConfig& config, std::uint64_t seed)
      : config_(config), rng_(seed) {}

  Move ChooseMove(const Position& position, const AgentLimits&) override {
    nodes_ = 0;
    if (position.Ply() < 2) {
      return config_.first_move == FirstMove::kCityMove ? RandomCityMove(position, rng_)
                                                        : RandomLegalMove(position, rng_);
    }
    const CourseEvaluator evaluate(config_.evaluation, position.SideToMove());
    CourseSearch search(evaluate);
    const int depth = config_.depth(position);
    const Move move = config_.algorithm == Algorithm::kMinimax ? search.Minimax(position, depth)
                                                               : search.AlphaBeta(position, depth);
    nodes_ = search.nodes();
    return move;
  }
  std::uint64_t nodes() const override { return nodes_; }

 private:
  CourseAgentConfig config_;
  AgentRng rng_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

std::unique_ptr<Agent> MakeLittleGardenAgent(std::uint64_t seed) {
  return std::make_unique<CourseSearchAgent>(
      CourseAgentConfig{FirstMove::kAnyMove, Algorithm::kMinimax, FixedDepthThree,
                        kLittleGardenEvaluation},
      seed);
}

std::unique_ptr<Agent> MakeWaterSevenAgent(std::uint64_t seed) {
  return std::make_unique<CourseSearchAgent>(
      CourseAgentConfig{FirstMove::kAnyMove, Algorithm::kMinimax, FixedDepthThree,
                        kWaterSevenEvaluation},
      seed);
}

std::unique_ptr<Agent> MakeSkypieaV2Agent(std::uint64_t seed) {
  return std::make_unique<CourseSearchAgent>(
      CourseAgentConfig{FirstMove::kAnyMove, Algorithm::kAlphaBeta, SkypieaV2Depth,
                        kWaterSevenEvaluation},
      seed);
}

std::unique_ptr<Agent> MakeSkypieaV5Agent(std::uint64_t seed) {
  return std::make_unique<CourseSearchAgent>(
      CourseAgentConfig{FirstMove::kCityMove, Algorithm::kAlphaBeta, SkypieaV5Depth,
                        kSkypieaV5Evaluation},
      seed);
}

}  // namespace divercite
