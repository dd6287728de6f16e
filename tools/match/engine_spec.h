// One engine of a match as the command line describes it: what -engine (and -each) says
// with KEY=VALUE fields: cmd=PATH, name=NAME, arg=A (repeatable), option.NAME=VALUE, and a
// time control (tc=, st=, depth=, nodes=; see time_control.h).
#ifndef DIVERCITE_TOOLS_MATCH_ENGINE_SPEC_H_
#define DIVERCITE_TOOLS_MATCH_ENGINE_SPEC_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "tools/client/engine_client.h"
#include "tools/match/time_control.h"

namespace divercite {

struct EngineSpec {
  EngineConfig config;
  TimeControl time_control;
};

// Applies one KEY=VALUE field to `spec`; a later option.NAME replaces an earlier one. The
// error quotes the field.
absl::Status ApplyEngineField(absl::string_view field, EngineSpec& spec);

// What -each does: fills in what `spec` did not set itself from `defaults` (the command,
// the arguments, the time control, and each option it does not set, ahead of its own). The
// name is never taken from `defaults`.
void ApplyEngineDefaults(const EngineSpec& defaults, EngineSpec& spec);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_ENGINE_SPEC_H_
