#include "tools/common/json.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace divercite {

// Lets GoogleTest print values in failure messages (found by argument-dependent lookup).
void PrintTo(const JsonValue& value, std::ostream* os) { *os << value.Serialize(); }

namespace {

JsonValue ParseOrDie(absl::string_view text) {
  absl::StatusOr<JsonValue> value = JsonValue::Parse(text);
  EXPECT_TRUE(value.ok()) << value.status() << " for input: " << text;
  return value.ok() ? *std::move(value) : JsonValue();
}

// Parse must fail with InvalidArgument at `offset`, and the message must mention `expected`.
void ExpectParseError(absl::string_view text, std::size_t offset, absl::string_view expected) {
  SCOPED_TRACE(absl::StrCat("input: ", text));
  const absl::StatusOr<JsonValue> value = JsonValue::Parse(text);
  ASSERT_FALSE(value.ok()) << "parsed as " << value->Serialize();
  EXPECT_EQ(value.status().code(), absl::StatusCode::kInvalidArgument);
  const absl::string_view message = value.status().message();
  EXPECT_TRUE(absl::StartsWith(message, absl::StrCat("JSON: offset ", offset, ": "))) << message;
  EXPECT_TRUE(absl::StrContains(message, expected)) << message;
}

TEST(JsonValueTest, DefaultIsNull) {
  const JsonValue value;
  EXPECT_TRUE(value.is_null());
  EXPECT_EQ(value.type(), JsonValue::Type::kNull);
  EXPECT_EQ(value.Serialize(), "null");
  EXPECT_TRUE(JsonValue(nullptr).is_null());
}

TEST(JsonValueTest, ConstructorsPickTheRightType) {
  EXPECT_TRUE(JsonValue(true).is_bool());
  EXPECT_FALSE(JsonValue(false).AsBool());
  EXPECT_TRUE(JsonValue(7).is_integer());
  EXPECT_TRUE(JsonValue(std::int64_t{-7}).is_integer());
  EXPECT_TRUE(JsonValue(std::uint64_t{7}).is_integer());
  EXPECT_TRUE(JsonValue(7u).is_integer());
  EXPECT_TRUE(JsonValue(7LL).is_integer());
  EXPECT_TRUE(JsonValue(std::size_t{7}).is_integer());
  EXPECT_TRUE(JsonValue(2.5).is_number());
  EXPECT_FALSE(JsonValue(2.5).is_integer());
  EXPECT_EQ(JsonValue("abc").AsString(), "abc");
  EXPECT_EQ(JsonValue(std::string("abc")).AsString(), "abc");
  EXPECT_EQ(JsonValue(absl::string_view("abc")).AsString(), "abc");
  EXPECT_TRUE(JsonValue(JsonValue::Array{}).is_array());
  EXPECT_TRUE(JsonValue(JsonValue::Object{}).is_object());
  const JsonValue mixed = JsonValue::Array{1, "two", 3.5, true, nullptr};
  EXPECT_EQ(mixed.Serialize(), R"([1,"two",3.5,true,null])");
}

TEST(JsonValueTest, ParsesLiteralsWithSurroundingWhitespace) {
  EXPECT_EQ(ParseOrDie(" \t\r\ntrue \n"), JsonValue(true));
  EXPECT_EQ(ParseOrDie("false"), JsonValue(false));
  EXPECT_TRUE(ParseOrDie("  null").is_null());
}

TEST(JsonValueTest, IntegersAreExact) {
  const JsonValue a = ParseOrDie("13173404313600");
  ASSERT_TRUE(a.is_integer());
  EXPECT_EQ(*a.AsInt64(), 13173404313600);
  EXPECT_EQ(*a.AsUint64(), 13173404313600u);
  EXPECT_EQ(a.Serialize(), "13173404313600");

  const JsonValue max = ParseOrDie("18446744073709551615");
  ASSERT_TRUE(max.is_integer());
  EXPECT_EQ(*max.AsUint64(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(max.AsInt64().status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(max.Serialize(), "18446744073709551615");

  const JsonValue min = ParseOrDie("-9223372036854775808");
  EXPECT_EQ(*min.AsInt64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(min.AsUint64().status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(min.Serialize(), "-9223372036854775808");

  // 2^53 + 1 is not representable as a double; it must survive anyway.
  EXPECT_EQ(*ParseOrDie("9007199254740993").AsInt64(), 9007199254740993);
  EXPECT_EQ(*ParseOrDie("9223372036854775808").AsUint64(), 9223372036854775808u);
  EXPECT_EQ(*ParseOrDie("-0").AsInt64(), 0);
}

TEST(JsonValueTest, ConstructedIntegersSerializeExactly) {
  EXPECT_EQ(JsonValue(std::numeric_limits<std::uint64_t>::max()).Serialize(),
            "18446744073709551615");
  EXPECT_EQ(JsonValue(std::numeric_limits<std::int64_t>::min()).Serialize(),
            "-9223372036854775808");
  EXPECT_EQ(JsonValue(std::uint64_t{13173404313600}).Serialize(), "13173404313600");
  EXPECT_EQ(*JsonValue(std::uint64_t{5}).AsInt64(), 5);
}

TEST(JsonValueTest, IntegersBeyond64BitsBecomeDoubles) {
  const JsonValue big = ParseOrDie("18446744073709551616");
  EXPECT_FALSE(big.is_integer());
  EXPECT_EQ(big.AsDouble(), 18446744073709551616.0);
  EXPECT_EQ(big.AsUint64().status().code(), absl::StatusCode::kOutOfRange);
  // Past 64 bits the literal is rounded like any double: this one lands exactly on -2^63.
  const JsonValue rounded = ParseOrDie("-9223372036854775809");
  EXPECT_FALSE(rounded.is_integer());
  EXPECT_EQ(rounded.AsDouble(), -0x1p63);
  const JsonValue small = ParseOrDie("-18446744073709551616");
  EXPECT_FALSE(small.is_integer());
  EXPECT_EQ(small.AsInt64().status().code(), absl::StatusCode::kOutOfRange);
}

TEST(JsonValueTest, ParsesDoubles) {
  EXPECT_EQ(ParseOrDie("1.5").AsDouble(), 1.5);
  EXPECT_EQ(ParseOrDie("-0.25").AsDouble(), -0.25);
  EXPECT_EQ(ParseOrDie("0.1").AsDouble(), 0.1);
  EXPECT_EQ(ParseOrDie("1E+2").AsDouble(), 100.0);
  EXPECT_EQ(ParseOrDie("2.5e-3").AsDouble(), 2.5e-3);
  EXPECT_EQ(ParseOrDie("5e-324").AsDouble(), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(ParseOrDie("1.7976931348623157e308").AsDouble(), std::numeric_limits<double>::max());
  EXPECT_FALSE(ParseOrDie("1e3").is_integer());
  EXPECT_EQ(*ParseOrDie("1e3").AsInt64(), 1000);  // Integral double converts exactly.
  EXPECT_EQ(*ParseOrDie("4.0").AsUint64(), 4u);
}

TEST(JsonValueTest, UnderflowBecomesSignedZero) {
  const JsonValue tiny = ParseOrDie("1e-400");
  EXPECT_EQ(tiny.AsDouble(), 0.0);
  EXPECT_FALSE(std::signbit(tiny.AsDouble()));
  EXPECT_TRUE(std::signbit(ParseOrDie("-0.0000001e-399").AsDouble()));
  EXPECT_EQ(ParseOrDie("0.0e99999999999999999999").AsDouble(), 0.0);
  EXPECT_EQ(ParseOrDie("0e5").AsDouble(), 0.0);
}

TEST(JsonValueTest, IntegerAccessorsReportErrors) {
  EXPECT_EQ(JsonValue("1").AsInt64().status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(JsonValue().AsUint64().status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(JsonValue(1.5).AsInt64().status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(JsonValue(1.5).AsUint64().status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(JsonValue(-1).AsUint64().status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(JsonValue(-1.0).AsUint64().status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(JsonValue(0x1p63).AsInt64().status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*JsonValue(-0x1p63).AsInt64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(*JsonValue(0x1p63).AsUint64(), std::uint64_t{1} << 63);
  EXPECT_EQ(JsonValue(0x1p64).AsUint64().status().code(), absl::StatusCode::kOutOfRange);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(JsonValue(nan).AsInt64().status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(JsonValue(nan).AsUint64().status().code(), absl::StatusCode::kOutOfRange);
}

TEST(JsonValueTest, DecodesEscapes) {
  EXPECT_EQ(ParseOrDie(R"("a\"b\\c\/d\be\ff\ng\rh\ti")").AsString(), "a\"b\\c/d\be\ff\ng\rh\ti");
  EXPECT_EQ(ParseOrDie(R"("\u0041\u00e9\u20AC")").AsString(), "A\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(ParseOrDie(R"("\uD83D\uDE00")").AsString(), "\xF0\x9F\x98\x80");  // U+1F600
  EXPECT_EQ(ParseOrDie(R"("\uDBFF\uDFFF")").AsString(), "\xF4\x8F\xBF\xBF");  // U+10FFFF
  EXPECT_EQ(ParseOrDie(R"("\u0000")").AsString(), std::string(1, '\0'));
}

TEST(JsonValueTest, RawUtf8PassesThrough) {
  const std::string text = "\"Divercit\xC3\xA9 \xE2\x99\x9F \xF0\x9F\x98\x80\"";
  const JsonValue value = ParseOrDie(text);
  EXPECT_EQ(value.AsString(), text.substr(1, text.size() - 2));
  EXPECT_EQ(value.Serialize(), text);
}

TEST(JsonValueTest, SerializeEscapesStrings) {
  EXPECT_EQ(JsonValue("q\"b\\s/").Serialize(), R"("q\"b\\s/")");
  EXPECT_EQ(JsonValue("\b\f\n\r\t").Serialize(), R"("\b\f\n\r\t")");
  EXPECT_EQ(JsonValue(std::string("\x01\x1f\x7f", 3)).Serialize(), "\"\\u0001\\u001f\x7f\"");
  EXPECT_EQ(JsonValue(std::string(1, '\0')).Serialize(), R"("\u0000")");
  JsonValue object;
  object.Set("k\"ey\n", 1);
  EXPECT_EQ(object.Serialize(), R"({"k\"ey\n":1})");
}

TEST(JsonValueTest, SerializeNumbers) {
  EXPECT_EQ(JsonValue(0).Serialize(), "0");
  EXPECT_EQ(JsonValue(-42).Serialize(), "-42");
  EXPECT_EQ(JsonValue(0.1).Serialize(), "0.1");
  EXPECT_EQ(JsonValue(1.0).Serialize(), "1.0");  // Stays a double when read back.
  EXPECT_EQ(JsonValue(-0.0).Serialize(), "-0.0");
  EXPECT_EQ(JsonValue(1e300).Serialize(), "1e+300");
  EXPECT_EQ(JsonValue(123456.0).Serialize(), "123456.0");
  EXPECT_EQ(JsonValue(std::numeric_limits<double>::quiet_NaN()).Serialize(), "null");
  EXPECT_EQ(JsonValue(std::numeric_limits<double>::infinity()).Serialize(), "null");
  EXPECT_EQ(JsonValue(-std::numeric_limits<double>::infinity()).Serialize(), "null");
  EXPECT_FALSE(ParseOrDie(JsonValue(3.0).Serialize()).is_integer());
}

TEST(JsonValueTest, DoublesRoundTripBitForBit) {
  std::mt19937_64 random(20240611);
  std::vector<double> values = {0.1,
                                1.0 / 3.0,
                                -2.5e-310,
                                std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::denorm_min(),
                                9007199254740993.0,
                                1e21,
                                1e-7};
  for (int i = 0; i < 2000; ++i) {
    const double value = std::bit_cast<double>(random());
    if (std::isfinite(value)) values.push_back(value);
  }
  for (const double value : values) {
    const std::string text = JsonValue(value).Serialize();
    const JsonValue back = ParseOrDie(text);
    ASSERT_FALSE(back.is_integer()) << text;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back.AsDouble()), std::bit_cast<std::uint64_t>(value))
        << text;
  }
}

TEST(JsonValueTest, CompactDocumentsRoundTripUnchanged) {
  const char* const documents[] = {
      "null",
      "[]",
      "{}",
      R"([[],{},[[]],{"":{}}])",
      R"({"id":13173404313600,"max":18446744073709551615,"min":-9223372036854775808})",
      R"({"name":"Divercit\u00e9?","moves":["a1","b2"],"score":-0.5,"done":false,"x":null})",
      R"([1,-1,0.5,1e+100,2.5e-08,"\"\\\n\u0001",true])",
  };
  for (const char* document : documents) {
    const JsonValue value = ParseOrDie(document);
    const std::string text = value.Serialize();
    EXPECT_EQ(ParseOrDie(text), value) << text;
    EXPECT_EQ(ParseOrDie(text).Serialize(), text);
  }
  EXPECT_EQ(ParseOrDie(R"(["\u0041"])").Serialize(), R"(["A"])");
  EXPECT_EQ(ParseOrDie(R"([1e+100,2.5e-08])").Serialize(), R"([1e+100,2.5e-08])");
}

TEST(JsonValueTest, WhitespaceIsDroppedOnSerialize) {
  const JsonValue value = ParseOrDie(" {\n  \"a\" : [ 1 , 2 ] ,\r\n\t\"b\" : { } \n} ");
  EXPECT_EQ(value.Serialize(), R"({"a":[1,2],"b":{}})");
}

TEST(JsonValueTest, ObjectKeepsInsertionOrder) {
  const JsonValue parsed = ParseOrDie(R"({"z":1,"a":2,"m":3})");
  ASSERT_EQ(parsed.AsObject().size(), 3u);
  EXPECT_EQ(parsed.AsObject()[0].first, "z");
  EXPECT_EQ(parsed.AsObject()[1].first, "a");
  EXPECT_EQ(parsed.AsObject()[2].first, "m");
  EXPECT_EQ(parsed.Serialize(), R"({"z":1,"a":2,"m":3})");

  JsonValue built;
  built.Set("zeta", 1);
  built.Set("alpha", 2);
  built.Set("mid", 3);
  EXPECT_EQ(built.Serialize(), R"({"zeta":1,"alpha":2,"mid":3})");
}

TEST(JsonValueTest, FindAndSet) {
  JsonValue object = ParseOrDie(R"({"a":1,"b":"two"})");
  ASSERT_NE(object.Find("a"), nullptr);
  EXPECT_EQ(*object.Find("a")->AsInt64(), 1);
  EXPECT_EQ(object.Find("b")->AsString(), "two");
  EXPECT_EQ(object.Find("c"), nullptr);
  EXPECT_EQ(object.Find(""), nullptr);

  // Replacing keeps the member's position; new keys go last.
  JsonValue& stored = object.Set("a", "one");
  EXPECT_EQ(stored.AsString(), "one");
  object.Set("c", JsonValue::Array{1, 2});
  EXPECT_EQ(object.Serialize(), R"({"a":"one","b":"two","c":[1,2]})");
  object.Set("c", JsonValue()).Set("nested", true);
  EXPECT_EQ(object.Serialize(), R"({"a":"one","b":"two","c":{"nested":true}})");

  EXPECT_EQ(JsonValue(5).Find("a"), nullptr);
  EXPECT_EQ(JsonValue().Find("a"), nullptr);
  EXPECT_EQ(ParseOrDie(R"(["a"])").Find("a"), nullptr);
}

TEST(JsonValueTest, FindReturnsFirstOfDuplicateKeys) {
  const JsonValue object = ParseOrDie(R"({"k":1,"k":2})");
  EXPECT_EQ(object.AsObject().size(), 2u);
  EXPECT_EQ(*object.Find("k")->AsInt64(), 1);
  EXPECT_EQ(object.Serialize(), R"({"k":1,"k":2})");
}

TEST(JsonValueTest, AppendAndMutableContainers) {
  JsonValue array;
  array.Append(1);
  array.Append("x");
  array.MutableArray().push_back(JsonValue::Object{{"k", 2.5}});
  EXPECT_EQ(array.Serialize(), R"([1,"x",{"k":2.5}])");
  array.MutableArray()[0] = false;
  EXPECT_EQ(array.AsArray().front(), JsonValue(false));

  JsonValue object;
  object.MutableObject().emplace_back("first", 1);
  EXPECT_EQ(object.Serialize(), R"({"first":1})");
}

TEST(JsonValueTest, EqualityComparesNumbersByExactValue) {
  EXPECT_EQ(JsonValue(1), JsonValue(1.0));
  EXPECT_EQ(JsonValue(std::uint64_t{1} << 63), JsonValue(0x1p63));
  EXPECT_NE(JsonValue(std::int64_t{9007199254740993}), JsonValue(9007199254740992.0));
  EXPECT_NE(JsonValue(1), JsonValue(1.5));
  EXPECT_NE(JsonValue(-1), JsonValue(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_NE(JsonValue(1), JsonValue(true));
  EXPECT_NE(JsonValue(1), JsonValue("1"));
  EXPECT_NE(ParseOrDie(R"({"a":1,"b":2})"), ParseOrDie(R"({"b":2,"a":1})"));
  EXPECT_EQ(ParseOrDie(R"({"a":[1,{"b":null}]})"), ParseOrDie(R"({"a":[1.0,{"b":null}]})"));
}

TEST(JsonParseErrorTest, EmptyAndMissingValues) {
  ExpectParseError("", 0, "expected a value (found end of input)");
  ExpectParseError("   ", 3, "expected a value");
  ExpectParseError("[", 1, "expected a value");
  ExpectParseError("{\"a\":}", 5, "expected a value");
  ExpectParseError("+1", 0, "expected a value");
  ExpectParseError(".5", 0, "expected a value");
  ExpectParseError("NaN", 0, "expected a value");
  ExpectParseError("Infinity", 0, "expected a value");
  ExpectParseError("'a'", 0, "expected a value");
  ExpectParseError(
      "\xEF\xBB\xBF"
      "1",
      0, "expected a value");  // Byte order mark.
}

TEST(JsonParseErrorTest, BadLiterals) {
  ExpectParseError("tru", 0, "expected 'true'");
  ExpectParseError("[fals]", 1, "expected 'false'");
  ExpectParseError("nul", 0, "expected 'null'");
  ExpectParseError("True", 0, "expected a value");
  ExpectParseError("nulls", 4, "expected end of input");
}

TEST(JsonParseErrorTest, ArrayStructure) {
  ExpectParseError("[1,2", 4, "expected ',' or ']' in array (found end of input)");
  ExpectParseError("[1 2]", 3, "expected ',' or ']' in array");
  ExpectParseError("[1:2]", 2, "expected ',' or ']' in array");
  ExpectParseError("[1,]", 3, "trailing comma");
  ExpectParseError("[1, ]", 4, "trailing comma");
  ExpectParseError("[,1]", 1, "expected a value");
  ExpectParseError("[1,,2]", 3, "expected a value");
}

TEST(JsonParseErrorTest, ObjectStructure) {
  ExpectParseError("{", 1, "expected string key in object");
  ExpectParseError("{1:2}", 1, "expected string key in object");
  ExpectParseError("{a:1}", 1, "expected string key in object");
  ExpectParseError("{\"a\" 1}", 5, "expected ':' after key in object");
  ExpectParseError("{\"a\"", 4, "expected ':' after key in object (found end of input)");
  ExpectParseError("{\"a\":1 \"b\":2}", 7, "expected ',' or '}' in object");
  ExpectParseError("{\"a\":1,}", 7, "trailing comma");
  ExpectParseError("{\"a\":1,", 7, "expected string key in object");
  ExpectParseError("{\"a\":1]", 6, "expected ',' or '}' in object");
  ExpectParseError("[1}", 2, "expected ',' or ']' in array");
}

TEST(JsonParseErrorTest, TrailingGarbage) {
  ExpectParseError("1 2", 2, "expected end of input after the value");
  ExpectParseError("[1]x", 3, "expected end of input");
  ExpectParseError("{} {}", 3, "expected end of input");
  ExpectParseError("\"a\"\"b\"", 3, "expected end of input");
  ExpectParseError(std::string("1\0", 2), 1, "expected end of input");
  ExpectParseError("1,", 1, "expected end of input");
}

TEST(JsonParseErrorTest, Numbers) {
  ExpectParseError("01", 0, "leading zeros");
  ExpectParseError("-01", 1, "leading zeros");
  ExpectParseError("[00]", 1, "leading zeros");
  ExpectParseError("-", 1, "expected digit in number (found end of input)");
  ExpectParseError("-a", 1, "expected digit in number");
  ExpectParseError("- 1", 1, "expected digit in number");
  ExpectParseError("1.", 2, "expected digit after '.'");
  ExpectParseError("1.e5", 2, "expected digit after '.'");
  ExpectParseError("1e", 2, "expected digit in number exponent");
  ExpectParseError("1e+", 3, "expected digit in number exponent");
  ExpectParseError("1E-x", 3, "expected digit in number exponent");
  ExpectParseError("0x10", 1, "expected end of input");
  ExpectParseError("1e400", 0, "within double range");
  ExpectParseError("[-1.5e99999999999999999999]", 1, "within double range");
  ExpectParseError(absl::StrCat(std::string(400, '9'), ".0"), 0, "within double range");
}

TEST(JsonParseErrorTest, Strings) {
  ExpectParseError("\"abc", 4, "expected '\"' closing the string at offset 0");
  ExpectParseError("[\"abc", 5, "closing the string at offset 1");
  ExpectParseError("\"a\\qb\"", 2, "expected one of");
  ExpectParseError("\"a\\", 3, "expected escape character");
  ExpectParseError("\"\\x41\"", 1, "expected one of");
  ExpectParseError("\"a\x01\"", 2, "control characters");
  ExpectParseError("\"a\nb\"", 2, "control characters");
  ExpectParseError("\"a\tb\"", 2, "control characters");
  ExpectParseError(std::string("\"a\0b\"", 5), 2, "control characters");
}

TEST(JsonParseErrorTest, UnicodeEscapes) {
  ExpectParseError("\"\\u12G4\"", 5, "expected 4 hex digits");
  ExpectParseError("\"\\u12\"", 5, "expected 4 hex digits");
  ExpectParseError("\"\\u", 3, "expected 4 hex digits");
  ExpectParseError("\"\\uD800\"", 7, "expected a \\u low surrogate");
  ExpectParseError("\"\\uD800", 7, "expected a \\u low surrogate");
  ExpectParseError("\"\\uD800\\u0041\"", 7, "expected a \\u low surrogate");
  ExpectParseError("\"\\uD800\\uD800\"", 7, "expected a \\u low surrogate");
  ExpectParseError("\"\\uD800\\n\"", 7, "expected a \\u low surrogate");
  ExpectParseError("\"\\uD800\\u12\"", 11, "expected 4 hex digits");
  ExpectParseError("\"\\uDC00\"", 1, "high surrogate before this low surrogate");
  ExpectParseError("\"x\\uDFFF\\uD800\"", 2, "high surrogate before this low surrogate");
}

TEST(JsonParseErrorTest, InvalidUtf8) {
  ExpectParseError("\"\xFF\"", 1, "valid UTF-8");
  ExpectParseError("\"a\x80\"", 2, "valid UTF-8");
  ExpectParseError("\"\xC0\xAF\"", 1, "valid UTF-8");          // Overlong '/'.
  ExpectParseError("\"\xE0\x80\xAF\"", 1, "valid UTF-8");      // Overlong '/'.
  ExpectParseError("\"\xED\xA0\x80\"", 1, "valid UTF-8");      // Encoded surrogate.
  ExpectParseError("\"\xF4\x90\x80\x80\"", 1, "valid UTF-8");  // Above U+10FFFF.
  ExpectParseError("\"\xC3\"", 1, "valid UTF-8");              // Truncated sequence.
  ExpectParseError("\"\xE2\x82", 1, "valid UTF-8");
  ExpectParseError("\xC3\xA9", 0, "expected a value");  // Non-ASCII outside strings.
}

TEST(JsonParseErrorTest, NestingDepthIsLimited) {
  const int limit = JsonValue::kMaxDepth;
  const std::string ok_arrays = std::string(limit, '[') + std::string(limit, ']');
  EXPECT_TRUE(JsonValue::Parse(ok_arrays).ok());
  ExpectParseError(std::string(limit + 1, '[') + std::string(limit + 1, ']'), limit,
                   "expected at most 256 nested arrays/objects");
  ExpectParseError(std::string(1'000'000, '['), limit, "nested");

  std::string ok_objects;
  for (int i = 0; i < limit; ++i) ok_objects += "{\"a\":";
  ok_objects += "1" + std::string(limit, '}');
  EXPECT_EQ(ParseOrDie(ok_objects).Serialize(), ok_objects);
  std::string deep_objects;
  for (int i = 0; i < 100'000; ++i) deep_objects += "{\"a\":";
  ExpectParseError(deep_objects, 5 * limit, "nested");
}

TEST(JsonParseErrorTest, EveryTruncationFailsCleanly) {
  const std::string document = R"({"id":13173404313600,"s":"a\"\u00e9\uD83D\uDE00)"
                               "\xE2\x82\xAC"
                               R"(","a":[1,-2.5e-3,true,false,null,{}],"o":{"k":[]}})";
  ASSERT_TRUE(JsonValue::Parse(document).ok());
  for (std::size_t length = 0; length < document.size(); ++length) {
    const absl::StatusOr<JsonValue> value = JsonValue::Parse(document.substr(0, length));
    ASSERT_FALSE(value.ok()) << length;
    EXPECT_EQ(value.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StartsWith(value.status().message(), "JSON: offset "));
  }
}

// Random corruptions must never crash, and anything accepted must survive a round trip.
TEST(JsonParseErrorTest, CorruptedInputNeverCrashes) {
  const std::string document =
      R"({"id":13173404313600,"s":"a\"\u00e9\uD83D\uDE00x","a":[1,-2.5e-3,true,null,{}]})";
  const std::string alphabet = "{}[]\",:\\u0123456789abcdefDE.eE+- \n\t\x01\x80\xC3\xFF";
  std::mt19937 random(12345);
  int accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text = document;
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % text.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          text.erase(at, 1);
          break;
      }
    }
    const absl::StatusOr<JsonValue> value = JsonValue::Parse(text);
    if (value.ok()) {
      ++accepted;
      const std::string serialized = value->Serialize();
      const absl::StatusOr<JsonValue> again = JsonValue::Parse(serialized);
      ASSERT_TRUE(again.ok()) << again.status() << " for " << serialized;
      EXPECT_EQ(*again, *value) << serialized;
      EXPECT_EQ(again->Serialize(), serialized);
    } else {
      EXPECT_EQ(value.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_TRUE(absl::StartsWith(value.status().message(), "JSON: offset ")) << value.status();
    }
  }
  EXPECT_GT(accepted, 0);  // The corruptions do sometimes yield valid JSON.
}

}  // namespace
}  // namespace divercite
