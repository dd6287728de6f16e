#include "tools/uci/build_info.h"

#include "absl/strings/str_cat.h"
#include "tools/uci/version.h"  // generated: DIVERCITE_VERSION

namespace divercite {
namespace {

// What the compiler was told to target, as the psABI's levels name it.
constexpr const char* CompiledLevel() {
#if defined(__x86_64__)
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512CD__) && \
    defined(__AVX512DQ__) && defined(__AVX512VL__)
  return "x86-64-v4";
#elif defined(__AVX2__) && defined(__BMI2__) && defined(__FMA__) && defined(__MOVBE__)
  return "x86-64-v3";
#elif defined(__SSE4_2__) && defined(__POPCNT__) && defined(__SSSE3__)
  return "x86-64-v2";
#else
  return "x86-64";
#endif
#else
  return "";
#endif
}

}  // namespace

std::string EngineVersion() { return DIVERCITE_VERSION; }

std::string CompilerDescription() {
#if defined(__clang__)
  return absl::StrCat("Clang ", __clang_major__, ".", __clang_minor__, ".", __clang_patchlevel__);
#elif defined(__GNUC__)
  return absl::StrCat("GCC ", __GNUC__, ".", __GNUC_MINOR__, ".", __GNUC_PATCHLEVEL__);
#else
  return "an unknown compiler";
#endif
}

std::string InstructionSetLevel() {
  const std::string requested = DIVERCITE_ARCH;
  const std::string compiled = CompiledLevel();
  if (compiled.empty()) return requested;
  if (requested == "native") return absl::StrCat("native (", compiled, ")");
  return compiled;
}

}  // namespace divercite
