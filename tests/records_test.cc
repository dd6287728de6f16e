// Game records and the records file: the JSON line of a record (its exact text, round trips,
// 64-bit integers, unicode names), reading errors that name what is wrong, the store's
// appending and reading back, the JSON adapter's errors instead of nlohmann's exceptions, and
// a record's game replayed on the rules (its start, its moves checked, errors naming them),
// and the lines every reader of records must read alike (tests/data/records.json).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "tools/common/json.h"
#include "tools/records/game_record.h"
#include "tools/records/record_replay.h"
#include "tools/records/record_store.h"

namespace divercite {
namespace {

GameRecord SampleRecord() {
  GameRecord record;
  record.game = 12;
  record.round = 3;
  record.pair = 6;
  record.first_engine = 1;
  record.second_engine = 0;
  record.p1 = "engine";
  record.p2 = "skypiea_v5";
  record.result = GameResult::kFirstWins;
  record.termination = Termination::kNormal;
  record.start = "startpos";
  record.opening = "RC14 GR04";
  record.time_controls = {"tc=10+0.1", "tc=inf"};
  record.moves = {{"BC23", 120, 35, false, ProvenResult::kUnknown},
                  {"GC32", 7, std::nullopt, false, ProvenResult::kUnknown},
                  {"YR44", 0, -200, true, ProvenResult::kUnknown}};
  record.final_scores = {21, 14};
  return record;
}

// The line the runner has always written for SampleRecord(): field order and formatting are
// what other tools (tools/match/plot_tournament.py, people's scripts) read.
constexpr absl::string_view kSampleLine =
    R"({"game":12,"round":3,"pair":6,"p1":"engine","p2":"skypiea_v5","result":"1-0",)"
    R"("termination":"normal","reason":"","start":"startpos","opening":"RC14 GR04",)"
    R"("engines":[1,0],"tc":["tc=10+0.1","tc=inf"],"moves":[{"move":"BC23","ms":120,)"
    R"("score":35,"exact":false},{"move":"GC32","ms":7,"exact":false},{"move":"YR44",)"
    R"("ms":0,"score":-200,"exact":true}],"final":[21,14]})";

void ExpectSameRecord(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(DumpJson(a.ToJson()), DumpJson(b.ToJson()));
  EXPECT_EQ(a.game, b.game);
  EXPECT_EQ(a.p1, b.p1);
  EXPECT_EQ(a.p2, b.p2);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.termination, b.termination);
  EXPECT_EQ(a.time_controls, b.time_controls);
  ASSERT_EQ(a.moves.size(), b.moves.size());
  for (size_t i = 0; i < a.moves.size(); ++i) {
    EXPECT_EQ(a.moves[i].move, b.moves[i].move);
    EXPECT_EQ(a.moves[i].ms, b.moves[i].ms);
    EXPECT_EQ(a.moves[i].score_cp, b.moves[i].score_cp);
    EXPECT_EQ(a.moves[i].exact, b.moves[i].exact);
  }
}

absl::StatusOr<GameRecord> RecordOfLine(absl::string_view line) {
  absl::StatusOr<Json> json = ParseJson(line);
  if (!json.ok()) return json.status();
  return GameRecord::FromJson(*json);
}

TEST(GameRecordTest, WritesTheSameLineAsEver) {
  EXPECT_EQ(DumpJson(SampleRecord().ToJson()), kSampleLine);
}

TEST(GameRecordTest, RoundTripsThroughItsLine) {
  const absl::StatusOr<GameRecord> read = RecordOfLine(kSampleLine);
  ASSERT_TRUE(read.ok()) << read.status();
  ExpectSameRecord(*read, SampleRecord());
  EXPECT_EQ(read->round, 3);
  EXPECT_EQ(read->pair, 6);
  EXPECT_EQ(read->first_engine, 1);
  EXPECT_EQ(read->second_engine, 0);
  EXPECT_EQ(read->opening, "RC14 GR04");
  EXPECT_EQ(read->final_scores, (std::array<int, 2>{21, 14}));
  EXPECT_EQ(DumpJson(read->ToJson()), kSampleLine);
}

TEST(GameRecordTest, EveryResultAndTerminationRoundTrips) {
  for (const GameResult result :
       {GameResult::kFirstWins, GameResult::kSecondWins, GameResult::kDraw}) {
    EXPECT_EQ(*ParseGameResult(GameResultText(result)), result);
  }
  EXPECT_EQ(GameResultText(GameResult::kDraw), "1/2-1/2");
  // A record's game is over: the ongoing game's "*" is no result to read.
  EXPECT_FALSE(ParseGameResult("*").ok());
  for (const Termination termination :
       {Termination::kNormal, Termination::kTime, Termination::kIllegal, Termination::kCrash,
        Termination::kStall, Termination::kLimit, Termination::kAdjudication}) {
    GameRecord record = SampleRecord();
    record.termination = termination;
    record.result = GameResult::kSecondWins;
    record.reason = "why";
    const absl::StatusOr<GameRecord> read = RecordOfLine(DumpJson(record.ToJson()));
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->termination, termination);
    EXPECT_EQ(read->result, GameResult::kSecondWins);
    EXPECT_EQ(read->reason, "why");
  }
  EXPECT_EQ(TerminationText(Termination::kIllegal), "illegal");
  EXPECT_EQ(TerminationText(Termination::kLimit), "limit");
  EXPECT_EQ(*ParseTermination("limit"), Termination::kLimit);
}

