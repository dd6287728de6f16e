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

// Listens to a parse only for its error: what nlohmann would have thrown, kept instead, so
// that no exception is needed (the WebAssembly rules module is built without them). Only
// the public SAX interface: nlohmann's own document builder is not part of its API.
class ParseErrorOf final : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }

  bool parse_error(std::size_t byte, const std::string&, const Json::exception& error) override {
    // Parse errors (ids 1xx) say where; others (406: a number beyond a double) do not.
    status_ = error.id < 200
                  ? absl::InvalidArgumentError(
                        absl::StrCat("JSON at byte ", byte, ": ", Untagged(error.what())))
                  : absl::InvalidArgumentError(absl::StrCat("JSON: ", Untagged(error.what())));
    return false;
  }

  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_ = absl::InvalidArgumentError("JSON: not a document");
};

}  // namespace

absl::StatusOr<Json> ParseJson(absl::string_view text) {
  Json json = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!json.is_discarded()) return json;
  // Parsed again only to say why: a valid document, the common case, is parsed once.
  ParseErrorOf error;
  Json::sax_parse(text.begin(), text.end(), &error);
  return error.status();
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
