// Perft: the number of move sequences of a given length, counted by walking the tree.
// It exists to exercise move generation and Position::Play, so every move above the last
// ply is played; only the last ply is counted in bulk (CountLegalMoves).
#ifndef DIVERCITE_PERFT_PERFT_H_
#define DIVERCITE_PERFT_PERFT_H_

#include <array>
#include <cstdint>
#include <vector>

#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

// Number of leaves of the move tree of depth `depth` under `position`. Sequences that would
// run past the end of the game count 0, as in the course code.
std::uint64_t Perft(const Position& position, int depth);

struct DivideEntry {
  Move move;
  std::uint64_t nodes;
};

// Perft(child, depth - 1) for every legal move, in generation order. With `threads` > 1 the
// root moves are shared among that many threads.
std::vector<DivideEntry> Divide(const Position& position, int depth, int threads = 1);

// Perft that also plays the leaf moves and adds up both players' scores at the leaves
// (including the last-move tie-break): the `score_sums` of reference/perft.json.
struct PerftWithScores {
  std::uint64_t nodes = 0;
  std::array<std::int64_t, kNumPlayers> score_sums{};
};
PerftWithScores PerftScores(const Position& position, int depth);

}  // namespace divercite

#endif  // DIVERCITE_PERFT_PERFT_H_
