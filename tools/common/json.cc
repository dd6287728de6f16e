#include "tools/common/json.h"

#include <cmath>
#include <limits>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace divercite {
namespace {

// nlohmann's what() without its "[json.exception.parse_error.101] " tag.
absl::string_view Untagged(absl::string_view message) {
  if (absl::StartsWith(message, "[json.exception.")) {
    const size_t tag_end = message.find("] ");
    if (tag_end != absl::string_view::npos) message.remove_prefix(tag_end + 2);
  }
  return message;
}

absl::Status Missing(absl::string_view key) {
  return absl::InvalidArgumentError(absl::StrCat("missing '", key, "'"));
}

std::string Quoted(absl::string_view key) { return absl::StrCat("'", key, "'"); }

}  // namespace

absl::StatusOr<Json> ParseJson(absl::string_view text) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& error) {
    // "JSON at byte 5: parse error at line 1, column 5: syntax error while parsing ...".
    return absl::InvalidArgumentError(
        absl::StrCat("JSON at byte ", error.byte, ": ", Untagged(error.what())));
  } catch (const Json::exception& error) {  // e.g. out_of_range: a number beyond a double
    return absl::InvalidArgumentError(absl::StrCat("JSON: ", Untagged(error.what())));
  }
}

std::string DumpJson(const Json& json) {
  // With error_handler_t::replace, dump() has nothing left to throw about.
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::Status JsonTypeError(const Json& value, absl::string_view what, absl::string_view expected) {
  const absl::string_view type = JsonTypeName(value);
  absl::string_view article = "a ";
  if (type == "null") article = "";
  if (type == "integer" || type == "array" || type == "object") article = "an ";
  return absl::InvalidArgumentError(
      absl::StrCat(what, " is ", article, type, ", expected ", expected));
}

absl::string_view JsonTypeName(const Json& value) {
  if (value.is_number_integer()) return "integer";  // signed or unsigned
  if (value.is_number_float()) return "number";
  if (value.is_boolean()) return "boolean";
  return value.type_name();  // null, string, array, object (binary and discarded: never parsed)
}

absl::StatusOr<std::int64_t> JsonToInt64(const Json& value, absl::string_view what) {
  if (value.is_number_unsigned()) {
    const std::uint64_t n = value.get<std::uint64_t>();
    if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": ", n, " is out of range"));
    }
    return static_cast<std::int64_t>(n);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float()) {
    const double x = value.get<double>();
    // -2^63 and 2^63 are exact doubles, so the range test does not round; NaN fails it.
    if (!(x >= -0x1p63 && x < 0x1p63) || std::trunc(x) != x) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": ", x, " is not a 64-bit integer"));
    }
    return static_cast<std::int64_t>(x);
  }
  return JsonTypeError(value, what, "an integer");
}

absl::StatusOr<int> JsonToInt(const Json& value, absl::string_view what) {
  absl::StatusOr<std::int64_t> n = JsonToInt64(value, what);
  if (!n.ok()) return n.status();
  if (*n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", *n, " is out of range"));
  }
  return static_cast<int>(*n);
}

absl::StatusOr<std::string> JsonToString(const Json& value, absl::string_view what) {
  if (!value.is_string()) return JsonTypeError(value, what, "a string");
  return value.get_ref<const std::string&>();
}

absl::StatusOr<bool> JsonToBool(const Json& value, absl::string_view what) {
  if (!value.is_boolean()) return JsonTypeError(value, what, "a boolean");
  return value.get<bool>();
}

const Json* FindJsonMember(const Json& object, absl::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto member = object.find(std::string_view(key.data(), key.size()));
  return member == object.end() ? nullptr : &*member;
}

absl::StatusOr<std::int64_t> JsonInt64Member(const Json& object, absl::string_view key) {
  const Json* value = FindJsonMember(object, key);
  if (value == nullptr) return Missing(key);
  return JsonToInt64(*value, Quoted(key));
}

absl::StatusOr<int> JsonIntMember(const Json& object, absl::string_view key) {
  const Json* value = FindJsonMember(object, key);
  if (value == nullptr) return Missing(key);
  return JsonToInt(*value, Quoted(key));
}

absl::StatusOr<std::string> JsonStringMember(const Json& object, absl::string_view key) {
  const Json* value = FindJsonMember(object, key);
  if (value == nullptr) return Missing(key);
  return JsonToString(*value, Quoted(key));
}

absl::StatusOr<bool> JsonBoolMember(const Json& object, absl::string_view key) {
  const Json* value = FindJsonMember(object, key);
  if (value == nullptr) return Missing(key);
  return JsonToBool(*value, Quoted(key));
}

absl::StatusOr<const Json*> JsonArrayMember(const Json& object, absl::string_view key, int size) {
  const Json* value = FindJsonMember(object, key);
  if (value == nullptr) return Missing(key);
  if (!value->is_array()) return JsonTypeError(*value, Quoted(key), "an array");
  if (size >= 0 && value->size() != static_cast<size_t>(size)) {
    return absl::InvalidArgumentError(absl::StrCat("'", key, "' is an array of ", value->size(),
                                                   ", expected ", size, " elements"));
  }
  return value;
}

absl::StatusOr<const Json*> JsonObjectMember(const Json& object, absl::string_view key) {
  const Json* value = FindJsonMember(object, key);
  if (value == nullptr) return Missing(key);
  if (!value->is_object()) return JsonTypeError(*value, Quoted(key), "an object");
  return value;
}

}  // namespace divercite