TEST(GameRecordTest, PointsFollowTheResult) {
  GameRecord record = SampleRecord();  // engine 1 moved first
  EXPECT_EQ(record.FirstPlayerPoints(), 1.0);
  EXPECT_EQ(record.PointsOf(1), 1.0);
  EXPECT_EQ(record.PointsOf(0), 0.0);
  record.result = GameResult::kDraw;
  EXPECT_EQ(record.PointsOf(0), 0.5);
  record.result = GameResult::kSecondWins;
  EXPECT_EQ(record.PointsOf(0), 1.0);
}

TEST(GameRecordTest, UnknownResultOrTerminationTextIsAnErrorNamingIt) {
  std::string line(kSampleLine);
  line.replace(line.find(R"("1-0")"), 5, R"("2-0")");
  absl::StatusOr<GameRecord> read = RecordOfLine(line);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(absl::StrContains(read.status().message(), "unknown result '2-0'")) << read.status();

  line = std::string(kSampleLine);
  line.replace(line.find(R"("normal")"), 8, R"("abandoned")");
  read = RecordOfLine(line);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(absl::StrContains(read.status().message(), "unknown termination 'abandoned'"))
      << read.status();
}

TEST(GameRecordTest, MissingOrMistypedFieldsAreNamed) {
  auto error = [](absl::string_view line) {
    const absl::StatusOr<GameRecord> read = RecordOfLine(line);
    return read.ok() ? std::string("accepted") : std::string(read.status().message());
  };
  EXPECT_EQ(error(R"({"result":"1-0","p1":"a","p2":"b"})"), "record: missing 'game'");
  EXPECT_EQ(error(R"({"game":"1","result":"1-0","p1":"a","p2":"b"})"),
            "record: 'game' is a string, expected an integer");
  EXPECT_EQ(error(R"({"game":1,"result":"1-0","p1":null,"p2":"b"})"),
            "record: 'p1' is null, expected a string");
  EXPECT_EQ(error(R"({"game":1.5,"result":"1-0","p1":"a","p2":"b"})"),
            "record: 'game': 1.5 is not a 64-bit integer");
  EXPECT_EQ(error(R"({"game":1,"result":"1-0","p1":"a","p2":"b","final":[1]})"),
            "record: 'final' is an array of 1, expected 2 elements");
  EXPECT_EQ(error(R"({"game":1,"result":"1-0","p1":"a","p2":"b","moves":[{"move":5}]})"),
            "record: 'moves'[0]: 'move' is an integer, expected a string");
  EXPECT_EQ(error(R"({"game":1,"result":"1-0","p1":"a","p2":"b","engines":[0,true]})"),
            "record: 'engines'[1] is a boolean, expected an integer");
  EXPECT_EQ(error("[1,2]"), "record: a record is an array, expected an object");
  EXPECT_EQ(error(R"({"game":1,"result":"1-0","p1":"a","p2":"b","moves":[{},"BC23"]})"),
            "record: 'moves'[1] is a string, expected an object");
  // Only game, result and the names are required.
  const absl::StatusOr<GameRecord> minimal =
      RecordOfLine(R"({"game":4,"result":"0-1","p1":"a","p2":"b"})");
  ASSERT_TRUE(minimal.ok()) << minimal.status();
  EXPECT_EQ(minimal->game, 4);
  EXPECT_EQ(minimal->result, GameResult::kSecondWins);
  EXPECT_EQ(minimal->termination, Termination::kNormal);
  EXPECT_TRUE(minimal->moves.empty());
}

