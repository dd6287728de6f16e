// The options an engine advertises after `uci`, and the check of an option a tool is about to
// set against them, so that a misspelt name or a value out of range stops a tool before it
// uses the engine instead of being ignored (in the manner of fastchess):
//
//   option name Hash type spin default 16 min 1 max 65536
//   option name Agent type combo default engine var engine var random ...
//   option name EvalFile type string default <built-in>
//
// A name may hold spaces (it runs up to `type`), and so may a default or a `var` (each runs up
// to the next keyword). Names match without regard to case, as UCI asks; values are compared
// as written, as `divercite` compares its combo choices.
#ifndef DIVERCITE_TOOLS_CLIENT_ENGINE_OPTIONS_H_
#define DIVERCITE_TOOLS_CLIENT_ENGINE_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace divercite {

struct AdvertisedOption {
  // kOther: a type this client does not know; any value is passed on as written.
  enum class Type { kSpin, kCombo, kCheck, kString, kButton, kOther };
  std::string name;
  Type type = Type::kOther;
  std::string default_value;
  // kSpin; an engine that gives no bound has none.
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  std::vector<std::string> vars;  // kCombo
};

// The option a line `option name ...` advertises; nullopt for any other line, or one that
// names no option.
std::optional<AdvertisedOption> ParseOptionLine(absl::string_view line);

// The advertised option `name` = `value` sets, if the engine has it and takes that value;
// otherwise why not, in words that fit after "refused: " (no such option, with the names it
// has; not an integer; out of range; not one of the choices).
absl::StatusOr<AdvertisedOption> CheckOption(const std::vector<AdvertisedOption>& advertised,
                                             absl::string_view name, absl::string_view value);

// The line that sets `option` (as CheckOption returned it) to `value`, under the engine's own
// spelling of its name; a button is pressed without a value.
std::string SetOptionLine(const AdvertisedOption& option, absl::string_view value);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_CLIENT_ENGINE_OPTIONS_H_
