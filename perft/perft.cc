#include "perft/perft.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "engine/movegen.h"

namespace divercite {

std::uint64_t Perft(const Position& position, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return position.CountLegalMoves();
  std::uint64_t nodes = 0;
  if (depth == 2) {
    ForEachLegalMove(position, [&](Move move) {
      Position child = position;
      child.Play(move);
      nodes += child.CountLegalMoves();
    });
    return nodes;
  }
  ForEachLegalMove(position, [&](Move move) {
    Position child = position;
    child.Play(move);
    nodes += Perft(child, depth - 1);
  });
  return nodes;
}

std::vector<DivideEntry> Divide(const Position& position, int depth, int threads) {
  const MoveList moves = LegalMoves(position);
  std::vector<DivideEntry> entries(moves.size());
  std::atomic<int> next_move{0};
  auto work = [&] {
    for (int i = next_move++; i < moves.size(); i = next_move++) {
      Position child = position;
      child.Play(moves[i]);
      entries[i] = {moves[i], depth >= 1 ? Perft(child, depth - 1) : 0};
    }
  };
  const int helpers = std::clamp(threads, 1, std::max(1, moves.size())) - 1;
  std::vector<std::thread> pool;
  for (int t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  return entries;
}

PerftWithScores PerftScores(const Position& position, int depth) {
  PerftWithScores result;
  if (depth == 0) {
    result.nodes = 1;
    result.score_sums = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
    return result;
  }
  for (const Move move : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    const PerftWithScores below = PerftScores(child, depth - 1);
    result.nodes += below.nodes;
    result.score_sums[0] += below.score_sums[0];
    result.score_sums[1] += below.score_sums[1];
  }
  return result;
}

}  // namespace divercite
