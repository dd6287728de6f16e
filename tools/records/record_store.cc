#include "tools/records/record_store.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace divercite {
namespace {

struct Scan {
  std::uintmax_t complete_bytes = 0;  // the file up to the end of its last complete line
  bool unfinished_line = false;
};

absl::StatusOr<Scan> ScanRecords(const std::string& path,
                                 absl::FunctionRef<absl::Status(const GameRecord&)> visit,
                                 std::optional<int> game) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  Scan scan;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    if (in.eof()) {  // the line has no '\n': its write was cut short
      scan.unfinished_line = true;
      break;
    }
    scan.complete_bytes += line.size() + 1;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<Json> json = ParseJson(line);
    absl::StatusOr<GameRecord> record =
        json.ok() ? GameRecord::FromJson(*json) : absl::StatusOr<GameRecord>(json.status());
    absl::Status status = record.status();
    if (record.ok() && (!game || record->game == *game)) status = visit(*record);
    if (!status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number, ": ", status.message()));
    }
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": cannot read"));
  return scan;
}

}  // namespace

absl::Status ForEachRecord(const std::string& path,
                           absl::FunctionRef<absl::Status(const GameRecord&)> visit,
                           std::optional<int> game) {
  return ScanRecords(path, visit, game).status();
}

absl::StatusOr<std::vector<GameRecord>> ReadRecords(const std::string& path,
                                                    std::optional<int> game) {
  std::vector<GameRecord> records;
  absl::Status status = ForEachRecord(
      path,
      [&](const GameRecord& record) {
        records.push_back(record);
        return absl::OkStatus();
      },
      game);
  if (!status.ok()) return status;
  return records;
}

absl::StatusOr<RecordStore> RecordStore::Open(std::string path) {
  RecordStore store(std::move(path));
  std::error_code error;
  if (!std::filesystem::exists(store.path_, error)) return store;
  absl::StatusOr<Scan> scan = ScanRecords(
      store.path_,
      [&](const GameRecord& record) {
        store.records_.push_back(record);
        return absl::OkStatus();
      },
      std::nullopt);
  if (!scan.ok()) return scan.status();
  if (scan->unfinished_line) {
    store.dropped_unfinished_line_ = true;
    std::filesystem::resize_file(store.path_, scan->complete_bytes, error);
    if (error) {
      return absl::InternalError(
          absl::StrCat(store.path_, ": cannot drop its unfinished last line: ", error.message()));
    }
  }
  return store;
}

absl::Status RecordStore::Append(const GameRecord& record) {
  std::ofstream out(path_, std::ios::app);
  out << DumpJson(record.ToJson()) << '\n';
  out.flush();
  if (!out) return absl::DataLossError(absl::StrCat("cannot write ", path_));
  return absl::OkStatus();
}

}  // namespace divercite
