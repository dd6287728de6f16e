// Simplified ABDADA (T. Kerrigan's variant of Weill's ABDADA): the moves that some thread is
// searching right now, so that another thread arriving at the same node searches its other
// moves first and comes back to these later, when their values are in the table. Lazy SMP
// alone left the threads walking the same tree in the same order, so a second thread saved
// little time (measured: see NOTES.md, "Issue 13: two threads").
//
// A lossy, lock-free set: a move's key is a (position, move) hash; its slot holds a 32-bit
// tag. A collision only defers a move that nobody searches, or searches one twice: never a
// wrong value, since every value still comes from a search or the table.
#ifndef DIVERCITE_SEARCH_MOVES_IN_PROGRESS_H_
#define DIVERCITE_SEARCH_MOVES_IN_PROGRESS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/move.h"

namespace divercite {

class MovesInProgress {
 public:
  // The key of `move` played in the position of `position_key`.
  static std::uint64_t KeyOf(std::uint64_t position_key, Move move) {
    return position_key ^ ((static_cast<std::uint64_t>(move.Index()) + 1) * 0x9E3779B97F4A7C15ull);
  }

  MovesInProgress() : sets_(std::make_unique<Set[]>(kSets)) {}

  // Whether another thread has said it is searching this move (and not yet that it is done).
  bool Contains(std::uint64_t key) const {
    const Set& set = sets_[SetOf(key)];
    const std::uint32_t tag = TagOf(key);
    for (const std::atomic<std::uint32_t>& way : set) {
      if (way.load(std::memory_order_relaxed) == tag) return true;
    }
    return false;
  }

  // Marks the move as being searched: a free way of its set, else the first way.
  void Add(std::uint64_t key) {
    Set& set = sets_[SetOf(key)];
    const std::uint32_t tag = TagOf(key);
    for (std::atomic<std::uint32_t>& way : set) {
      std::uint32_t seen = way.load(std::memory_order_relaxed);
      if (seen == tag) return;
      if (seen == kFree && way.compare_exchange_strong(seen, tag, std::memory_order_relaxed)) {
        return;
      }
    }
    set[0].store(tag, std::memory_order_relaxed);
  }

  // The move's search is over (done or abandoned).
  void Remove(std::uint64_t key) {
    Set& set = sets_[SetOf(key)];
    std::uint32_t tag = TagOf(key);
    for (std::atomic<std::uint32_t>& way : set) {
      std::uint32_t expected = tag;
      way.compare_exchange_strong(expected, kFree, std::memory_order_relaxed);
    }
  }

 private:
  static constexpr int kSets = 1 << 15;
  static constexpr int kWays = 4;
  static constexpr std::uint32_t kFree = 0;
  using Set = std::array<std::atomic<std::uint32_t>, kWays>;

  static std::size_t SetOf(std::uint64_t key) { return key & (kSets - 1); }
  // The high half of the key, never the free mark.
  static std::uint32_t TagOf(std::uint64_t key) {
    return static_cast<std::uint32_t>(key >> 32) | 1u;
  }

  std::unique_ptr<Set[]> sets_;  // 512 KiB: zero-initialised (free) by make_unique
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_MOVES_IN_PROGRESS_H_