TEST(GameRecordTest, SixtyFourBitIntegersAreExact) {
  GameRecord record = SampleRecord();
  record.moves[0].ms = std::numeric_limits<std::int64_t>::max();
  record.moves[1].ms = std::numeric_limits<std::int64_t>::min();
  const std::string line = DumpJson(record.ToJson());
  EXPECT_TRUE(absl::StrContains(line, R"("ms":9223372036854775807)")) << line;
  EXPECT_TRUE(absl::StrContains(line, R"("ms":-9223372036854775808)")) << line;
  const absl::StatusOr<GameRecord> read = RecordOfLine(line);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->moves[0].ms, std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(read->moves[1].ms, std::numeric_limits<std::int64_t>::min());

  // Beyond int64, or beyond an int where the field is one: an error, never a wrapped value.
  std::string too_big(kSampleLine);
  too_big.replace(too_big.find(R"("ms":120)"), 8, R"("ms":9223372036854775808)");
  EXPECT_FALSE(RecordOfLine(too_big).ok());
  std::string big_game(kSampleLine);
  big_game.replace(big_game.find(R"("game":12)"), 9, R"("game":4294967308)");
  const absl::StatusOr<GameRecord> wrapped = RecordOfLine(big_game);
  ASSERT_FALSE(wrapped.ok());
  EXPECT_TRUE(absl::StrContains(wrapped.status().message(), "'game': 4294967308 is out of range"))
      << wrapped.status();
}

TEST(GameRecordTest, UnicodeNamesRoundTripAsTheyAre) {
  GameRecord record = SampleRecord();
  record.p1 = "élan";
  record.p2 = "引擎 \"β\" 🐎";
  record.reason = "tab\there\nnewline \x01";
  const std::string line = DumpJson(record.ToJson());
  // UTF-8 is copied, not escaped; quotes and control characters are escaped.
  EXPECT_TRUE(absl::StrContains(line, R"("p1":"élan","p2":"引擎 \"β\" 🐎")")) << line;
  EXPECT_TRUE(absl::StrContains(line, R"("reason":"tab\there\nnewline \u0001")")) << line;
  const absl::StatusOr<GameRecord> read = RecordOfLine(line);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->p1, record.p1);
  EXPECT_EQ(read->p2, record.p2);
  EXPECT_EQ(read->reason, record.reason);
  // \u escapes, surrogate pairs included, read as UTF-8.
  const absl::StatusOr<Json> escaped = ParseJson(R"("\u00e9\ud83d\udc0e")");
  ASSERT_TRUE(escaped.ok()) << escaped.status();
  EXPECT_EQ(*JsonToString(*escaped, "it"), "é🐎");
}

TEST(JsonAdapterTest, BytesThatAreNotUtf8AreReplacedNotThrown) {
  Json json = Json::object();
  json["name"] = std::string(
      "a\xff"
      "b");
  EXPECT_EQ(DumpJson(json),
            "{\"name\":\"a\xef\xbf\xbd"
            "b\"}");
  // And read back, such bytes are a parse error, not an exception.
  EXPECT_FALSE(ParseJson("\"a\xff\"").ok());
  // Whatever the bytes (a stray continuation, an overlong form, a surrogate, a cut sequence
  // at the end), what is written reads back: it is valid UTF-8.
  for (const char* bytes : {"\x80", "\xc0\xaf", "\xed\xa0\x80", "caf\xe9", "\xf0\x9f\x98",
                            "\xf4\x90\x80\x80", "ok \xc3\xa9"}) {
    json["name"] = std::string(bytes);
    const absl::StatusOr<Json> read = ParseJson(DumpJson(json));
    EXPECT_TRUE(read.ok()) << absl::CHexEscape(bytes) << ": " << read.status();
  }
}

