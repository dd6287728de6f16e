// A small JSON (RFC 8259) value type with a strict parser and a compact serializer.
//
// Used for the reference data from the course code and for match records, so it favours
// exactness over speed: integral literals are kept as 64-bit integers (never rounded through
// double), doubles are printed so they read back bit for bit, and every malformed input is
// reported as an absl::InvalidArgumentError naming the byte offset, never a crash.

#ifndef DIVERCITE_TOOLS_COMMON_JSON_H_
#define DIVERCITE_TOOLS_COMMON_JSON_H_

#include <cassert>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace divercite {

// One JSON value: null, bool, number, string, array or object.
//
// Constructors are implicit on purpose so documents can be built naturally, e.g.
// `obj.Set("moves", JsonValue::Array{1, 2, "x"})`.
//
// Numbers are stored as an int64, a uint64 (only above INT64_MAX) or a double. Parse keeps
// a literal without fraction or exponent as an integer whenever it fits in 64 bits.
//
// The As*() accessors for bool, double, string, array and object expect the matching type:
// a mismatch fails an assert() in debug builds and returns an empty/zero value in release
// builds (never undefined behaviour). AsInt64/AsUint64 instead report errors through Status.
//
// Objects keep members in insertion (or document) order. Parse keeps duplicate keys as they
// appear; Find and Set act on the first member with a given key.
class JsonValue {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  using Array = std::vector<JsonValue>;
  using Object = std::vector<std::pair<std::string, JsonValue>>;

  // Parse rejects arrays/objects nested deeper than this, so it cannot exhaust the stack.
  static constexpr int kMaxDepth = 256;

  // Implicit on purpose (see the class comment), hence the NOLINTs.
  JsonValue() = default;                                                                   // null
  JsonValue(std::nullptr_t) {}                                                             // NOLINT
  JsonValue(bool value) : type_(Type::kBool), bool_(value) {}                              // NOLINT
  JsonValue(int value) : JsonValue(std::int64_t{value}) {}                                 // NOLINT
  JsonValue(std::int64_t value) : type_(Type::kNumber), int_(value) {}                     // NOLINT
  JsonValue(std::uint64_t value);                                                          // NOLINT
  JsonValue(double value) : type_(Type::kNumber), repr_(Repr::kDouble), double_(value) {}  // NOLINT
  JsonValue(const char* value);  // NOLINT; must not be nullptr.
  JsonValue(absl::string_view value)
      : type_(Type::kString), string_(value.data(), value.size()) {}                 // NOLINT
  JsonValue(std::string value) : type_(Type::kString), string_(std::move(value)) {}  // NOLINT
  JsonValue(Array value) : type_(Type::kArray), array_(std::move(value)) {}          // NOLINT
  JsonValue(Object value) : type_(Type::kObject), object_(std::move(value)) {}       // NOLINT
  // Every other integer type (unsigned, long long, ...) would otherwise be ambiguous between
  // the overloads above. bool still picks JsonValue(bool): exact non-templates win.
  template <std::integral T>
  JsonValue(T value)  // NOLINT
      : JsonValue(static_cast<std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>(
            value)) {}

  // Parses a complete document: exactly one value, optionally surrounded by whitespace.
  // Strings must be valid UTF-8; \u escapes (including surrogate pairs) are decoded to UTF-8.
  // Numbers whose magnitude overflows a double are rejected; ones that underflow become 0.
  static absl::StatusOr<JsonValue> Parse(absl::string_view text);

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }
  // A number held exactly as a 64-bit integer (not as a double).
  bool is_integer() const { return is_number() && repr_ != Repr::kDouble; }

  bool AsBool() const {
    assert(is_bool());
    return bool_;
  }
  // Any number; integers beyond 2^53 are rounded to the nearest double.
  double AsDouble() const;
  // Exact value of an integral number (integer, or a double with no fractional part).
  // InvalidArgumentError if not a number or not integral, OutOfRangeError if it does not fit.
  absl::StatusOr<std::int64_t> AsInt64() const;
  absl::StatusOr<std::uint64_t> AsUint64() const;
  const std::string& AsString() const {
    assert(is_string());
    return string_;
  }
  const Array& AsArray() const {
    assert(is_array());
    return array_;
  }
  const Object& AsObject() const {
    assert(is_object());
    return object_;
  }
  // A null value first becomes an empty array/object, which makes building documents easy.
  Array& MutableArray();
  Object& MutableObject();

  // The first member named `key`, or nullptr if there is none or this is not an object.
  const JsonValue* Find(absl::string_view key) const;
  // Replaces the first member named `key` or appends a new one; returns the stored value.
  // Like MutableObject, turns a null value into an object.
  JsonValue& Set(std::string key, JsonValue value);
  // Appends to an array (a null value becomes an array first).
  void Append(JsonValue value);

  // Compact single-line JSON. Strings are escaped as JSON requires (other bytes, including
  // UTF-8, are copied unchanged). Integers print exactly; doubles print the shortest form that
  // reads back to the same bits, with ".0" added when needed so they read back as doubles;
  // NaN and infinities print as null.
  std::string Serialize() const;

  // Structural equality. Numbers compare by exact mathematical value (1 == 1.0, but
  // 2^53 + 1 != 2^53 as a double); object members compare pairwise in order.
  bool operator==(const JsonValue& other) const;

 private:
  enum class Repr : std::uint8_t { kInt64, kUint64, kDouble };

  void SerializeTo(std::string* out) const;

  Type type_ = Type::kNull;
  Repr repr_ = Repr::kInt64;
  bool bool_ = false;
  std::int64_t int_ = 0;
  std::uint64_t uint_ = 0;  // Only used above INT64_MAX, so each integer has one repr.
  double double_ = 0.0;
  std::string string_;
  Array array_;
  Object object_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_JSON_H_
