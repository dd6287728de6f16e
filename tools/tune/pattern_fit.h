// Fitting the pattern tables of the learned evaluation (search/patterns.h) to the positions of
// recorded games, by regularised least squares.
//
// The evaluation of a position at ply p, in points from the side to move's view, is
//     score difference + sum over its patterns k of  sign_k x ((40 - p) E[k] + p L[k]) / 40
// where E and L are a pattern's values at the start and at the end of the game. It is linear
// in the values, so the values that predict a set of positions' labels best (with a penalty
// lambda x sum of squared values, which settles the patterns that are rare or never seen) are
// the solution of the regularised normal equations (X'X + lambda I) w = X'y.
//
// A position's label is one of:
//   later   the first exact score an engine reported at this position or later in the game
//           (Texel's method with solved values), seen from the position's side to move;
//   search  the score the mover reported at this position (a search's value, exact from the
//           solve on);
//   blend   the mean of the two.
#ifndef DIVERCITE_TOOLS_TUNE_PATTERN_FIT_H_
#define DIVERCITE_TOOLS_TUNE_PATTERN_FIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "tools/records/game_record.h"
#include "tools/tune/pattern_eval.h"

namespace divercite {

struct PatternTerm {
  std::uint16_t pattern;
  std::int8_t sign;
};

// The positions of games with their patterns, kept in one pool.
struct PatternSamples {
  struct Sample {
    std::uint8_t ply = 0;
    bool exact = false;  // the position's own reported score was exact
    bool has_search = false;
    int game = 0;
    int pair = 0;
    float later = 0;   // points, side to move's view
    float search = 0;  // points, side to move's view (when has_search)
    float score_difference = 0;
    float old_eval = 0;  // the linear evaluation (tools/tune/linear_eval.h), points
    std::uint32_t first_term = 0, num_terms = 0;
  };
  std::vector<Sample> samples;
  std::vector<PatternTerm> terms;

  void Add(const Position& position, Sample sample);
  std::size_t size() const { return samples.size(); }
};

// Appends the labelled positions of one game (tools/tune/labelled_positions.h) to `samples`.
// Errors: a malformed or illegal move, a bad start position.
absl::Status AddGameSamples(const GameRecord& record, PatternSamples& samples);

enum class Label { kLater, kSearch, kBlend };
// The label of a sample (points); the search label falls back to `later` when absent.
double LabelOf(const PatternSamples::Sample& sample, Label label);

struct PatternFit {
  PatternWeights weights;      // rounded to centipoints
  std::vector<double> values;  // in points: E[0..n), then L[0..n)
  int columns_used = 0;        // patterns seen in the samples (both values counted)
};

// Fits the tables to `samples` (those for which `use` is true), labels `label`, penalty
// `lambda`. Values of patterns never seen are 0.
PatternFit FitPatterns(const PatternSamples& samples, const std::vector<bool>& use, Label label,
                       double lambda);

// The evaluation of a sample with the fitted values, in points.
double PredictPoints(const PatternSamples& samples, const PatternSamples::Sample& sample,
                     const std::vector<double>& values);

// Synthetic samples for the tests: random positions whose later label is made of planted
// pattern values (in points) and no noise.
PatternSamples PlantedSamples(const std::vector<double>& values, int games, std::uint64_t seed);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_PATTERN_FIT_H_
