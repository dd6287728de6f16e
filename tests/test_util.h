// Helpers shared by the tests.
#ifndef DIVERCITE_TESTS_TEST_UTIL_H_
#define DIVERCITE_TESTS_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/position.h"

namespace divercite::testing {

// Plays uniformly random legal moves from `start` for `plies` plies (or to the end) and
// returns every position on the way, `start` first.
inline std::vector<Position> RandomGame(std::uint64_t seed, int plies = kTotalPlies,
                                        Position start = Position::Start()) {
  std::mt19937_64 rng(seed);
  std::vector<Position> line{start};
  for (int i = 0; i < plies && !line.back().IsGameOver(); ++i) {
    const MoveList moves = LegalMoves(line.back());
    Position next = line.back();
    next.Play(moves[static_cast<int>(rng() % moves.size())]);
    line.push_back(next);
  }
  return line;
}

// The final margin (side to move's view, in points) under best play, by plain negamax over
// every move: the reference the solvers are checked against.
inline int BruteForceMargin(const Position& position) {
  if (position.IsGameOver()) {
    const Player us = position.SideToMove();
    return position.Score(us) - position.Score(Opponent(us));
  }
  int best = -1000;
  for (const Move move : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    best = std::max(best, -BruteForceMargin(child));
  }
  return best;
}

// How often `what` occurs in `text` (overlapping occurrences too).
inline int CountOccurrences(const std::string& text, const std::string& what) {
  int count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_TEST_UTIL_H_
