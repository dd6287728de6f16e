// Helpers shared by the match runner's tests (match_*_test.cc): command lines written as one
// string, a match run in the test's process, and files in the test's temporary directory.
#ifndef DIVERCITE_TESTS_MATCH_TEST_UTIL_H_
#define DIVERCITE_TESTS_MATCH_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "tools/match/match_settings.h"
#include "tools/records/game_record.h"

namespace divercite::testing {

// A command line written as one string: its words, ENGINE standing for `divercite` and FAKE for
// the fake engine (tests/fake_engine.cc).
std::vector<std::string> Args(absl::string_view line);

// `args`, then the words of `more` (read as Args reads them).
std::vector<std::string> With(std::vector<std::string> args, absl::string_view more);

// A file in the test's temporary directory, removed if there.
std::string FreshTempPath(absl::string_view name);

// The settings of `args` (a test failure, and the defaults, if they do not parse).
MatchSettings SettingsOf(const std::vector<std::string>& args);

// Why the command line `args` is refused, or "accepted".
std::string CommandLineError(const std::vector<std::string>& args);
// The same for a valid two-engine command line (engines a and b of command e, depth 1), then
// the words of `more`.
std::string CommandLineErrorAfter(absl::string_view more);

// What a match run in the test's process did.
struct MatchRun {
  absl::Status status;
  std::string output;  // stdout (for a merge: its report)
  std::string notes;   // a merge's notes (stderr)
  std::vector<GameRecord> records;
};

// Runs the match of `args` (a test failure, and nothing run, if they do not parse), its records
// also appended to `records_path` when one is given.
MatchRun RunMatch(std::vector<std::string> args, const std::string& records_path = "");

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_MATCH_TEST_UTIL_H_
