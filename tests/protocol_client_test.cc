// The C++ client reads the protocol's transcripts as tests/data/protocol_readings.json says:
// every answer to a `go` in docs/protocol.md is fed to ReplyReader (tools/client/engine_reply.h),
// as "Transcripts" there says, and its reading (the move, each line's score, bound, exact,
// proven and pv, the last error) must be the file's; every option line is read by
// ParseOptionLine as the file's "options" say. The Python client and the page read the same
// file (tests/python/test_protocol_client.py, tests/web/protocol_js_test.mjs).
//
// DIVERCITE_PRINT_READINGS=1 prints what the client reads, in the file's form, to review and
// paste after a deliberate change of the transcripts.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/transcripts.h"
#include "tools/client/engine_options.h"
#include "tools/client/engine_reply.h"
#include "tools/common/json.h"

namespace divercite::testing {
namespace {

// A reading in the file's form: {"bestmove": M or null, "lines": [{"score", "bound"?,
// "exact"?, "proven"?, "pv"}], "error"?}. Members with their default (no bound, not exact,
// not proven, no error) are left out.
Json ReadingJson(const EngineReply& reply, bool ended) {
  Json reading = Json::object();
  reading["bestmove"] = ended ? Json(reply.bestmove) : Json(nullptr);
  Json lines = Json::array();
  for (const EngineLine& line : reply.lines) {
    Json json = Json::object();
    json["score"] = line.score_cp;
    if (line.score_bound != ScoreBound::kNone) {
      json["bound"] = line.score_bound == ScoreBound::kLower ? "lower" : "upper";
    }
    if (line.exact) json["exact"] = true;
    if (line.proven != ProvenResult::kUnknown) {
      json["proven"] = std::string(ProvenResultText(line.proven));
    }
    json["pv"] = absl::StrJoin(line.pv, " ");
    lines.push_back(json);
  }
  reading["lines"] = lines;
  if (!reply.error.empty()) reading["error"] = reply.error;
  return reading;
}

// The fields of line 1 are the reply's own.
void ExpectTopIsLineOne(const EngineReply& reply, const std::string& where) {
  if (reply.lines.empty()) {
    EXPECT_FALSE(reply.score_cp.has_value()) << where;
    return;
  }
  const EngineLine& best = reply.lines.front();
  EXPECT_EQ(reply.score_cp, best.score_cp) << where;
  EXPECT_EQ(reply.score_bound, best.score_bound) << where;
  EXPECT_EQ(reply.exact, best.exact) << where;
  EXPECT_EQ(reply.proven, best.proven) << where;
}

// The readings of every `go` of a transcript, as "Transcripts" says: a `go` opens a reading
// unless one is open; the `<` lines go to it up to its `bestmove`, or, for a `go` refused
// with an error line, to the end of that answer.
std::vector<Json> Readings(const Transcript& transcript) {
  std::vector<Json> readings;
  std::optional<ReplyReader> reader;
  for (const TranscriptExchange& exchange : transcript.exchanges) {
    const bool opens = !reader && absl::StartsWith(exchange.command, "go") &&
                       !absl::StartsWith(exchange.command, "go perft");
    if (opens) reader.emplace();
    if (!reader) continue;
    bool refused = false;
    for (const std::string& line : exchange.expected) {
      if (line == kAnyLines || !reader) continue;
      refused = refused || absl::StartsWith(line, kEngineErrorPrefix);
      const ReplyReader::Step step = reader->Read(line);
      if (step == ReplyReader::Step::kMore) continue;
      ExpectTopIsLineOne(reader->reply(), transcript.name);
      readings.push_back(ReadingJson(reader->reply(), step == ReplyReader::Step::kBestmove));
      reader.reset();
    }
    if (opens && reader && refused && !IsOpen(exchange.expected)) {
      readings.push_back(ReadingJson(reader->reply(), false));
      reader.reset();
    }
  }
  return readings;
}

Json OptionJson(const AdvertisedOption& option) {
  static const char* const kTypes[] = {"spin", "combo", "check", "string", "button", "other"};
  Json json = Json::object();
  json["name"] = option.name;
  json["type"] = kTypes[static_cast<int>(option.type)];
  json["default"] = option.default_value;
  if (option.type == AdvertisedOption::Type::kSpin) {
    json["min"] = option.min;
    json["max"] = option.max;
  }
  if (!option.vars.empty()) json["var"] = option.vars;
  return json;
}

std::vector<Json> Options(const Transcript& transcript) {
  std::vector<Json> options;
  for (const TranscriptExchange& exchange : transcript.exchanges) {
    for (const std::string& line : exchange.expected) {
      if (std::optional<AdvertisedOption> option = ParseOptionLine(line)) {
        options.push_back(OptionJson(*option));
      }
    }
  }
  return options;
}

Json ReadExpected() {
  std::ifstream in(DIVERCITE_READINGS);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<Json> json = ParseJson(text.str());
  EXPECT_TRUE(json.ok()) << DIVERCITE_READINGS << ": " << json.status();
  return json.ok() ? *json : Json::object();
}

TEST(ProtocolClient, TheClientReadsEveryTranscriptAsTheReadingsSay) {
  absl::StatusOr<std::vector<Transcript>> transcripts = ReadTranscripts(DIVERCITE_PROTOCOL_DOC);
  ASSERT_TRUE(transcripts.ok()) << transcripts.status();
  const Json expected = ReadExpected();
  Json searches = Json::object();
  Json options = Json::object();
  for (const Transcript& transcript : *transcripts) {
    if (std::vector<Json> readings = Readings(transcript); !readings.empty()) {
      searches[transcript.name] = readings;
    }
    if (std::vector<Json> listed = Options(transcript); !listed.empty()) {
      options[transcript.name] = listed;
    }
  }
  if (std::getenv("DIVERCITE_PRINT_READINGS") != nullptr) {
    std::cout << DumpJson(Json{{"searches", searches}, {"options", options}}) << "\n";
  }
  ASSERT_TRUE(expected.contains("searches") && expected.contains("options"));
  for (const auto& [kind, read] : {std::pair{"searches", &searches}, {"options", &options}}) {
    const Json& want = expected[kind];
    for (const auto& [name, value] : read->items()) {
      ASSERT_TRUE(want.contains(name))
          << kind << ": no reading for transcript " << name << " in " << DIVERCITE_READINGS
          << "; the client reads " << DumpJson(value);
      EXPECT_EQ(DumpJson(value), DumpJson(want[name])) << kind << " of transcript " << name;
    }
    for (const auto& [name, value] : want.items()) {
      EXPECT_TRUE(read->contains(name)) << kind << ": " << DIVERCITE_READINGS
                                        << " reads transcript " << name << ", which has none";
    }
  }
}

}  // namespace
}  // namespace divercite::testing
