// The pattern weight file: the pattern tables of tools/tune/pattern_eval.h as text, versioned,
// and checked when read (divercite-tune-patterns writes it; the engine's EvalFile refuses it:
// its evaluation is the network).
//
//   # comments (anywhere before the checksum)
//   divercite-eval 1
//   layout patterns-1 live=400 dead=512 empty=1176 threats=16 hand=17 side=2
//   data <what the values were fitted to>
//   fit <the fit that made them>
//   values <n>
//   <pattern> <start> <end>          n lines; patterns not listed are worth 0
//   ...
//   checksum <16 hex digits>         FNV-1a (64 bits) of every byte before this line
//
// A pattern's values are in centipoints (100 = one point of the final margin), at the start
// and at the end of the game; a value line may end with a comment ("# live city, ...").
// The layout line must be this engine's (patterns::LayoutText()): a file made for other tables
// is refused, as is a file that is cut short, changed by hand without a new checksum, or
// malformed; the error names the file, the line and the fault.
#ifndef DIVERCITE_TOOLS_TUNE_PATTERN_FILE_H_
#define DIVERCITE_TOOLS_TUNE_PATTERN_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/tune/pattern_eval.h"

namespace divercite {

inline constexpr int kEvalFileVersion = 1;

// The file's text for `weights` (non-zero values only, each with its pattern described).
std::string FormatPatternFile(const PatternWeights& weights);
// Reads a weight file's text; `source` names it in errors.
absl::StatusOr<PatternWeights> ParsePatternFile(absl::string_view text, absl::string_view source);

absl::StatusOr<PatternWeights> ReadPatternFile(const std::string& path);
absl::Status WritePatternFile(const std::string& path, const PatternWeights& weights);

// The weights the engine starts with: tools/tune/patterns.eval, compiled in.
const PatternWeights& DefaultPatternWeights();
// The same, shared (never freed).
std::shared_ptr<const PatternWeights> DefaultPatternWeightsShared();

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_PATTERN_FILE_H_
