// divercite-bench: micro-benchmarks of the rules and the evaluation (Google Benchmark).
//
//   build/bin/divercite-bench                                  # everything
//   build/bin/divercite-bench --benchmark_filter=Perft/5        # perft(5), ~4 s
//   build/bin/divercite-bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <cstdint>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "perft/perft.h"
#include "search/network.h"
#include "search/network_eval_state.h"
#include "search/network_file.h"

namespace divercite {
namespace {

// Positions from uniformly random games at every ply, so each benchmark sees openings,
// middle games and endings alike.
const std::vector<Position>& SamplePositions() {
  static const std::vector<Position> positions = [] {
    std::vector<Position> sample;
    std::mt19937_64 rng(20241123);
    for (int game = 0; game < 64; ++game) {
      Position position = Position::Start();
      while (!position.IsGameOver()) {
        sample.push_back(position);
        const MoveList moves = LegalMoves(position);
        position.Play(moves[static_cast<int>(rng() % moves.size())]);
      }
    }
    return sample;
  }();
  return positions;
}

void BM_Holdings(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(Holdings::Of(positions[i]));
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Holdings);

// One item = one position evaluated from scratch.
void BM_Evaluate(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  const NetworkWeights& weights = *DefaultNetworkWeights();
  std::size_t i = 0;
  for (auto _ : state) {
    if (!positions[i].IsGameOver()) {
      benchmark::DoNotOptimize(EvaluateNetwork(positions[i], weights));
    }
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Evaluate);

// One item = the network's layers after the accumulators (what every evaluation costs beyond
// the accumulators' updates).
void BM_NetworkOutput(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  const NetworkWeights& weights = *DefaultNetworkWeights();
  std::vector<std::array<Accumulator, 2>> accumulators;
  for (const Position& position : positions) {
    const Player us = position.SideToMove();
    accumulators.push_back(
        {AccumulatorOf(position, us, weights), AccumulatorOf(position, Opponent(us), weights)});
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(NetworkOutput(accumulators[i][0], accumulators[i][1], weights));
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NetworkOutput);

// Calls per_child(parent's state, child, move, weights) for every legal move of one sample
// position an iteration, one item each; the parents' states are made outside the timing.
// `finished_too`: children that end the game count as well.
template <typename PerChild>
void TimeChildren(benchmark::State& state, bool finished_too, PerChild per_child) {
  const NetworkWeights& weights = *DefaultNetworkWeights();
  const std::vector<Position>& positions = SamplePositions();
  std::vector<NetworkEvalState> states;
  std::vector<MoveList> moves;
  for (const Position& position : positions) {
    states.emplace_back(position, weights);
    moves.push_back(LegalMoves(position));
  }
  std::int64_t items = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    for (const Move move : moves[i]) {
      Position child = positions[i];
      child.Play(move);
      if (!finished_too && child.IsGameOver()) continue;
      per_child(states[i], child, move, weights);
      ++items;
    }
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(items);
}

// One item = one child evaluated from its parent's state (the frontier's way).
void BM_EvaluateChildren(benchmark::State& state) {
  TimeChildren(state, false,
               [](const NetworkEvalState& parent, const Position& child, Move move,
                  const NetworkWeights& weights) {
                 benchmark::DoNotOptimize(parent.EvaluateAfter(child, move, weights));
               });
}
BENCHMARK(BM_EvaluateChildren);

// One item = one child's state made from its parent's (an interior node's way).
void BM_EvalStateAfter(benchmark::State& state) {
  TimeChildren(state, true,
               [](const NetworkEvalState& parent, const Position& child, Move move,
                  const NetworkWeights& weights) {
                 benchmark::DoNotOptimize(parent.After(child, move, weights));
               });
}
BENCHMARK(BM_EvalStateAfter);

void BM_GenerateMoves(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  std::int64_t moves_generated = 0;
  size_t i = 0;
  for (auto _ : state) {
    MoveList moves;
    GenerateMoves(positions[i], moves);
    benchmark::DoNotOptimize(moves);
    moves_generated += moves.size();
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(moves_generated);
  state.counters["moves/list"] =
      benchmark::Counter(static_cast<double>(moves_generated) / state.iterations());
}
BENCHMARK(BM_GenerateMoves);

// One item = one legal move played on a copy of its position (copy-make): each iteration
// plays every legal move of one sample position, as a search node does.
void BM_PlayMove(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  std::vector<MoveList> moves;
  for (const Position& position : positions) moves.push_back(LegalMoves(position));
  std::int64_t played = 0;
  size_t i = 0;
  for (auto _ : state) {
    const Position& position = positions[i];
    for (const Move move : moves[i]) {
      Position child = position;
      child.Play(move);
      benchmark::DoNotOptimize(child);
    }
    played += moves[i].size();
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(played);
}
BENCHMARK(BM_PlayMove);

// The copy alone: what copy-make pays over make/unmake. An unmake would have to undo the
// score changes, which costs as much as computing them.
void BM_CopyPosition(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  size_t i = 0;
  for (auto _ : state) {
    Position copy = positions[i];
    benchmark::DoNotOptimize(copy);
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CopyPosition);

void BM_CountLegalMoves(benchmark::State& state) {
  const std::vector<Position>& positions = SamplePositions();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(positions[i].CountLegalMoves());
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CountLegalMoves);

// Perft from the start: items = leaves; moves played = perft(depth - 1) (bulk counting).
void BM_Perft(benchmark::State& state) {
  const int depth = static_cast<int>(state.range(0));
  std::uint64_t leaves = 0;
  for (auto _ : state) {
    leaves = Perft(Position::Start(), depth);
    benchmark::DoNotOptimize(leaves);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(leaves) * state.iterations());
  state.counters["leaves"] = static_cast<double>(leaves);
  state.counters["moves_played/s"] = benchmark::Counter(
      static_cast<double>(Perft(Position::Start(), depth - 1)) * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Perft)->Arg(5)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace divercite

BENCHMARK_MAIN();
