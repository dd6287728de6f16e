// divercite-dump-positions: writes the labelled positions of recorded games (the positions
// and labels divercite-tune-patterns fits, tools/tune/labelled_positions.h) to a binary file
// for trainers outside C++ (tools/tune/position_dump.h; tools/tune/train_network.py), with the
// pattern evaluation's value of each, so that a trainer's baseline is measured on exactly the
// same positions.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "tools/common/command_line.h"
#include "tools/records/record_store.h"
#include "tools/tune/labelled_positions.h"
#include "tools/tune/pattern_file.h"
#include "tools/tune/position_dump.h"

ABSL_FLAG(std::vector<std::string>, records, {},
          "Match record files (JSON lines, as written by divercite-match -records), comma "
          "separated");
ABSL_FLAG(std::string, out, "", "The binary file to write");
ABSL_FLAG(std::string, eval_file, "",
          "The pattern weights whose evaluation the records carry (default: the built-in)");

namespace {

int Fail(absl::string_view message) {
  return divercite::UsageError("divercite-dump-positions", message);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<char*> positional = divercite::ParseToolCommandLine(
      argc, argv, "dump_positions_main.cc",
      "Writes the labelled positions of recorded games to a binary file for trainers.\n"
      "Usage: divercite-dump-positions --records=a.jsonl[,b.jsonl] --out=positions.bin "
      "[--eval_file=weights.eval]");
  if (positional.size() > 1) return Fail(absl::StrCat("unexpected argument '", positional[1], "'"));
  const std::vector<std::string> paths = absl::GetFlag(FLAGS_records);
  if (paths.empty()) return Fail("--records is required");
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return Fail("--out is required");
  divercite::PatternWeights weights = divercite::DefaultPatternWeights();
  if (!absl::GetFlag(FLAGS_eval_file).empty()) {
    absl::StatusOr<divercite::PatternWeights> loaded =
        divercite::ReadPatternFile(absl::GetFlag(FLAGS_eval_file));
    if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
    weights = *std::move(loaded);
  }

  std::vector<divercite::PositionRecord> records;
  int games = 0;
  for (const std::string& path : paths) {
    const absl::Status status = divercite::ForEachRecord(path, [&](const divercite::GameRecord& r) {
      ++games;
      absl::Status made = absl::OkStatus();
      absl::Status read = divercite::ForEachLabelledPosition(
          r, [&](const divercite::Position& position, const divercite::PositionLabel& label) {
            absl::StatusOr<divercite::PositionRecord> record =
                divercite::MakePositionRecord(position, label, weights);
            if (record.ok()) {
              records.push_back(*record);
            } else if (made.ok()) {
              made = record.status();
            }
          });
      return read.ok() ? made : read;
    });
    if (!status.ok()) return Fail(std::string(status.message()));
  }

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(out.c_str(), "wb"), &std::fclose);
  if (!file) return Fail(absl::StrCat("cannot write ", out));
  const std::uint32_t header[2] = {sizeof(divercite::PositionRecord),
                                   static_cast<std::uint32_t>(records.size())};
  if (std::fwrite(divercite::kPositionDumpMagic, 1, 8, file.get()) != 8 ||
      std::fwrite(header, sizeof header, 1, file.get()) != 1 ||
      std::fwrite(records.data(), sizeof(divercite::PositionRecord), records.size(), file.get()) !=
          records.size() ||
      std::fflush(file.get()) != 0) {
    return Fail(absl::StrCat("cannot write ", out));
  }
  std::printf("%d games, %zu positions -> %s\n", games, records.size(), out.c_str());
  return 0;
}
