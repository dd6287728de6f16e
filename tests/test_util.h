// Helpers shared by the tests.
#ifndef DIVERCITE_TESTS_TEST_UTIL_H_
#define DIVERCITE_TESTS_TEST_UTIL_H_

#include <cstdint>
#include <random>
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

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_TEST_UTIL_H_
