#include "tools/common/command_line.h"

#include <cstdio>
#include <string>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"

namespace divercite {

std::vector<char*> ParseToolCommandLine(int argc, char** argv, absl::string_view main_file,
                                        absl::string_view usage) {
  absl::FlagsUsageConfig usage_config;
  usage_config.contains_help_flags = [file = std::string(main_file)](absl::string_view path) {
    return absl::EndsWith(path, file);
  };
  absl::SetFlagsUsageConfig(usage_config);
  absl::SetProgramUsageMessage(usage);
  return absl::ParseCommandLine(argc, argv);
}

int UsageError(absl::string_view tool, absl::string_view message) {
  std::fprintf(stderr, "%.*s: %.*s\nTry '%.*s --help'.\n", static_cast<int>(tool.size()),
               tool.data(), static_cast<int>(message.size()), message.data(),
               static_cast<int>(tool.size()), tool.data());
  return 2;
}

}  // namespace divercite
