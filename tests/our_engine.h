// The `divercite` engine of this build as the tools drive it, for the tests that start one
// (their CMake target defines DIVERCITE_ENGINE_BINARY, the engine's path).
#ifndef DIVERCITE_TESTS_OUR_ENGINE_H_
#define DIVERCITE_TESTS_OUR_ENGINE_H_

#include "absl/strings/str_cat.h"
#include "tools/client/engine_client.h"

namespace divercite::testing {

// Named "divercite", with a 16 MB table and, when `multipv` is above 1, that many lines.
inline EngineClient OurEngine(int multipv = 1) {
  EngineConfig config;
  config.name = "divercite";
  config.command = DIVERCITE_ENGINE_BINARY;
  config.options = {{"Hash", "16"}};
  if (multipv > 1) config.options.emplace_back("MultiPV", absl::StrCat(multipv));
  return EngineClient(config);
}

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_OUR_ENGINE_H_
