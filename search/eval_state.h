// The evaluation kept from move to move, one class for each of the two evaluations behind one
// interface: the search is compiled once for each (search/worker.h), and the kind is chosen
// once per search from the weights, never per node.
#ifndef DIVERCITE_SEARCH_EVAL_STATE_H_
#define DIVERCITE_SEARCH_EVAL_STATE_H_

#include <concepts>
#include <type_traits>

#include "engine/move.h"
#include "engine/position.h"
#include "search/evaluation.h"
#include "search/network_eval_state.h"
#include "search/pattern_eval_state.h"

namespace divercite {

// An evaluation kept from move to move: made from scratch, carried to a child, and giving the
// position's evaluation or a child's (a game not yet over), each equal to Evaluate() from
// scratch with the same weights.
template <typename State>
concept EvalStateOf = requires(const State state, const Position& position, Move move,
                               const typename State::Weights& weights) {
  State(position, weights);
  { state.After(position, move, weights) } -> std::same_as<State>;
  { state.Evaluate(position, weights) } -> std::same_as<int>;
  { state.EvaluateAfter(position, move, weights) } -> std::same_as<int>;
};
static_assert(EvalStateOf<NetworkEvalState> && EvalStateOf<PatternEvalState>);

// The weights of `State`'s kind among `weights` (which must be of that kind).
template <EvalStateOf State>
const typename State::Weights& WeightsFor(const EvalWeights& weights) {
  if constexpr (std::is_same_v<State, NetworkEvalState>) {
    return *weights.network;
  } else {
    return *weights.patterns;
  }
}

// Calls f(std::type_identity<State>{}, state_weights) with the state class of the kind of
// `weights`: where a search, a test or a bench chooses its evaluation once.
template <typename F>
decltype(auto) WithEvalState(const EvalWeights& weights, F&& f) {
  if (weights.network) return f(std::type_identity<NetworkEvalState>{}, *weights.network);
  return f(std::type_identity<PatternEvalState>{}, *weights.patterns);
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVAL_STATE_H_
