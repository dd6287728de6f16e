#include "search/bench_signature.h"

#include <cstddef>

#include "engine/position_string.h"

namespace divercite {
namespace {

// Part of the signature: the table's size decides which entries stay.
constexpr std::size_t kBenchHashMegabytes = 16;

}  // namespace

BenchTotals RunBench(int depth,
                     const std::function<void(absl::string_view position_string,
                                              const SearchResult& result)>& on_position) {
  Searcher searcher(kBenchHashMegabytes);
  SearchOptions options;
  options.threads = 1;
  searcher.SetOptions(options);
  BenchTotals totals;
  for (const absl::string_view text : kBenchPositions) {
    // The positions are constants, checked by the bench's own test.
    const Position position = *ParsePositionString(text);
    searcher.NewGame();
    SearchLimits limits;
    limits.depth = depth;
    const auto start = std::chrono::steady_clock::now();
    const SearchResult result = searcher.Search(position, limits, {});
    totals.searching += std::chrono::steady_clock::now() - start;
    totals.nodes += result.nodes;
    if (on_position) on_position(text, result);
  }
  return totals;
}

}  // namespace divercite
