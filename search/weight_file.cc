#include "search/weight_file.h"

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace divercite {

std::uint64_t Fnv1a(absl::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string OneLine(absl::string_view text) {
  std::string line(text);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line;
}

std::string WithChecksum(std::string text) {
  absl::StrAppend(&text, absl::StrFormat("checksum %016x\n", Fnv1a(text)));
  return text;
}

ChecksummedText SplitAtChecksum(absl::string_view text) {
  ChecksummedText split;
  absl::string_view body = text;
  if (absl::EndsWith(body, "\n")) body.remove_suffix(1);
  const std::size_t last_break = body.rfind('\n');
  split.checksum_line = last_break == absl::string_view::npos ? body : body.substr(last_break + 1);
  split.covered =
      last_break == absl::string_view::npos ? absl::string_view() : text.substr(0, last_break + 1);
  split.lines = absl::StrSplit(split.covered, '\n');
  if (!split.lines.empty() && split.lines.back().empty()) {
    split.lines.pop_back();  // the empty tail after the last '\n'
  }
  return split;
}

absl::Status CheckChecksum(const ChecksummedText& text) {
  std::uint64_t checksum = 0;
  const std::vector<absl::string_view> words =
      absl::StrSplit(text.checksum_line, ' ', absl::SkipEmpty());
  if (words.size() != 2 || words[0] != "checksum" || words[1].size() != 16 ||
      !absl::SimpleHexAtoi(words[1], &checksum)) {
    return absl::InvalidArgumentError("expected 'checksum <16 hex digits>' as the last line");
  }
  if (checksum != Fnv1a(text.covered)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("checksum %016x does not match the contents (%016x): the file "
                        "is damaged or was edited",
                        checksum, Fnv1a(text.covered)));
  }
  return absl::OkStatus();
}

absl::string_view FirstContentLine(absl::string_view text) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty() && line[0] != '#') return line;
  }
  return {};
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": read failed"));
  return contents.str();
}

absl::Status WriteWholeFile(const std::string& path, absl::string_view contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  out << contents;
  out.close();
  if (!out) return absl::DataLossError(absl::StrCat(path, ": write failed"));
  return absl::OkStatus();
}

}  // namespace divercite
