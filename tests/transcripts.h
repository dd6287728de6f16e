// The protocol's transcripts, read from docs/protocol.md ("Transcripts" there says the
// format): each block's exchanges, and the match of an answer against its expected lines,
// with the wildcards `*` (any one word), a final `...` word (the rest of the line) and a
// `...` line (any number of lines). tests/python/transcripts.py is the same in Python.
#ifndef DIVERCITE_TESTS_TRANSCRIPTS_H_
#define DIVERCITE_TESTS_TRANSCRIPTS_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace divercite::testing {

// A `>` line and the `<` lines after it, without their `> ` and `< `.
struct TranscriptExchange {
  std::string command;
  std::vector<std::string> expected;
  int line = 0;  // of the `>` line, from 1
};

struct Transcript {
  std::string name;
  std::set<std::string> tags;
  int line = 0;  // of the opening fence, from 1
  std::vector<TranscriptExchange> exchanges;

  bool HasTag(absl::string_view tag) const { return tags.count(std::string(tag)) > 0; }
};

// The line that stands for any number of lines, and the word for the rest of a line.
inline constexpr absl::string_view kAnyLines = "...";

// Every ```transcript NAME TAG...``` block of the file at `path`, in order. An error names the
// file and line of a block that is not closed, a line that is neither `> ` nor `< `, or a name
// used twice.
absl::StatusOr<std::vector<Transcript>> ReadTranscripts(const std::string& path);

// Whether `line` is the expected `pattern`: the same words, split at single spaces (so spacing
// counts), `*` standing for any one word, a final `...` word (after another) for the rest.
bool LineMatches(absl::string_view pattern, absl::string_view line);

// Whether `lines` are the expected `patterns`, a pattern `...` standing for any number of
// lines (none included).
bool LinesMatch(absl::Span<const std::string> patterns, absl::Span<const std::string> lines);

// An answer of `...` lines only goes on (a search): the next command is sent without waiting.
bool IsOpen(const std::vector<std::string>& expected);

// Whether a `bestmove` line is expected.
bool AwaitsBestmove(const std::vector<std::string>& expected);

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_TRANSCRIPTS_H_
