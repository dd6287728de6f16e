// An enum's words in a text (a record, a protocol line, a report, a flag): one table of
// {value, name} pairs per enum and text, read both ways by NameOf and ValueNamed. The one
// mechanism of the project for it, from the rules up:
//
//   inline constexpr EnumName<Termination> kTerminationNames[] = {
//       {Termination::kNormal, "normal"}, {Termination::kTime, "time"}, ...};
//   static_assert(NamesAreDistinct(kTerminationNames));
//   NameOf(kTerminationNames, Termination::kTime)   // "time"
//   ValueNamed(kTerminationNames, "time")           // Termination::kTime
//   ValueNamed(kTerminationNames, "late")           // std::nullopt
//
// An enum may have several tables, one per text that names it differently (a game's result
// is "1-0" in a record and "p1win" in the protocol's `result`).
#ifndef DIVERCITE_ENGINE_ENUM_NAMES_H_
#define DIVERCITE_ENGINE_ENUM_NAMES_H_

#include <cstddef>
#include <optional>

#include "absl/strings/string_view.h"

namespace divercite {

template <typename Enum>
struct EnumName {
  Enum value;
  absl::string_view name;
};

// The name of `value` in `names`; "?" for a value the table leaves out.
template <typename Enum, std::size_t N>
constexpr absl::string_view NameOf(const EnumName<Enum> (&names)[N], Enum value) {
  for (const EnumName<Enum>& entry : names) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

// The value whose name is exactly `name` in `names`, if any.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> ValueNamed(const EnumName<Enum> (&names)[N], absl::string_view name) {
  for (const EnumName<Enum>& entry : names) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

// Whether no value and no name appears twice in `names`: each way is then a function. Each
// table is checked so, at compile time.
template <typename Enum, std::size_t N>
constexpr bool NamesAreDistinct(const EnumName<Enum> (&names)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (names[i].value == names[j].value || names[i].name == names[j].name) return false;
    }
  }
  return true;
}

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_ENUM_NAMES_H_
