// The engine's options in one table: name, type, default, range or choices, and what setting
// one does. `uci`/`ugi` list them from here and `setoption` is checked here, so an option is
// declared once. Names match without regard to case, as UCI asks.
#ifndef DIVERCITE_TOOLS_UCI_OPTION_REGISTRY_H_
#define DIVERCITE_TOOLS_UCI_OPTION_REGISTRY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace divercite {

struct EngineOption {
  enum class Type { kSpin, kCombo, kString };
  std::string name;
  Type type = Type::kSpin;
  // kSpin
  std::int64_t default_value = 0, min = 0, max = 0;
  std::function<absl::Status(std::int64_t)> set_spin;
  // kCombo: `noun` names a choice in errors ("no agent named ..."). kString: the default
  // text in default_choice, any text as the value (the rest of the setoption line).
  std::string default_choice;
  std::vector<std::string> choices;
  std::string noun;
  std::function<absl::Status(const std::string&)> set_combo;
  std::function<absl::Status(const std::string&)> set_string;
};

class OptionRegistry {
 public:
  // `set` applies a value already checked against the range; an error it returns (say, memory
  // that cannot be had) reaches the client and the option keeps its previous value.
  void AddSpin(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
               std::function<absl::Status(std::int64_t)> set);
  void AddCombo(std::string name, std::string default_choice, std::vector<std::string> choices,
                std::string noun, std::function<absl::Status(const std::string&)> set);
  void AddString(std::string name, std::string default_text,
                 std::function<absl::Status(const std::string&)> set);

  // In the order they were added.
  const std::vector<EngineOption>& options() const { return options_; }

  // Checks and applies `value`; the error says what is wrong ("setoption: ...").
  absl::Status Set(absl::string_view name, absl::string_view value) const;

 private:
  std::vector<EngineOption> options_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_UCI_OPTION_REGISTRY_H_
