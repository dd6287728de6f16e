#include "tools/match/engine_spec.h"

#include <algorithm>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace divercite {

absl::Status ApplyEngineField(absl::string_view field, EngineSpec& spec) {
  const size_t equals = field.find('=');
  if (equals == absl::string_view::npos || equals == 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", field, "': expected KEY=VALUE"));
  }
  const absl::string_view key = field.substr(0, equals);
  const absl::string_view value = field.substr(equals + 1);
  if (key == "cmd") {
    spec.config.command = std::string(value);
  } else if (key == "name") {
    spec.config.name = std::string(value);
  } else if (key == "arg") {
    spec.config.arguments.emplace_back(value);
  } else if (absl::StartsWith(key, "option.") && key.size() > 7) {
    const std::string name(key.substr(7));
    auto& options = spec.config.options;
    auto existing = std::find_if(options.begin(), options.end(),
                                 [&](const auto& option) { return option.first == name; });
    if (existing != options.end()) {
      existing->second = std::string(value);
    } else {
      options.emplace_back(name, std::string(value));
    }
  } else if (key == "tc" || key == "st" || key == "depth" || key == "nodes") {
    absl::StatusOr<TimeControl> tc = ParseTimeControl(key, value);
    if (!tc.ok()) return tc.status();
    spec.time_control = *tc;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("'", field, "': unknown engine setting '", key,
                     "' (cmd, name, arg, option.NAME, tc, st, depth, nodes)"));
  }
  return absl::OkStatus();
}

void ApplyEngineDefaults(const EngineSpec& defaults, EngineSpec& spec) {
  if (spec.config.command.empty()) spec.config.command = defaults.config.command;
  if (spec.config.arguments.empty()) spec.config.arguments = defaults.config.arguments;
  if (spec.time_control.kind == TimeControl::Kind::kNone) {
    spec.time_control = defaults.time_control;
  }
  // Each inserted at the front: the defaults end up ahead of the engine's own options, in
  // reverse order of -each (as they always have; the order of `setoption` follows it).
  for (const auto& option : defaults.config.options) {
    auto& options = spec.config.options;
    if (std::none_of(options.begin(), options.end(),
                     [&](const auto& o) { return o.first == option.first; })) {
      options.insert(options.begin(), option);
    }
  }
}

}  // namespace divercite
