// How this engine was built: its version, the compiler and the instruction-set level, for
// `divercite --version` and the `id name` line (a match record then says which build played).
#ifndef DIVERCITE_TOOLS_UCI_BUILD_INFO_H_
#define DIVERCITE_TOOLS_UCI_BUILD_INFO_H_

#include <string>

namespace divercite {

// `git describe` at build time ("0.2.0-g7fe2567", "v0.3-4-g1a2b3c4-dirty"), or the project's
// release number when built outside a git checkout.
std::string EngineVersion();

// "GCC 12.2.0", "Clang 14.0.6".
std::string CompilerDescription();

// The x86-64 level the code was compiled for, read from the compiler's own macros
// ("x86-64-v3"); with DIVERCITE_ARCH=native it says so: "native (x86-64-v4)". On another
// processor family, "native" or the compiler's default.
std::string InstructionSetLevel();

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_UCI_BUILD_INFO_H_
