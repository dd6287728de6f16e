// divercite-match: engine-versus-engine matches, round robins and gauntlets, whole or in
// shards, the merge of the shards' records, the standings of any records (see cli.h for the
// command line), and the compliance check of one engine (compliance.h).
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "tools/match/cli.h"
#include "tools/match/compliance.h"
#include "tools/match/match_runner.h"
#include "tools/match/merge.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-help" || args[0] == "-h") {
    std::cout << divercite::UsageText();
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "-compliance") {  // one engine against the protocol's specification
    absl::StatusOr<divercite::ComplianceSettings> compliance =
        divercite::ParseComplianceArgs({args.begin() + 1, args.end()});
    if (!compliance.ok()) {
      std::cerr << "divercite-match: " << compliance.status().message() << "\n"
                << "Try 'divercite-match --help'.\n";
      return 2;
    }
    return divercite::ComplianceExitStatus(divercite::RunCompliance(*compliance, std::cout));
  }
  if (args[0] == "-ratings") {  // records only: no engines, no schedule
    if (args.size() == 1) {
      std::cerr << "divercite-match: -ratings: expected one or more records files\n";
      return 2;
    }
    const std::vector<std::string> files(args.begin() + 1, args.end());
    if (absl::Status status = divercite::WriteRecordsStandings(files, std::cout); !status.ok()) {
      std::cerr << "divercite-match: " << status.message() << "\n";
      return 1;
    }
    return 0;
  }
  absl::StatusOr<divercite::MatchSettings> settings = divercite::ParseMatchSettings(args);
  if (!settings.ok()) {
    std::cerr << "divercite-match: " << settings.status().message() << "\n"
              << "Try 'divercite-match --help'.\n";
    return 2;
  }
  if (!settings->merge_files.empty()) {
    if (absl::Status status = divercite::MergeRecords(*settings, std::cout, std::cerr);
        !status.ok()) {
      std::cerr << "divercite-match: " << status.message() << "\n";
      return 1;
    }
    return 0;
  }
  const std::string warning = divercite::OversubscriptionWarning(
      *settings, static_cast<int>(std::thread::hardware_concurrency()));
  if (!warning.empty()) std::cerr << "divercite-match: warning: " << warning << "\n";
  divercite::MatchRunner runner(*settings, std::cout);
  if (absl::Status status = runner.Run(); !status.ok()) {
    std::cerr << "divercite-match: " << status.message() << "\n";
    return 1;
  }
  return 0;
}
