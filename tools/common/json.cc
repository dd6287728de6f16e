#include "tools/common/json.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace divercite {
namespace {

// The two-character escapes: kEscapeLetters[i] after a backslash stands for kEscapedBytes[i].
constexpr absl::string_view kEscapeLetters = "\"\\/bfnrt";
constexpr absl::string_view kEscapedBytes = "\"\\/\b\f\n\r\t";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 if it is malformed.
// Follows the RFC 3629 table, so overlong forms, encoded surrogates and code points above
// U+10FFFF are rejected and every accepted string can be written back as valid JSON.
std::size_t Utf8SequenceLength(absl::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) -> unsigned {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
  };
  const unsigned lead = byte(0);
  unsigned low = 0x80, high = 0xBF;  // Allowed range of the second byte.
  std::size_t length = 4;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead == 0xF0) {
    low = 0x90;
  } else if (lead == 0xF4) {
    high = 0x8F;
  } else if (lead < 0xF1 || lead > 0xF3) {
    return 0;
  }
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  }
  return length;
}

void AppendUtf8(std::uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
    return;
  }
  constexpr std::uint32_t kLeadMarker[] = {0, 0xC0, 0xE0, 0xF0};
  const int continuation = code_point < 0x800 ? 1 : code_point < 0x10000 ? 2 : 3;
  out->push_back(static_cast<char>(kLeadMarker[continuation] | (code_point >> (6 * continuation))));
  for (int shift = 6 * (continuation - 1); shift >= 0; shift -= 6) {
    out->push_back(static_cast<char>(0x80 | ((code_point >> shift) & 0x3F)));
  }
}

void AppendQuoted(absl::string_view text, std::string* out) {
  out->push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && c != '"' && c != '\\') {
      out->push_back(c);  // Includes UTF-8 and '/', which need no escape.
    } else if (const std::size_t i = kEscapedBytes.find(c); i != absl::string_view::npos) {
      out->push_back('\\');
      out->push_back(kEscapeLetters[i]);
    } else {
      absl::StrAppendFormat(out, "\\u%04x", byte);
    }
  }
  out->push_back('"');
}

void AppendDouble(double value, std::string* out) {
  if (!std::isfinite(value)) {
    out->append("null");  // JSON has no spelling for them.
    return;
  }
  // Shortest representation that reads back to the same bits, independent of the C locale.
  char buffer[64];
  const char* const end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
  const absl::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  out->append(text.data(), text.size());
  // Without this, 3.0 would read back as the integer 3.
  if (text.find_first_of(".e") == absl::string_view::npos) out->append(".0");
}

// Exact integer value of `value`; `min` and `limit` are powers of two, so comparing with them
// involves no rounding, and NaN fails the range test.
template <typename T>
absl::StatusOr<T> DoubleToInteger(double value, double min, double limit) {
  if (!(value >= min && value < limit)) {
    return absl::OutOfRangeError(
        absl::StrCat("JSON: ", value, " is out of range for this integer type"));
  }
  if (std::trunc(value) != value) {
    return absl::InvalidArgumentError(absl::StrCat("JSON: ", value, " is not an integer"));
  }
  return static_cast<T>(value);
}

// Stores the integer literal [begin, end) exactly as a T; false if it does not fit.
template <typename T>
bool StoreExactInteger(const char* begin, const char* end, JsonValue* out) {
  T value;
  if (std::from_chars(begin, end, value).ec != std::errc()) return false;
  *out = JsonValue(value);
  return true;
}

#define DIVERCITE_JSON_RETURN_IF_ERROR(expr)                       \
  do {                                                             \
    if (absl::Status status = (expr); !status.ok()) return status; \
  } while (false)

