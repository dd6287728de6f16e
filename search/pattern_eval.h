// The learned evaluation: the score difference plus the learned values of the position's
// patterns (search/patterns.h), tapered over the ply.
#ifndef DIVERCITE_SEARCH_PATTERN_EVAL_H_
#define DIVERCITE_SEARCH_PATTERN_EVAL_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/position.h"
#include "search/patterns.h"
#include "search/value.h"

namespace divercite {

// The learned tables: each pattern's value at the start and at the end of the game, in
// centipoints (100 = one point of the final margin), and where they came from.
struct PatternWeights {
  struct Value {
    std::int16_t start = 0;
    std::int16_t end = 0;
    friend bool operator==(Value, Value) = default;
  };
  std::array<Value, patterns::kNumPatterns> values{};
  std::string data;  // the data the values were fitted to
  std::string fit;   // the fit that made them

  friend bool operator==(const PatternWeights&, const PatternWeights&) = default;
};

// The value of the patterns of a position (not finished), from the side to move's view: the
// tapered sum, without the score difference.
inline int PatternSum(const Position& position, const PatternWeights& weights) {
  int start = 0, end = 0;
  ForEachPattern(position, [&](int pattern, int sign) {
    start += sign * weights.values[pattern].start;
    end += sign * weights.values[pattern].end;
  });
  const int ply = position.Ply();
  return (start * (kTotalPlies - ply) + end * ply) / kTotalPlies;
}

// One pattern of a position and what it adds to the evaluation (tapered, signed: side to
// move's view, centipoints): for `eval`. `cell` is the city cell, or kNoCell for the global
// tables.
struct PatternContribution {
  int cell;
  int pattern;
  int value;
};
inline std::vector<PatternContribution> PatternContributions(const Position& position,
                                                             const PatternWeights& weights) {
  std::vector<PatternContribution> list;
  const int ply = position.Ply();
  std::size_t next_cell = 0;
  ForEachPattern(position, [&](int pattern, int sign) {
    int cell = kNoCell;
    if (pattern < patterns::kThreatOffset) {
      // Patterns of cells come in the cells' order, skipping cells without one.
      while (next_cell < patterns::kCityCellList.size()) {
        const int candidate = patterns::kCityCellList[next_cell++];
        const Bitboard around = Neighbours(candidate);
        const bool settled =
            (position.Occupied() & Bit(candidate)) && (position.Occupied() & around) == around;
        if (!settled) {
          cell = candidate;
          break;
        }
      }
    }
    const PatternWeights::Value value = weights.values[pattern];
    list.push_back({cell, pattern,
                    sign * (value.start * (kTotalPlies - ply) + value.end * ply) / kTotalPlies});
  });
  return list;
}

inline int EvaluatePatterns(const Position& position, const PatternWeights& weights) {
  return ScoreDifference(position) + PatternSum(position, weights);
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_PATTERN_EVAL_H_
