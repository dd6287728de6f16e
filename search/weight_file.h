// What weight files share (search/network_file.h, tools/tune/pattern_file.h): text lines,
// versioned, the last one a checksum of every byte before it.
#ifndef DIVERCITE_SEARCH_WEIGHT_FILE_H_
#define DIVERCITE_SEARCH_WEIGHT_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace divercite {

// FNV-1a, 64 bits.
std::uint64_t Fnv1a(absl::string_view text);

// `text` on a single line (a data or fit description must not break the format).
std::string OneLine(absl::string_view text);

// `text` (whole lines) followed by its checksum line.
std::string WithChecksum(std::string text);

// A weight file's text split at its last line, the checksum.
struct ChecksummedText {
  absl::string_view covered;             // every byte before the checksum line
  std::vector<absl::string_view> lines;  // its lines
  absl::string_view checksum_line;
};
ChecksummedText SplitAtChecksum(absl::string_view text);
// Whether the checksum line is one and matches; the error says what is wrong, without the
// file's name and line (the caller's).
absl::Status CheckChecksum(const ChecksummedText& text);

// The first line that is not blank or a comment ('#'), stripped; empty if none.
absl::string_view FirstContentLine(absl::string_view text);

// A file's whole contents; `path` in the error.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path);
absl::Status WriteWholeFile(const std::string& path, absl::string_view contents);

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_WEIGHT_FILE_H_