TEST(JsonAdapterTest, ParseErrorsGiveTheirBytePositionAndNeverThrow) {
  const absl::StatusOr<Json> bad = ParseJson(R"({"game":1,})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(bad.status().message(), "JSON at byte 11: ")) << bad.status();
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "syntax error")) << bad.status();
  // A number beyond a double has no byte position to give.
  const absl::StatusOr<Json> huge = ParseJson("[1e99999]");
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(absl::StartsWith(huge.status().message(), "JSON: ")) << huge.status();
  EXPECT_TRUE(absl::StrContains(huge.status().message(), "number overflow")) << huge.status();
  for (absl::string_view text : {"", "   ", "tru", "{\"a\" 1}", "[1,]", "01", "1 2", "\"\x01\"",
                                 "1e99999", "{\"a\":1}}", "nul"}) {
    EXPECT_FALSE(ParseJson(text).ok()) << text;
  }
  // Every cut of a record line is an error, never a crash or an escaped exception.
  for (size_t length = 0; length < kSampleLine.size(); ++length) {
    EXPECT_FALSE(ParseJson(kSampleLine.substr(0, length)).ok()) << length;
  }
  // Deep nesting does not exhaust the stack.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_TRUE(ParseJson(deep).ok());
}

TEST(JsonAdapterTest, TypedGettersNameTheFieldAndKeepIntegersExact) {
  const absl::StatusOr<Json> json = ParseJson(
      R"({"max":18446744073709551615,"min":-9223372036854775808,"big":18446744073709551616,)"
      R"("whole":3.0,"half":0.5,"s":"x","t":true,"a":[1],"o":{}})");
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(*JsonInt64Member(*json, "min"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(JsonInt64Member(*json, "max").status().message(),
            "'max': 18446744073709551615 is out of range");
  EXPECT_FALSE(JsonInt64Member(*json, "big").ok());  // a double beyond 2^64
  EXPECT_EQ(*JsonIntMember(*json, "whole"), 3);
  EXPECT_EQ(JsonIntMember(*json, "half").status().message(), "'half': 0.5 is not a 64-bit integer");
  EXPECT_EQ(JsonIntMember(*json, "none").status().message(), "missing 'none'");
  EXPECT_EQ(JsonStringMember(*json, "t").status().message(), "'t' is a boolean, expected a string");
  EXPECT_EQ(*JsonBoolMember(*json, "t"), true);
  EXPECT_EQ(JsonBoolMember(*json, "s").status().message(), "'s' is a string, expected a boolean");
  EXPECT_EQ(JsonArrayMember(*json, "o").status().message(), "'o' is an object, expected an array");
  EXPECT_EQ(JsonObjectMember(*json, "a").status().message(), "'a' is an array, expected an object");
  EXPECT_TRUE(JsonArrayMember(*json, "a", 1).ok());
  EXPECT_EQ(FindJsonMember(Json(5), "a"), nullptr);
  EXPECT_EQ(JsonIntMember(Json::array(), "a").status().message(), "missing 'a'");
  // Members keep their document order.
  EXPECT_EQ(DumpJson(*ParseJson(R"({"z":1, "a":2, "m":[true,null,"s",-1.5]})")),
            R"({"z":1,"a":2,"m":[true,null,"s",-1.5]})");
}

class RecordStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "/records_test_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
    std::filesystem::remove(path_);
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string Contents() const {
    std::ifstream in(path_, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  void Write(absl::string_view text) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << text;
  }
  static GameRecord Game(int number) {
    GameRecord record = SampleRecord();
    record.game = number;
    return record;
  }

  std::string path_;
};

TEST_F(RecordStoreTest, AppendsOneFlushedLinePerGameAndReadsThemBack) {
  absl::StatusOr<RecordStore> store = RecordStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_TRUE(store->records().empty());
  EXPECT_FALSE(std::filesystem::exists(path_)) << "created by the first append only";
  for (int game : {0, 1, 2}) {
    ASSERT_TRUE(store->Append(Game(game)).ok());
    // Flushed: another reader sees the line at once.
    absl::StatusOr<std::vector<GameRecord>> read = ReadRecords(path_);
    ASSERT_TRUE(read.ok()) << read.status();
    ASSERT_EQ(read->size(), static_cast<size_t>(game + 1));
    ExpectSameRecord(read->back(), Game(game));
  }
  const std::string line = DumpJson(Game(1).ToJson()) + "\n";
  EXPECT_EQ(Contents(),
            DumpJson(Game(0).ToJson()) + "\n" + line + DumpJson(Game(2).ToJson()) + "\n");

  absl::StatusOr<std::vector<GameRecord>> one = ReadRecords(path_, 1);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].game, 1);
  EXPECT_TRUE(ReadRecords(path_, 7)->empty());

  // Reopened to resume: the records so far, and appending continues the file.
  absl::StatusOr<RecordStore> again = RecordStore::Open(path_);
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->records().size(), 3u);
  EXPECT_FALSE(again->dropped_unfinished_line());
  ASSERT_TRUE(again->Append(Game(3)).ok());
  EXPECT_EQ(ReadRecords(path_)->size(), 4u);
}

