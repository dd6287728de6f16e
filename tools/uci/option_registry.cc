#include "tools/uci/option_registry.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace divercite {

void OptionRegistry::AddSpin(std::string name, std::int64_t default_value, std::int64_t min,
                             std::int64_t max, std::function<absl::Status(std::int64_t)> set) {
  EngineOption option;
  option.name = std::move(name);
  option.type = EngineOption::Type::kSpin;
  option.default_value = default_value;
  option.min = min;
  option.max = max;
  option.set_spin = std::move(set);
  options_.push_back(std::move(option));
}

void OptionRegistry::AddCombo(std::string name, std::string default_choice,
                              std::vector<std::string> choices, std::string noun,
                              std::function<absl::Status(const std::string&)> set) {
  EngineOption option;
  option.name = std::move(name);
  option.type = EngineOption::Type::kCombo;
  option.default_choice = std::move(default_choice);
  option.choices = std::move(choices);
  option.noun = std::move(noun);
  option.set_combo = std::move(set);
  options_.push_back(std::move(option));
}

void OptionRegistry::AddString(std::string name, std::string default_text,
                               std::function<absl::Status(const std::string&)> set) {
  EngineOption option;
  option.name = std::move(name);
  option.type = EngineOption::Type::kString;
  option.default_choice = std::move(default_text);
  option.set_string = std::move(set);
  options_.push_back(std::move(option));
}

absl::Status OptionRegistry::Set(absl::string_view name, absl::string_view value) const {
  const auto option = std::find_if(options_.begin(), options_.end(), [name](const auto& o) {
    return absl::EqualsIgnoreCase(o.name, name);
  });
  if (option == options_.end()) {
    return absl::NotFoundError(absl::StrCat("setoption: no option named '", name, "'"));
  }
  absl::Status status;
  if (option->type == EngineOption::Type::kSpin) {
    std::int64_t number = 0;
    if (!absl::SimpleAtoi(value, &number) || number < option->min || number > option->max) {
      return absl::InvalidArgumentError(
          absl::StrFormat("setoption: %s must be an integer from %d to %d, not '%s'", option->name,
                          option->min, option->max, value));
    }
    status = option->set_spin(number);
  } else if (option->type == EngineOption::Type::kString) {
    status = option->set_string(std::string(value));
  } else {
    if (std::find(option->choices.begin(), option->choices.end(), value) == option->choices.end()) {
      return absl::InvalidArgumentError(absl::StrCat("setoption: no ", option->noun, " named '",
                                                     value, "' (",
                                                     absl::StrJoin(option->choices, ", "), ")"));
    }
    status = option->set_combo(std::string(value));
  }
  if (!status.ok()) {
    return absl::Status(status.code(), absl::StrCat("setoption: ", status.message()));
  }
  return absl::OkStatus();
}

}  // namespace divercite
