// The pattern sum: the score difference plus the learned values of the position's patterns
// (search/patterns.h), tapered over the ply. The engine's evaluation until the network replaced
// it (search/NOTES.md, "Issue 58: one evaluation"); kept as the tuners' baseline.
#ifndef DIVERCITE_TOOLS_TUNE_PATTERN_EVAL_H_
#define DIVERCITE_TOOLS_TUNE_PATTERN_EVAL_H_

#include <array>
#include <cstdint>
#include <string>

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

inline int EvaluatePatterns(const Position& position, const PatternWeights& weights) {
  return ScoreDifference(position) + PatternSum(position, weights);
}

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_PATTERN_EVAL_H_