TEST_F(RecordStoreTest, AnUnfinishedLastLineIsDroppedAndTruncatedOnOpen) {
  const std::string first = DumpJson(Game(0).ToJson()) + "\n";
  const std::string second = DumpJson(Game(1).ToJson());
  Write(first + second.substr(0, second.size() / 2));
  // Readers skip it and leave the file alone.
  absl::StatusOr<std::vector<GameRecord>> read = ReadRecords(path_);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->size(), 1u);
  EXPECT_EQ(Contents().size(), first.size() + second.size() / 2);
  // A whole line without its newline is unfinished too: the write stopped before it.
  Write(first + second);
  EXPECT_EQ(ReadRecords(path_)->size(), 1u);

  absl::StatusOr<RecordStore> store = RecordStore::Open(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_TRUE(store->dropped_unfinished_line());
  EXPECT_EQ(store->records().size(), 1u);
  EXPECT_EQ(Contents(), first);
  ASSERT_TRUE(store->Append(Game(1)).ok());
  EXPECT_EQ(Contents(), first + second + "\n");
}

TEST_F(RecordStoreTest, AMalformedCompleteLineIsAnErrorNamingPathAndLine) {
  const std::string good = DumpJson(Game(0).ToJson()) + "\n";
  Write(good + "\n  \n" + R"({"game":1,"result":"1-0")" + "\n" + good);
  const absl::StatusOr<std::vector<GameRecord>> read = ReadRecords(path_);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(absl::StartsWith(read.status().message(), path_ + ":4: JSON at byte "))
      << read.status();
  EXPECT_FALSE(RecordStore::Open(path_).ok());
  // Also when looking for another game: every line must be a record.
  EXPECT_FALSE(ReadRecords(path_, 0).ok());

  Write(good + R"({"game":1,"result":"1-0","p1":"a"})" + "\n");
  const absl::Status missing = ReadRecords(path_).status();
  EXPECT_EQ(missing.message(), path_ + ":2: record: missing 'p2'") << missing;
}

TEST_F(RecordStoreTest, VisitErrorsAreNamedWithTheLineAndStopTheReading) {
  Write(DumpJson(Game(0).ToJson()) + "\n\n" + DumpJson(Game(1).ToJson()) + "\n" +
        DumpJson(Game(2).ToJson()) + "\n");
  int visited = 0;
  const absl::Status status = ForEachRecord(path_, [&](const GameRecord& record) {
    ++visited;
    return record.game == 1 ? absl::InvalidArgumentError("bad move") : absl::OkStatus();
  });
  EXPECT_EQ(status.message(), path_ + ":3: bad move");
  EXPECT_EQ(visited, 2);
}

TEST_F(RecordStoreTest, AMissingFileCannotBeReadButCanBeStarted) {
  const absl::Status status = ReadRecords(path_).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.message(), path_ + ": cannot open");
  EXPECT_TRUE(RecordStore::Open(path_).ok());
}

