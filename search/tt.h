// The transposition table, shared by all search threads (Lazy SMP).
//
// Keys are symmetry-reduced (see canonical_key.h): positions equal up to a board symmetry
// share one entry. Stored moves are in the canonical frame; the prober maps them back.
//
// Symmetric positions stop arising a few plies into the game, so it changes little (measured:
// see NOTES.md, "Symmetry-reduced keys"); at the root, the symmetric moves are already
// searched once (DistinctMoves). The 24 colour
// permutations would pay even less (colours lose their symmetry with the first resource)
// and cost 24 times the keys, so they are not used.
//
// An entry is two 64-bit words, each read and written atomically (relaxed), so the table is
// free of data races. The first holds the full key XOR the second (Hyatt's lockless
// hashing): an entry torn by two threads writing at once no longer verifies and reads as a
// miss, and positions never share an entry by a partial key match, which an exact solver
// cannot afford (a partial check let foreign entries corrupt solves: NOTES.md, "Full keys").
//
//   word 0      key ^ word 1
//   word 1 bits  0- 7  move          (Move::bits(), 0xFF = none)
//          bits  8-15  depth         (plies; >= plies left means an exact solve to the end)
//          bits 16-31  value         (int16, centipoints, side to move's view)
//          bits 32-33  bound         (none, upper, lower, exact)
//          bits 34-39  generation    (search counter, modulo 64, for aging)
//          bits 40-63  unused
//
// A cluster is 4 entries = 64 bytes, one cache line.
#ifndef DIVERCITE_SEARCH_TT_H_
#define DIVERCITE_SEARCH_TT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "engine/move.h"

namespace divercite {

enum class Bound : std::uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

struct TTEntry {
  Move move;
  int depth = 0;
  int value = 0;
  Bound bound = Bound::kNone;
  // Whether the entry proves the position's value is at least `beta` / at most `alpha`.
  bool ProvesAtLeast(int beta) const {
    return value >= beta && (bound == Bound::kLower || bound == Bound::kExact);
  }
  bool ProvesAtMost(int alpha) const {
    return value <= alpha && (bound == Bound::kUpper || bound == Bound::kExact);
  }
};

// What a fail-soft search's result within (alpha, beta) says of the value.
inline Bound BoundOfResult(int value, int alpha, int beta) {
  return value >= beta ? Bound::kLower : value > alpha ? Bound::kExact : Bound::kUpper;
}

class TranspositionTable {
 public:
  static constexpr int kEntriesPerCluster = 4;
  struct Entry {
    std::atomic<std::uint64_t> check;  // key ^ data
    std::atomic<std::uint64_t> data;
  };
  struct alignas(64) Cluster {
    Entry entries[kEntriesPerCluster];
  };
  static_assert(sizeof(Cluster) == 64, "a cluster is one cache line");

  TranspositionTable() = default;
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  // Allocates `megabytes` MiB (rounded down to a power of two clusters) and clears it.
  // Returns false, leaving the previous table, if the memory cannot be had.
  bool Resize(std::size_t megabytes);
  void Clear();
  std::size_t SizeBytes() const { return cluster_count_ * sizeof(Cluster); }

  // An entry's generation: the search counter modulo this (its 6 bits in the entry).
  static constexpr std::uint8_t kGenerationMask = 63;

  // Starts a new search: entries of older searches are preferred for replacement.
  void NewSearch() { generation_ = (generation_ + 1) & kGenerationMask; }

  bool Probe(std::uint64_t key, TTEntry& entry) const;
  // Starts loading the key's cluster into the cache, ahead of its Probe().
  void Prefetch(std::uint64_t key) const { __builtin_prefetch(&ClusterFor(key)); }
  void Store(std::uint64_t key, Move move, int depth, int value, Bound bound);

  // Permille of sampled entries written by the current search (UCI "hashfull").
  int HashFull() const;

 private:
  Cluster& ClusterFor(std::uint64_t key) const { return clusters_[key & (cluster_count_ - 1)]; }

  Cluster* clusters_ = nullptr;
  std::size_t cluster_count_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_TT_H_
