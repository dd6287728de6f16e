// The records file of divercite-match: one game record per line (game_record.h), appended a
// game at a time and flushed, and read back by the runner (to resume a match), the tuner and
// the analysis.
//
// Every complete line (one that ends in '\n') is a record, or blank. A last line without its
// '\n' is a record whose write was cut short by an interrupted run: readers drop it, and
// RecordStore::Open truncates it away, so that the next record starts on a line of its own.
// A complete line that is not a record is an error "<path>:<line>: <why>".
#ifndef DIVERCITE_TOOLS_RECORDS_RECORD_STORE_H_
#define DIVERCITE_TOOLS_RECORDS_RECORD_STORE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/records/game_record.h"

namespace divercite {

// Calls `visit` on each record of `path` in file order (with `game`: only on the records whose
// "game" is `game`, though every line must still be a record). Stops at the first error, a
// line's or visit's own, returned as "<path>:<line>: <message>". NotFoundError
// "<path>: cannot open" if the file cannot be read.
absl::Status ForEachRecord(const std::string& path,
                           absl::FunctionRef<absl::Status(const GameRecord&)> visit,
                           std::optional<int> game = std::nullopt);

// The records of `path` in file order: all of them, or those whose "game" is `game`.
absl::StatusOr<std::vector<GameRecord>> ReadRecords(const std::string& path,
                                                    std::optional<int> game = std::nullopt);

// A records file opened to be continued. Not thread-safe: callers serialize Append.
class RecordStore {
 public:
  // Reads the records already in `path` (none if it does not exist yet; the first Append
  // creates it) and truncates an unfinished last line. Errors: a malformed complete line, or
  // a file that exists but cannot be read or truncated.
  static absl::StatusOr<RecordStore> Open(std::string path);

  const std::string& path() const { return path_; }
  // The records in the file when it was opened, in file order.
  const std::vector<GameRecord>& records() const { return records_; }
  // Whether Open dropped (and truncated) an unfinished last line.
  bool dropped_unfinished_line() const { return dropped_unfinished_line_; }

  // Appends `record` as one line and flushes it to the file.
  absl::Status Append(const GameRecord& record);

 private:
  explicit RecordStore(std::string path) : path_(std::move(path)) {}

  std::string path_;
  std::vector<GameRecord> records_;
  bool dropped_unfinished_line_ = false;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_RECORDS_RECORD_STORE_H_