TEST(RecordReplayTest, TheOpeningThenThePlayersMovesFromTheStart) {
  absl::StatusOr<ReplayedRecord> game = ReplayRecord(SampleRecord());
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->start_string, "startpos");
  EXPECT_EQ(game->opening_plies, 2);
  std::string moves;
  for (const Move move : game->moves) absl::StrAppend(&moves, MoveToString(move), " ");
  EXPECT_EQ(moves, "RC14 GR04 BC23 GC32 YR44 ");

  // From a position string: the start as `position` takes it, written as the rules write it.
  Position after_two = Position::Start();
  after_two.Play(game->moves[0]);
  after_two.Play(game->moves[1]);
  GameRecord record = SampleRecord();
  record.start = absl::StrCat("fen ", ToPositionString(after_two));
  record.opening = "";
  absl::StatusOr<ReplayedRecord> from_fen = ReplayRecord(record);
  ASSERT_TRUE(from_fen.ok()) << from_fen.status();
  EXPECT_EQ(from_fen->start_string, record.start);
  EXPECT_EQ(ToPositionString(from_fen->start), ToPositionString(after_two));
  EXPECT_EQ(from_fen->opening_plies, 0);
  EXPECT_EQ(from_fen->moves.size(), 3u);
}

TEST(RecordReplayTest, ABadStartOrMoveIsAnErrorNamingTheGameAndTheMove) {
  const auto message = [](const GameRecord& record) {
    absl::StatusOr<ReplayedRecord> game = ReplayRecord(record);
    return game.ok() ? std::string("(no error)") : std::string(game.status().message());
  };
  GameRecord record = SampleRecord();
  record.moves[1].move = "BC23";  // taken by the move before
  EXPECT_TRUE(absl::StartsWith(message(record), "game 12: move 4 'BC23' at ply 3: "))
      << message(record);
  record = SampleRecord();
  record.moves[2].move = "YR4";
  EXPECT_TRUE(absl::StartsWith(message(record), "game 12: move 5 'YR4' at ply 4: "))
      << message(record);
  record = SampleRecord();
  record.opening = "RC14 RC14";
  EXPECT_TRUE(absl::StartsWith(message(record), "game 12: opening: move 2 'RC14' at ply 1: "))
      << message(record);
  record = SampleRecord();
  record.start = "somewhere";
  EXPECT_TRUE(absl::StartsWith(message(record), "game 12: start 'somewhere': ")) << message(record);
  record.start = "fen nonsense w";
  EXPECT_TRUE(absl::StartsWith(message(record), "game 12: start: ")) << message(record);
}

// The lines every reader of records reads alike (tests/data/records.json says what each
// holds): the same players, start, moves, result and final scores from those read (parsed,
// then replayed on the rules); an error from those refused, at either step.
TEST(RecordsTest, SharedLinesAreReadAsEveryReaderReadsThem) {
  std::ifstream in(std::string(DIVERCITE_SOURCE_DIR) + "/tests/data/records.json");
  absl::StatusOr<Json> manifest =
      ParseJson(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  int read = 0, refused = 0;
  for (const Json& expected : manifest->at("records")) {
    SCOPED_TRACE(expected.at("name").get<std::string>());
    absl::StatusOr<ReplayedRecord> replayed = absl::InvalidArgumentError("not read");
    absl::StatusOr<GameRecord> record = absl::InvalidArgumentError("not parsed");
    if (absl::StatusOr<Json> json = ParseJson(expected.at("line").get<std::string>()); json.ok()) {
      record = GameRecord::FromJson(*json);
      if (record.ok()) replayed = ReplayRecord(*record);
    }
    if (!expected.contains("moves")) {
      EXPECT_FALSE(replayed.ok()) << "read, but " << expected.at("why").get<std::string>();
      ++refused;
      continue;
    }
    ASSERT_TRUE(replayed.ok()) << (record.ok() ? replayed.status() : record.status());
    EXPECT_EQ(record->p1, expected.at("names")[0].get<std::string>());
    EXPECT_EQ(record->p2, expected.at("names")[1].get<std::string>());
    EXPECT_EQ(replayed->start_string, expected.at("start").get<std::string>());
    std::vector<std::string> moves;
    Position position = replayed->start;
    for (const Move move : replayed->moves) {
      moves.push_back(MoveToString(move));
      position.Play(move);
    }
    EXPECT_EQ(moves, expected.at("moves").get<std::vector<std::string>>());
    EXPECT_EQ(GameResultText(record->result), expected.at("result").get<std::string>());
    EXPECT_EQ((std::vector<int>{position.Score(Player::kFirst), position.Score(Player::kSecond)}),
              expected.at("scores").get<std::vector<int>>());
    ++read;
  }
  EXPECT_GE(read, 4);
  EXPECT_GE(refused, 9);
}

}  // namespace
}  // namespace divercite
