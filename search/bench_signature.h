// The bench signature (the protocol's `bench`; bench/ holds the micro-benchmarks and figures):
// fixed positions searched to a fixed depth, one thread, a fresh table each. Its node count is
// the search's signature: it changes exactly when the search's behaviour does, and
// tests/bench_signature_test.cc holds it to kBenchSignature.
#ifndef DIVERCITE_SEARCH_BENCH_SIGNATURE_H_
#define DIVERCITE_SEARCH_BENCH_SIGNATURE_H_

#include <chrono>
#include <cstdint>
#include <functional>

#include "absl/strings/string_view.h"
#include "search/search.h"

namespace divercite {

inline constexpr int kDefaultBenchDepth = 6;

// The node count of the bench at kDefaultBenchDepth. A commit that changes the search's
// behaviour updates it and quotes it.
inline constexpr std::uint64_t kBenchSignature = 1'852'196;

// The start, and positions of the course code's perft table (reference/perft.json: uniform
// random play from the start) at plies 10, 20, 30, 35.
inline constexpr absl::string_view kBenchPositions[] = {
    "1/3/5/7/9/7/5/3/1 w",
    "1/2b/2r2/Bb5/1B1R5/2g1y2/Y1R2/3/1 w",
    "g/3/2bYr/B5r/2Y1b3B/7/2G2/3/1 w",
    "1/g2/1R3/5B1/2yy4B/4b2/G3y/1B1/1 w",
    "b/rY1/2bg1/1yGY1r1/B5RBG/g3y1G/b3R/Yg1/1 w",
    "1/1rR/2r1G/GbBy1BY/YG2rr3/3Y2g/3bg/1yR/1 w",
    "Y/3/2B1B/yRR3R/1B4B1y/bG2bbg/g2gb/G1y/1 w",
    "Y/gBy/B1by1/1gg2b1/2RBBg1Y1/GYr1YRB/YRyGy/brr/g w",
    "y/G1r/RgY1r/b1GyBYR/yRbryG1BG/1Yg1YgR/1r1y1/Y2/r w",
    "b/Byb/RgRrg/rr3Ry/GG1gyRGb1/rYY1Ybg/BYgBG/RBb/B b",
    "g/rgb/r1gBG/bYygBGY/2YrbGyyR/Br1RrRG/g1GBy/R1R/Y b",
};

struct BenchTotals {
  std::uint64_t nodes = 0;
  std::chrono::steady_clock::duration searching{};  // clearing the tables is not counted
};

// Searches every bench position to `depth`; `on_position` hears each one's result.
BenchTotals RunBench(int depth,
                     const std::function<void(absl::string_view position_string,
                                              const SearchResult& result)>& on_position = {});

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_BENCH_SIGNATURE_H_
