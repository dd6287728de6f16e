// JSON through nlohmann::ordered_json (objects keep their members in insertion or document
// order), with none of the library's exceptions let out: a malformed document, or a member
// that is missing or of the wrong type, comes back as an absl::Status that names it, and
// parsing and printing throw nothing, so they work where exceptions are off (the WebAssembly
// rules module).
//
// nlohmann throws on a type mismatch (get<T>(), at(), get_ref()); code outside this adapter
// reads values through the getters below, or checks a value's type before using it.
#ifndef DIVERCITE_TOOLS_COMMON_JSON_H_
#define DIVERCITE_TOOLS_COMMON_JSON_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace divercite {

using Json = nlohmann::ordered_json;

// Parses one complete document (whitespace around it allowed). Strings must be valid UTF-8.
// Integers are kept exactly within 64 bits (signed or unsigned); beyond, they become doubles.
// Errors: InvalidArgumentError "JSON at byte N: <nlohmann's parse error>".
absl::StatusOr<Json> ParseJson(absl::string_view text);

// Compact one-line JSON, members in order: strings escaped as JSON requires (other bytes,
// including UTF-8, copied), integers exact, doubles in the shortest form nlohmann finds that
// reads back to the same bits, NaN and infinities as null. Bytes that are not valid UTF-8
// become U+FFFD.
std::string DumpJson(const Json& json);

// What a value is, for error messages: "null", "boolean", "integer", "number", "string",
// "array", "object".
absl::string_view JsonTypeName(const Json& value);

// The error for a value of the wrong type: "<what> is a string, expected <expected>".
absl::Status JsonTypeError(const Json& value, absl::string_view what, absl::string_view expected);

// Typed reading of one value; `what` names it in errors ("'game' is a string, expected an
// integer"). Integers: an integral number (also a double with no fraction) within range,
// else InvalidArgumentError.
absl::StatusOr<std::int64_t> JsonToInt64(const Json& value, absl::string_view what);
absl::StatusOr<int> JsonToInt(const Json& value, absl::string_view what);
absl::StatusOr<std::string> JsonToString(const Json& value, absl::string_view what);
absl::StatusOr<bool> JsonToBool(const Json& value, absl::string_view what);

// The member `key` of `object`, or nullptr when `object` is not an object or has none.
const Json* FindJsonMember(const Json& object, absl::string_view key);

// Typed members of an object. InvalidArgumentError "missing 'key'" when it has none (or is not
// an object), or the mistyped error above.
absl::StatusOr<std::int64_t> JsonInt64Member(const Json& object, absl::string_view key);
absl::StatusOr<int> JsonIntMember(const Json& object, absl::string_view key);
absl::StatusOr<std::string> JsonStringMember(const Json& object, absl::string_view key);
absl::StatusOr<bool> JsonBoolMember(const Json& object, absl::string_view key);
// Arrays and objects by reference into `object`; an array of `size` elements when size >= 0.
absl::StatusOr<const Json*> JsonArrayMember(const Json& object, absl::string_view key,
                                            int size = -1);
absl::StatusOr<const Json*> JsonObjectMember(const Json& object, absl::string_view key);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_JSON_H_