class Parser {
 public:
  explicit Parser(absl::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> ParseDocument() {
    JsonValue value;
    DIVERCITE_JSON_RETURN_IF_ERROR(ParseValue(0, &value));
    SkipWhitespace();
    if (pos_ < text_.size()) return Error(pos_, "expected end of input after the value");
    return value;
  }

 private:
  absl::Status Error(std::size_t offset, absl::string_view expected) const {
    return absl::InvalidArgumentError(
        absl::StrFormat("JSON: offset %d: %s%s", offset, expected,
                        offset >= text_.size() ? " (found end of input)" : ""));
  }

  bool At(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  bool AtDigit() const { return pos_ < text_.size() && IsDigit(text_[pos_]); }

  void SkipWhitespace() {
    while (At(' ') || At('\t') || At('\n') || At('\r')) ++pos_;
  }

  // `depth` counts the arrays and objects enclosing this value.
  absl::Status ParseValue(int depth, JsonValue* out) {
    SkipWhitespace();
    if (pos_ >= text_.size()) return Error(pos_, "expected a value");
    const char c = text_[pos_];
    if ((c == '[' || c == '{') && depth >= JsonValue::kMaxDepth) {
      return Error(
          pos_, absl::StrCat("expected at most ", JsonValue::kMaxDepth, " nested arrays/objects"));
    }
    if (c == '[' || c == '{') return ParseContainer(depth + 1, out);
    if (c == '-' || IsDigit(c)) return ParseNumber(out);
    if (c == 't') return ParseLiteral("true", JsonValue(true), out);
    if (c == 'f') return ParseLiteral("false", JsonValue(false), out);
    if (c == 'n') return ParseLiteral("null", JsonValue(), out);
    if (c != '"') return Error(pos_, "expected a value");
    std::string text;
    DIVERCITE_JSON_RETURN_IF_ERROR(ParseString(&text));
    *out = JsonValue(std::move(text));
    return absl::OkStatus();
  }

  absl::Status ParseLiteral(absl::string_view literal, JsonValue value, JsonValue* out) {
    if (text_.substr(pos_, literal.size()) != literal) {
      return Error(pos_, absl::StrCat("expected '", literal, "'"));
    }
    pos_ += literal.size();
    *out = std::move(value);
    return absl::OkStatus();
  }

  // Arrays and objects share their shape: elements (key ':' value for objects) separated by
  // ',' between the brackets.
  absl::Status ParseContainer(int depth, JsonValue* out) {
    const bool is_object = text_[pos_++] == '{';
    const char close = is_object ? '}' : ']';
    const absl::string_view where = is_object ? " in object" : " in array";
    JsonValue::Array array;
    JsonValue::Object object;
    SkipWhitespace();
    bool done = At(close);
    if (done) ++pos_;
    while (!done) {
      JsonValue* element;
      if (!is_object) {
        element = &array.emplace_back();
      } else {
        if (!At('"')) return Error(pos_, absl::StrCat("expected string key", where));
        auto& [key, value] = object.emplace_back();
        DIVERCITE_JSON_RETURN_IF_ERROR(ParseString(&key));
        SkipWhitespace();
        if (!At(':')) return Error(pos_, absl::StrCat("expected ':' after key", where));
        ++pos_;
        element = &value;
      }
      DIVERCITE_JSON_RETURN_IF_ERROR(ParseValue(depth, element));
      SkipWhitespace();
      if (!At(',') && !At(close)) {
        return Error(pos_,
                     absl::StrCat("expected ',' or '", absl::string_view(&close, 1), "'", where));
      }
      done = text_[pos_++] == close;
      SkipWhitespace();
      if (!done && At(close)) {
        return Error(
            pos_, absl::StrCat("expected another element after ','", where, " (trailing comma)"));
      }
    }
    *out = is_object ? JsonValue(std::move(object)) : JsonValue(std::move(array));
    return absl::OkStatus();
  }

  absl::Status ParseString(std::string* out) {
    const std::size_t open = pos_++;
    while (true) {
      // Copy runs of plain ASCII in one go; only quotes, escapes, control characters and
      // non-ASCII bytes need a closer look.
      const std::size_t run = pos_;
      while (pos_ < text_.size()) {
        const auto c = static_cast<unsigned char>(text_[pos_]);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++pos_;
      }
      out->append(text_.data() + run, pos_ - run);
      if (pos_ >= text_.size()) {
        return Error(pos_, absl::StrCat("expected '\"' closing the string at offset ", open));
      }
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return absl::OkStatus();
      }
      if (c == '\\') {
        DIVERCITE_JSON_RETURN_IF_ERROR(ParseEscape(out));
      } else if (c < 0x20) {
        return Error(pos_, "expected no raw control characters in string (escape them)");
      } else {
        const std::size_t length = Utf8SequenceLength(text_, pos_);
        if (length == 0) return Error(pos_, "expected valid UTF-8 in string");
        out->append(text_.data() + pos_, length);
        pos_ += length;
      }
    }
  }

  absl::Status ParseEscape(std::string* out) {
    const std::size_t backslash = pos_++;
    if (pos_ >= text_.size()) return Error(pos_, "expected escape character after '\\'");
    const char letter = text_[pos_++];
    if (letter != 'u') {
      const std::size_t i = kEscapeLetters.find(letter);
      if (i == absl::string_view::npos) {
        return Error(backslash, "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u");
      }
      out->push_back(kEscapedBytes[i]);
      return absl::OkStatus();
    }
    std::uint32_t code_point;
    DIVERCITE_JSON_RETURN_IF_ERROR(ParseHex4(&code_point));
    if (code_point >= 0xDC00 && code_point <= 0xDFFF) {
      return Error(backslash, "expected a high surrogate before this low surrogate \\u escape");
    }
    if (code_point >= 0xD800 && code_point <= 0xDBFF) {
      // A UTF-16 surrogate pair: only both halves together name a code point.
      const std::size_t second = pos_;
      std::uint32_t low = 0;
      if (text_.substr(pos_, 2) == "\\u") {
        pos_ += 2;
        DIVERCITE_JSON_RETURN_IF_ERROR(ParseHex4(&low));
      }
      if (low < 0xDC00 || low > 0xDFFF) {
        return Error(second, "expected a \\u low surrogate after a high surrogate");
      }
      code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(code_point, out);
    return absl::OkStatus();
  }

  absl::Status ParseHex4(std::uint32_t* out) {
    *out = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      const int digit = pos_ < text_.size() ? HexValue(text_[pos_]) : -1;
      if (digit < 0) return Error(pos_, "expected 4 hex digits after \\u");
      *out = *out * 16 + static_cast<std::uint32_t>(digit);
    }
    return absl::OkStatus();
  }

  absl::Status ParseNumber(JsonValue* out) {
    const std::size_t start = pos_;
    const bool negative = At('-');
    if (negative) ++pos_;
    if (!AtDigit()) return Error(pos_, "expected digit in number");
    const std::size_t int_begin = pos_;
    if (At('0') && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1])) {
      return Error(pos_, "expected no leading zeros in number");
    }
    while (AtDigit()) ++pos_;
    const bool below_one = pos_ - int_begin == 1 && text_[int_begin] == '0';
    // Decimal exponent of the first significant digit (before applying the exponent part);
    // used only to tell overflow from underflow below.
    auto magnitude = static_cast<std::int64_t>(pos_ - int_begin);
    bool integral = true;
    if (At('.')) {
      integral = false;
      ++pos_;
      if (!AtDigit()) return Error(pos_, "expected digit after '.' in number");
      if (below_one) {
        magnitude = 0;
        for (; At('0'); ++pos_) --magnitude;
      }
      while (AtDigit()) ++pos_;
    }
    if (At('e') || At('E')) {
      integral = false;
      ++pos_;
      const bool negative_exponent = At('-');
      if (At('+') || At('-')) ++pos_;
      if (!AtDigit()) return Error(pos_, "expected digit in number exponent");
      std::int64_t exponent = 0;
      for (; AtDigit(); ++pos_) {
        // Saturate: anything this large is far outside double range anyway.
        if (exponent < 1'000'000'000) exponent = exponent * 10 + (text_[pos_] - '0');
      }
      magnitude += negative_exponent ? -exponent : exponent;
    }
    const char* const begin = text_.data() + start;
    const char* const end = text_.data() + pos_;

    // Integral literals are kept exact; one too large for 64 bits falls through to double.
    if (integral && (negative ? StoreExactInteger<std::int64_t>(begin, end, out)
                              : StoreExactInteger<std::uint64_t>(begin, end, out))) {
      return absl::OkStatus();
    }
    double value = 0.0;
    const std::from_chars_result result = std::from_chars(begin, end, value);
    if (result.ec == std::errc::result_out_of_range) {
      // from_chars reports overflow and underflow alike; values below 1 can only underflow.
      if (magnitude > 0) return Error(start, "expected a number within double range");
      value = negative ? -0.0 : 0.0;
    } else if (result.ec != std::errc() || result.ptr != end) {
      return Error(start, "expected a number");  // Unreachable: the grammar was checked above.
    }
    *out = JsonValue(value);
    return absl::OkStatus();
  }

