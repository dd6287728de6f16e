#include "tests/transcripts.h"

#include <algorithm>
#include <fstream>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace divercite::testing {
namespace {

constexpr absl::string_view kOpening = "```transcript";
constexpr absl::string_view kClosing = "```";

absl::Status Malformed(const std::string& path, int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(path, ":", line, ": ", what));
}

}  // namespace

absl::StatusOr<std::vector<Transcript>> ReadTranscripts(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::vector<Transcript> transcripts;
  std::set<std::string> names;
  bool inside = false;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (!inside) {
      // At the line's start only: an indented example is not a block.
      const std::vector<std::string> words = absl::StrSplit(text, ' ', absl::SkipEmpty());
      if (!absl::StartsWith(text, kOpening) || words[0] != kOpening) continue;
      if (words.size() < 2) return Malformed(path, number, "a transcript block has no name");
      if (!names.insert(words[1]).second) {
        return Malformed(path, number, absl::StrCat("a second transcript named ", words[1]));
      }
      Transcript& transcript = transcripts.emplace_back();
      transcript.name = words[1];
      transcript.tags.insert(words.begin() + 2, words.end());
      transcript.line = number;
      inside = true;
      continue;
    }
    Transcript& transcript = transcripts.back();
    if (text == kClosing) {
      inside = false;
    } else if (absl::StartsWith(text, "> ")) {
      transcript.exchanges.push_back({text.substr(2), {}, number});
    } else if ((text == "<" || absl::StartsWith(text, "< ")) && !transcript.exchanges.empty()) {
      transcript.exchanges.back().expected.push_back(text.size() > 2 ? text.substr(2) : "");
    } else {
      return Malformed(path, number,
                       absl::StrCat("in transcript ", transcript.name,
                                    ": a line must start with '> ' or '< ' (after a '>')"));
    }
  }
  if (inside) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": transcript ", transcripts.back().name, " is not closed"));
  }
  return transcripts;
}

bool LineMatches(absl::string_view pattern, absl::string_view line) {
  std::vector<absl::string_view> expected = absl::StrSplit(pattern, ' ');
  std::vector<absl::string_view> words = absl::StrSplit(line, ' ');
  if (expected.size() > 1 && expected.back() == kAnyLines) {
    expected.pop_back();
    if (words.size() > expected.size()) words.resize(expected.size());
  }
  if (expected.size() != words.size()) return false;
  for (size_t i = 0; i < words.size(); ++i) {
    if (expected[i] != "*" && expected[i] != words[i]) return false;
  }
  return true;
}

bool LinesMatch(absl::Span<const std::string> patterns, absl::Span<const std::string> lines) {
  if (patterns.empty()) return lines.empty();
  if (patterns[0] == kAnyLines) {
    for (size_t skipped = 0; skipped <= lines.size(); ++skipped) {
      if (LinesMatch(patterns.subspan(1), lines.subspan(skipped))) return true;
    }
    return false;
  }
  return !lines.empty() && LineMatches(patterns[0], lines[0]) &&
         LinesMatch(patterns.subspan(1), lines.subspan(1));
}

bool IsOpen(const std::vector<std::string>& expected) {
  return !expected.empty() &&
         std::all_of(expected.begin(), expected.end(),
                     [](const std::string& line) { return line == kAnyLines; });
}

bool AwaitsBestmove(const std::vector<std::string>& expected) {
  for (const std::string& pattern : expected) {
    if (absl::StartsWith(pattern, "bestmove")) return true;
  }
  return false;
}

}  // namespace divercite::testing
