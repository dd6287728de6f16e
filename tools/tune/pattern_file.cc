#include "tools/tune/pattern_file.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "search/weight_file.h"
#include "tools/tune/default_pattern_text.h"

namespace divercite {
namespace {

constexpr int kMaxValue = 30000;  // centipoints: far beyond any margin

}  // namespace

std::string FormatPatternFile(const PatternWeights& weights) {
  std::string text =
      "# The learned evaluation's pattern values (search/patterns.h), in centipoints at the\n"
      "# start and at the end of the game. Made by divercite-tune-patterns; see search/NOTES.md.\n";
  absl::StrAppend(&text, "divercite-eval ", kEvalFileVersion, "\n");
  absl::StrAppend(&text, "layout ", patterns::LayoutText(), "\n");
  absl::StrAppend(&text, "data ", OneLine(weights.data), "\n");
  absl::StrAppend(&text, "fit ", OneLine(weights.fit), "\n");
  int count = 0;
  for (const PatternWeights::Value& value : weights.values)
    count += value != PatternWeights::Value{};
  absl::StrAppend(&text, "values ", count, "\n");
  for (int k = 0; k < patterns::kNumPatterns; ++k) {
    const PatternWeights::Value value = weights.values[k];
    if (value == PatternWeights::Value{}) continue;
    absl::StrAppend(&text, absl::StrFormat("%d %d %d  # %s\n", k, value.start, value.end,
                                           patterns::DescribePattern(k)));
  }
  return WithChecksum(std::move(text));
}

absl::StatusOr<PatternWeights> ParsePatternFile(absl::string_view text, absl::string_view source) {
  PatternWeights weights;
  int line_number = 0;
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(source, ":", line_number, ": ", why));
  };
  // The checksum line is the last one; everything before it is checked against it.
  const ChecksummedText split = SplitAtChecksum(text);
  const std::vector<absl::string_view>& lines = split.lines;

  enum class Expect { kMagic, kLayout, kData, kFit, kValues, kValueLines };
  Expect expect = Expect::kMagic;
  int values_left = 0;
  std::vector<bool> seen(patterns::kNumPatterns, false);
  for (absl::string_view line : lines) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (expect != Expect::kData && expect != Expect::kFit) {
      if (const std::size_t hash = line.find('#'); hash != absl::string_view::npos) {
        line = absl::StripAsciiWhitespace(line.substr(0, hash));
      }
      if (line.empty()) continue;
    }
    const std::vector<absl::string_view> words = absl::StrSplit(line, ' ', absl::SkipEmpty());
    switch (expect) {
      case Expect::kMagic: {
        int version = 0;
        if (words.size() != 2 || words[0] != "divercite-eval" ||
            !absl::SimpleAtoi(words[1], &version)) {
          return error(
              "not a Divercite weight file (expected 'divercite-net <version>' or "
              "'divercite-eval <version>')");
        }
        if (version != kEvalFileVersion) {
          return error(absl::StrCat("file format version ", version, ", this engine reads ",
                                    kEvalFileVersion));
        }
        expect = Expect::kLayout;
        break;
      }
      case Expect::kLayout: {
        const std::string layout(absl::StripPrefix(line, "layout "));
        if (!absl::StartsWith(line, "layout ")) return error("expected 'layout ...'");
        if (layout != patterns::LayoutText()) {
          return error(absl::StrCat("the file's tables are '", layout, "', this engine's are '",
                                    patterns::LayoutText(), "'"));
        }
        expect = Expect::kData;
        break;
      }
      case Expect::kData:
      case Expect::kFit: {
        // A description line, kept whole ('#' included): "data ..." then "fit ...".
        if (line.empty() || line[0] == '#') continue;
        const bool data = expect == Expect::kData;
        const absl::string_view key = data ? "data" : "fit";
        if (words.empty() || words[0] != key)
          return error(absl::StrCat("expected '", key, " ...'"));
        (data ? weights.data : weights.fit) =
            std::string(absl::StripAsciiWhitespace(line.substr(key.size())));
        expect = data ? Expect::kFit : Expect::kValues;
        break;
      }
      case Expect::kValues:
        if (words.size() != 2 || words[0] != "values" ||
            !absl::SimpleAtoi(words[1], &values_left) || values_left < 0 ||
            values_left > patterns::kNumPatterns) {
          return error(
              absl::StrCat("expected 'values <count>' (0 to ", patterns::kNumPatterns, ")"));
        }
        expect = Expect::kValueLines;
        break;
      case Expect::kValueLines: {
        int pattern = 0, start = 0, end = 0;
        if (values_left == 0) return error("more value lines than 'values' announced");
        if (words.size() != 3 || !absl::SimpleAtoi(words[0], &pattern) ||
            !absl::SimpleAtoi(words[1], &start) || !absl::SimpleAtoi(words[2], &end)) {
          return error("expected '<pattern> <start> <end>'");
        }
        if (pattern < 0 || pattern >= patterns::kNumPatterns) {
          return error(
              absl::StrCat("pattern ", pattern, " is not in 0..", patterns::kNumPatterns - 1));
        }
        if (seen[pattern]) return error(absl::StrCat("pattern ", pattern, " given twice"));
        if (std::abs(start) > kMaxValue || std::abs(end) > kMaxValue) {
          return error(absl::StrCat("a value beyond +-", kMaxValue));
        }
        seen[pattern] = true;
        weights.values[pattern] = {static_cast<std::int16_t>(start),
                                   static_cast<std::int16_t>(end)};
        --values_left;
        break;
      }
    }
  }
  ++line_number;
  if (expect != Expect::kValueLines || values_left > 0) {
    return error("the file ends early (header or value lines missing)");
  }
  if (const absl::Status checksum = CheckChecksum(split); !checksum.ok()) {
    return error(checksum.message());
  }
  return weights;
}

absl::StatusOr<PatternWeights> ReadPatternFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return ParsePatternFile(*text, path);
}

absl::Status WritePatternFile(const std::string& path, const PatternWeights& weights) {
  return WriteWholeFile(path, FormatPatternFile(weights));
}

const PatternWeights& DefaultPatternWeights() {
  static const PatternWeights weights = [] {
    absl::StatusOr<PatternWeights> parsed = ParsePatternFile(
        absl::StrJoin(kDefaultPatternText, ""), "tools/tune/patterns.eval (compiled in)");
    if (!parsed.ok()) {
      // The build's own file: pattern_eval_test keeps it valid.
      std::fprintf(stderr, "%s\n", std::string(parsed.status().message()).c_str());
      std::abort();
    }
    return *parsed;
  }();
  return weights;
}

}  // namespace divercite