  absl::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

JsonValue::JsonValue(std::uint64_t value) : type_(Type::kNumber) {
  // Values that fit int64 use that repr, so equal integers always share one representation.
  if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    int_ = static_cast<std::int64_t>(value);
  } else {
    repr_ = Repr::kUint64;
    uint_ = value;
  }
}
JsonValue::JsonValue(const char* value) : type_(Type::kString) {
  assert(value != nullptr);
  string_ = value;
}

absl::StatusOr<JsonValue> JsonValue::Parse(absl::string_view text) {
  return Parser(text).ParseDocument();
}

double JsonValue::AsDouble() const {
  assert(is_number());
  if (repr_ == Repr::kInt64) return static_cast<double>(int_);
  if (repr_ == Repr::kUint64) return static_cast<double>(uint_);
  return double_;
}

absl::StatusOr<std::int64_t> JsonValue::AsInt64() const {
  if (!is_number()) return absl::InvalidArgumentError("JSON: value is not a number");
  if (repr_ == Repr::kInt64) return int_;
  if (repr_ == Repr::kUint64) {
    return absl::OutOfRangeError(absl::StrCat("JSON: ", uint_, " is out of int64 range"));
  }
  return DoubleToInteger<std::int64_t>(double_, -0x1p63, 0x1p63);
}

