#include "search/tt.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#ifdef DIVERCITE_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

#include "search/value.h"

namespace divercite {
namespace {

constexpr std::uint64_t Pack(Move move, int depth, int value, Bound bound,
                             std::uint8_t generation) {
  return std::uint64_t{move.bits()} | (std::uint64_t(static_cast<std::uint8_t>(depth)) << 8) |
         (std::uint64_t(static_cast<std::uint16_t>(static_cast<std::int16_t>(value))) << 16) |
         (std::uint64_t(static_cast<std::uint8_t>(bound)) << 32) |
         (std::uint64_t{generation} << 34);
}
constexpr Move MoveOf(std::uint64_t data) { return Move::FromBits(data & 0xFF); }
constexpr int DepthOf(std::uint64_t data) { return (data >> 8) & 0xFF; }
constexpr int ValueOf(std::uint64_t data) {
  return static_cast<std::int16_t>((data >> 16) & 0xFFFF);
}
constexpr Bound BoundOf(std::uint64_t data) { return static_cast<Bound>((data >> 32) & 3); }
constexpr std::uint8_t GenerationOf(std::uint64_t data) {
  return (data >> 34) & TranspositionTable::kGenerationMask;
}

// Tables of a few MiB and up are aligned to the 2 MiB of a huge page and asked to be backed
// by huge pages: a probe lands anywhere in the table, and with 4 KiB pages nearly every one
// also missed the TLB (measured: see NOTES.md, "Huge pages").
constexpr std::size_t kHugePage = std::size_t{2} << 20;

void* AllocateTable(std::size_t bytes) {
  const std::size_t alignment = bytes >= kHugePage ? kHugePage : 64;
#ifdef DIVERCITE_HAVE_MIMALLOC
  void* memory = mi_malloc_aligned(bytes, alignment);
#else
  void* memory = std::aligned_alloc(alignment, bytes);
#endif
#ifdef MADV_HUGEPAGE
  if (memory != nullptr && bytes >= kHugePage) madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  return memory;
}

void FreeTable(void* memory) {
#ifdef DIVERCITE_HAVE_MIMALLOC
  mi_free(memory);
#else
  std::free(memory);
#endif
}

}  // namespace

TranspositionTable::~TranspositionTable() { FreeTable(clusters_); }

bool TranspositionTable::Resize(std::size_t megabytes) {
  // A 32-bit size_t (wasm32) holds less than 4096 MiB: such a size cannot be had, and its
  // bytes would wrap around to a table of no clusters.
  if (megabytes > std::numeric_limits<std::size_t>::max() >> 20) return false;
  const std::size_t bytes = std::max<std::size_t>(megabytes, 1) << 20;
  const std::size_t count = std::bit_floor(bytes / sizeof(Cluster));
  void* memory = AllocateTable(count * sizeof(Cluster));
  if (memory == nullptr) return false;
  FreeTable(clusters_);
  clusters_ = static_cast<Cluster*>(memory);
  cluster_count_ = count;
  Clear();
  return true;
}

// Only called while no search runs; a plain memset is far faster than storing entry by entry
// (NOTES.md, "Clearing the table"), and an all-zero word is an empty entry.
void TranspositionTable::Clear() {
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
  std::memset(static_cast<void*>(clusters_), 0, cluster_count_ * sizeof(Cluster));
  generation_ = 0;
}

bool TranspositionTable::Probe(std::uint64_t key, TTEntry& entry) const {
  for (const Entry& slot : ClusterFor(key).entries) {
    const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
    const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
    if ((check ^ data) != key || BoundOf(data) == Bound::kNone) continue;
    entry.move = MoveOf(data);
    entry.depth = DepthOf(data);
    entry.value = ValueOf(data);
    entry.bound = BoundOf(data);
    return true;
  }
  return false;
}

// Replaces the entry of the same position if there is one, else the entry that is worth
// least: shallow and from an old search.
void TranspositionTable::Store(std::uint64_t key, Move move, int depth, int value, Bound bound) {
  // The entry keeps the value in 16 bits; every real value is far inside that.
  assert(-kInfiniteValue < value && value < kInfiniteValue);
  assert(bound != Bound::kNone && depth >= 0 && depth <= kMaxPly);
  Cluster& cluster = ClusterFor(key);
  Entry* target = &cluster.entries[0];
  int worst = 1 << 30;
  for (Entry& slot : cluster.entries) {
    const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
    const bool same = (slot.check.load(std::memory_order_relaxed) ^ data) == key;
    if (BoundOf(data) == Bound::kNone || same) {
      // Keep the old move when the new result has none (a fail-low node).
      if (move.IsNone() && same && BoundOf(data) != Bound::kNone) move = MoveOf(data);
      target = &slot;
      break;
    }
    const int age = (generation_ - GenerationOf(data)) & kGenerationMask;
    const int worth = DepthOf(data) - 4 * age;
    if (worth < worst) {
      worst = worth;
      target = &slot;
    }
  }
  const std::uint64_t data = Pack(move, std::clamp(depth, 0, 255), value, bound, generation_);
  target->data.store(data, std::memory_order_relaxed);
  target->check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::HashFull() const {
  const std::size_t sample = std::min<std::size_t>(1000, cluster_count_);
  int used = 0;
  for (std::size_t i = 0; i < sample; ++i) {
    for (const Entry& slot : clusters_[i].entries) {
      const std::uint64_t data = slot.data.load(std::memory_order_relaxed);
      used += BoundOf(data) != Bound::kNone && GenerationOf(data) == generation_;
    }
  }
  return static_cast<int>(used * 1000 / (sample * kEntriesPerCluster));
}

}  // namespace divercite
