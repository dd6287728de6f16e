#include "tools/client/engine_options.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/enum_names.h"

namespace divercite {
namespace {

bool IsKeyword(absl::string_view word) {
  return word == "type" || word == "default" || word == "min" || word == "max" || word == "var";
}

// An `option` line's `type` words; any other is kOther.
constexpr EnumName<AdvertisedOption::Type> kOptionTypeNames[] = {
    {AdvertisedOption::Type::kSpin, "spin"},
    {AdvertisedOption::Type::kCombo, "combo"},
    {AdvertisedOption::Type::kCheck, "check"},
    {AdvertisedOption::Type::kString, "string"},
    {AdvertisedOption::Type::kButton, "button"}};
static_assert(NamesAreDistinct(kOptionTypeNames));

AdvertisedOption::Type TypeNamed(absl::string_view type) {
  return ValueNamed(kOptionTypeNames, type).value_or(AdvertisedOption::Type::kOther);
}

std::string Range(const AdvertisedOption& option) {
  constexpr std::int64_t kNone[2] = {std::numeric_limits<std::int64_t>::min(),
                                     std::numeric_limits<std::int64_t>::max()};
  if (option.min == kNone[0] && option.max == kNone[1]) return "an integer";
  if (option.max == kNone[1]) return absl::StrCat("an integer from ", option.min);
  if (option.min == kNone[0]) return absl::StrCat("an integer up to ", option.max);
  return absl::StrCat("an integer from ", option.min, " to ", option.max);
}

absl::Status Refused(absl::string_view why) { return absl::InvalidArgumentError(why); }

}  // namespace

std::optional<AdvertisedOption> ParseOptionLine(absl::string_view line) {
  const std::vector<absl::string_view> words =
      absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
  if (words.size() < 3 || words[0] != "option" || words[1] != "name") return std::nullopt;
  // Each keyword's value is the words up to the next keyword; a name ends only at `type`, so
  // that it may hold a word such as "default".
  AdvertisedOption option;
  std::vector<std::string> name, type, default_value, min, max;
  std::vector<std::vector<std::string>> vars;
  std::vector<std::string>* field = &name;
  for (size_t i = 2; i < words.size(); ++i) {
    const absl::string_view word = words[i];
    const bool in_name = field == &name;
    if (in_name ? word == "type" : IsKeyword(word)) {
      if (word == "type") field = &type;
      if (word == "default") field = &default_value;
      if (word == "min") field = &min;
      if (word == "max") field = &max;
      if (word == "var") field = &vars.emplace_back();
      continue;
    }
    field->emplace_back(word);
  }
  option.name = absl::StrJoin(name, " ");
  if (option.name.empty()) return std::nullopt;
  option.type = TypeNamed(absl::StrJoin(type, " "));
  option.default_value = absl::StrJoin(default_value, " ");
  std::int64_t bound = 0;
  if (absl::SimpleAtoi(absl::StrJoin(min, " "), &bound)) option.min = bound;
  if (absl::SimpleAtoi(absl::StrJoin(max, " "), &bound)) option.max = bound;
  for (const std::vector<std::string>& var : vars) option.vars.push_back(absl::StrJoin(var, " "));
  return option;
}

absl::StatusOr<AdvertisedOption> CheckOption(const std::vector<AdvertisedOption>& advertised,
                                             absl::string_view name, absl::string_view value) {
  const auto found = std::find_if(advertised.begin(), advertised.end(), [name](const auto& o) {
    return absl::EqualsIgnoreCase(o.name, name);
  });
  if (found == advertised.end()) {
    if (advertised.empty()) return Refused("the engine has no options at all");
    return Refused(absl::StrCat("the engine has no such option (it has ",
                                absl::StrJoin(advertised, ", ",
                                              [](std::string* out, const AdvertisedOption& o) {
                                                absl::StrAppend(out, o.name);
                                              }),
                                ")"));
  }
  const AdvertisedOption& option = *found;
  switch (option.type) {
    case AdvertisedOption::Type::kSpin: {
      std::int64_t number = 0;
      if (!absl::SimpleAtoi(value, &number)) {
        return Refused(absl::StrCat("'", value, "' is not a number (", option.name, " takes ",
                                    Range(option), ")"));
      }
      if (number < option.min || number > option.max) {
        return Refused(
            absl::StrCat(number, " is out of range (", option.name, " takes ", Range(option), ")"));
      }
      break;
    }
    case AdvertisedOption::Type::kCombo:
      if (std::find(option.vars.begin(), option.vars.end(), value) == option.vars.end()) {
        return Refused(absl::StrCat("'", value, "' is not one of ", option.name, "'s choices (",
                                    absl::StrJoin(option.vars, ", "), ")"));
      }
      break;
    case AdvertisedOption::Type::kCheck:
      if (value != "true" && value != "false") {
        return Refused(
            absl::StrCat("'", value, "' is neither true nor false (", option.name, " is a check)"));
      }
      break;
    case AdvertisedOption::Type::kButton:
      if (!value.empty()) {
        return Refused(absl::StrCat(option.name, " is a button: it takes no value"));
      }
      break;
    case AdvertisedOption::Type::kString:
    case AdvertisedOption::Type::kOther:
      break;
  }
  return option;
}

std::string SetOptionLine(const AdvertisedOption& option, absl::string_view value) {
  if (option.type == AdvertisedOption::Type::kButton) {
    return absl::StrCat("setoption name ", option.name);
  }
  return absl::StrCat("setoption name ", option.name, " value ", value);
}

}  // namespace divercite