absl::StatusOr<std::uint64_t> JsonValue::AsUint64() const {
  if (!is_number()) return absl::InvalidArgumentError("JSON: value is not a number");
  if (repr_ == Repr::kUint64) return uint_;
  if (repr_ == Repr::kDouble) return DoubleToInteger<std::uint64_t>(double_, 0.0, 0x1p64);
  if (int_ < 0) return absl::OutOfRangeError(absl::StrCat("JSON: ", int_, " is negative"));
  return static_cast<std::uint64_t>(int_);
}

JsonValue::Array& JsonValue::MutableArray() {
  if (is_null()) type_ = Type::kArray;
  assert(is_array());
  return array_;
}

JsonValue::Object& JsonValue::MutableObject() {
  if (is_null()) type_ = Type::kObject;
  assert(is_object());
  return object_;
}

const JsonValue* JsonValue::Find(absl::string_view key) const {
  if (!is_object()) return nullptr;
  for (const auto& [name, value] : object_) {
    if (name == key) return &value;
  }
  return nullptr;
}

JsonValue& JsonValue::Set(std::string key, JsonValue value) {
  Object& object = MutableObject();
  for (auto& [name, existing] : object) {
    if (name == key) return existing = std::move(value);
  }
  return object.emplace_back(std::move(key), std::move(value)).second;
}

void JsonValue::Append(JsonValue value) { MutableArray().push_back(std::move(value)); }

std::string JsonValue::Serialize() const {
  std::string out;
  SerializeTo(&out);
  return out;
}

void JsonValue::SerializeTo(std::string* out) const {
  if (is_null()) {
    out->append("null");
  } else if (is_bool()) {
    out->append(bool_ ? "true" : "false");
  } else if (is_number()) {
    if (repr_ == Repr::kInt64) absl::StrAppend(out, int_);
    if (repr_ == Repr::kUint64) absl::StrAppend(out, uint_);
    if (repr_ == Repr::kDouble) AppendDouble(double_, out);
  } else if (is_string()) {
    AppendQuoted(string_, out);
  } else if (is_array()) {
    out->push_back('[');
    for (std::size_t i = 0; i < array_.size(); ++i) {
      if (i > 0) out->push_back(',');
      array_[i].SerializeTo(out);
    }
    out->push_back(']');
  } else {
    out->push_back('{');
    for (std::size_t i = 0; i < object_.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendQuoted(object_[i].first, out);
      out->push_back(':');
      object_[i].second.SerializeTo(out);
    }
    out->push_back('}');
  }
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (type_ != other.type_) return false;
  if (is_null()) return true;
  if (is_bool()) return bool_ == other.bool_;
  if (is_string()) return string_ == other.string_;
  if (is_array()) return array_ == other.array_;
  if (is_object()) return object_ == other.object_;
  if (repr_ == Repr::kDouble && other.repr_ == Repr::kDouble) return double_ == other.double_;
  if (repr_ != Repr::kDouble && other.repr_ != Repr::kDouble) {
    // Each integer has a single representation (see the uint64 constructor).
    return repr_ == other.repr_ && int_ == other.int_ && uint_ == other.uint_;
  }
  // Integer against double: equal only if the double is exactly that integer.
  const JsonValue& integer = repr_ == Repr::kDouble ? other : *this;
  const JsonValue& floating = repr_ == Repr::kDouble ? *this : other;
  if (integer.repr_ == Repr::kInt64) {
    const absl::StatusOr<std::int64_t> value = floating.AsInt64();
    return value.ok() && *value == integer.int_;
  }
  const absl::StatusOr<std::uint64_t> value = floating.AsUint64();
  return value.ok() && *value == integer.uint_;
}

}  // namespace divercite
