// The check that the evaluation kept from move to move (search/eval_state.h) equals the
// evaluation from scratch: shared by the tests of both kinds of weights, each checking the
// state class of its kind.
#ifndef DIVERCITE_TESTS_EVAL_STATE_CHECK_H_
#define DIVERCITE_TESTS_EVAL_STATE_CHECK_H_

#include <cstdint>
#include <random>
#include <type_traits>

#include "engine/movegen.h"
#include "engine/position.h"
#include "gtest/gtest.h"
#include "search/eval_state.h"
#include "search/evaluation.h"

namespace divercite::testing {

// Along `games` random games, a state carried from move to move and every `child_stride`-th
// child's evaluation from its parent's state equal Evaluate() from scratch. `positions` gets
// how many positions were checked.
inline void CheckIncrementalAlongRandomGames(const EvalWeights& weights, int games,
                                             int child_stride, int& positions) {
  WithEvalState(weights, [&]<typename State>(std::type_identity<State>,
                                             const typename State::Weights& state_weights) {
    positions = 0;
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games); ++seed) {
      std::mt19937_64 rng(seed);
      Position position = Position::Start();
      State state(position, state_weights);
      while (!position.IsGameOver()) {
        ASSERT_EQ(state.Evaluate(position, state_weights), Evaluate(position, weights))
            << "seed " << seed << " ply " << position.Ply();
        const MoveList moves = LegalMoves(position);
        for (int i = 0; i < moves.size(); i += child_stride) {
          Position child = position;
          child.Play(moves[i]);
          if (child.IsGameOver()) continue;
          ASSERT_EQ(state.EvaluateAfter(child, moves[i], state_weights), Evaluate(child, weights))
              << "seed " << seed << " ply " << position.Ply() << " move " << MoveToString(moves[i]);
        }
        const Move move = moves[static_cast<int>(rng() % moves.size())];
        Position next = position;
        next.Play(move);
        state = state.After(next, move, state_weights);
        position = next;
        ++positions;
      }
    }
  });
}

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_EVAL_STATE_CHECK_H_
