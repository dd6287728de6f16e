// The start and the usage errors of the command-line tools built on Abseil flags
// (divercite-perft, divercite-tune-patterns), so that they behave alike.
#ifndef DIVERCITE_TOOLS_COMMON_COMMAND_LINE_H_
#define DIVERCITE_TOOLS_COMMON_COMMAND_LINE_H_

#include <vector>

#include "absl/strings/string_view.h"

namespace divercite {

// Parses the flags; `--help` lists only those defined in the file named `main_file` (Abseil
// would otherwise match them by the program's name) under the `usage` text. Returns the
// positional arguments, the program's name first.
std::vector<char*> ParseToolCommandLine(int argc, char** argv, absl::string_view main_file,
                                        absl::string_view usage);

// Prints "<tool>: <message>" and a pointer to --help on stderr; returns 2, the exit status
// of a usage error.
int UsageError(absl::string_view tool, absl::string_view message);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_COMMAND_LINE_H_
