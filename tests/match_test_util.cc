#include "tests/match_test_util.h"

#include <filesystem>
#include <sstream>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/match/cli.h"
#include "tools/match/match_runner.h"

namespace divercite::testing {

std::vector<std::string> Args(absl::string_view line) {
  std::vector<std::string> args = absl::StrSplit(line, ' ', absl::SkipEmpty());
  for (std::string& arg : args) {
    arg = absl::StrReplaceAll(
        arg, {{"ENGINE", DIVERCITE_ENGINE_BINARY}, {"FAKE", DIVERCITE_FAKE_ENGINE}});
  }
  return args;
}

std::vector<std::string> With(std::vector<std::string> args, absl::string_view more) {
  for (std::string& arg : Args(more)) args.push_back(std::move(arg));
  return args;
}

std::string FreshTempPath(absl::string_view name) {
  const std::string path = absl::StrCat(::testing::TempDir(), name);
  std::filesystem::remove(path);
  return path;
}

MatchSettings SettingsOf(const std::vector<std::string>& args) {
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
  EXPECT_TRUE(settings.ok()) << settings.status();
  return settings.ok() ? *std::move(settings) : MatchSettings{};
}

std::string CommandLineError(const std::vector<std::string>& args) {
  const absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
  return settings.ok() ? std::string("accepted") : std::string(settings.status().message());
}

std::string CommandLineErrorAfter(absl::string_view more) {
  return CommandLineError(
      Args(absl::StrCat("-engine cmd=e name=a -engine cmd=e name=b -each depth=1 ", more)));
}

MatchRun RunMatch(std::vector<std::string> args, const std::string& records_path) {
  if (!records_path.empty()) {
    args.push_back("-records");
    args.push_back(records_path);
  }
  MatchRun run;
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
  EXPECT_TRUE(settings.ok()) << settings.status();
  if (!settings.ok()) {
    run.status = settings.status();
    return run;
  }
  std::ostringstream out;
  MatchRunner runner(*settings, out);
  run.status = runner.Run();
  run.output = out.str();
  run.records = runner.Records();
  return run;
}

}  // namespace divercite::testing
