// The live file of a match (-live FILE, tools/match/live_log.h): games played for real by
// the `divercite` engine on a clock and by the fake engine, two at once, whose live lines must
// replay, game by game, to each game's record (its moves, their times, its end), with both
// clocks charged as the runner charges them; and the flag's errors.
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/move.h"
#include "engine/position.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/common/json.h"
#include "tools/match/cli.h"
#include "tools/match/match_runner.h"
#include "tools/match/openings.h"
#include "tools/records/game_record.h"

namespace divercite {
namespace {

using testing::Args;
using testing::CommandLineErrorAfter;
using testing::FreshTempPath;

struct Played {
  absl::Status status;
  std::vector<GameRecord> records;
  std::vector<Json> lines;  // of the live file, in file order
};

Played Play(const std::string& args, const std::string& live_path) {
  Played played;
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(Args(args + " -live " + live_path));
  EXPECT_TRUE(settings.ok()) << settings.status();
  if (!settings.ok()) return played;
  std::ostringstream out;
  MatchRunner runner(*settings, out);
  played.status = runner.Run();
  played.records = runner.Records();
  std::ifstream in(live_path);
  std::string line;
  while (std::getline(in, line)) {
    absl::StatusOr<Json> json = ParseJson(line);
    EXPECT_TRUE(json.ok()) << json.status() << ": " << line;
    if (json.ok()) played.lines.push_back(*std::move(json));
  }
  EXPECT_TRUE(in.eof());
  return played;
}

std::int64_t Int(const Json& json, absl::string_view key) {
  absl::StatusOr<std::int64_t> value = JsonInt64Member(json, key);
  EXPECT_TRUE(value.ok()) << value.status() << " in " << DumpJson(json);
  return value.ok() ? *value : -1;
}

std::string String(const Json& json, absl::string_view key) {
  absl::StatusOr<std::string> value = JsonStringMember(json, key);
  EXPECT_TRUE(value.ok()) << value.status() << " in " << DumpJson(json);
  return value.ok() ? *value : "";
}

// A line's "clocks": both sides' ms, none for a side without a clock.
std::vector<std::optional<std::int64_t>> Clocks(const Json& json) {
  std::vector<std::optional<std::int64_t>> clocks;
  absl::StatusOr<const Json*> array = JsonArrayMember(json, "clocks", 2);
  EXPECT_TRUE(array.ok()) << array.status() << " in " << DumpJson(json);
  if (!array.ok()) return {std::nullopt, std::nullopt};
  for (const Json& ms : **array) {
    clocks.push_back(ms.is_null() ? std::nullopt : std::optional<std::int64_t>(ms.get<int64_t>()));
  }
  return clocks;
}

// "p1", "p2", or "" for null.
std::string ToMove(const Json& json) {
  const Json* to_move = FindJsonMember(json, "to_move");
  EXPECT_NE(to_move, nullptr) << DumpJson(json);
  return to_move == nullptr || to_move->is_null() ? "" : to_move->get<std::string>();
}

std::string SideToMove(const Position& position) {
  if (position.IsGameOver()) return "";
  return position.SideToMove() == Player::kFirst ? "p1" : "p2";
}

// The increment of a clock time control's text ("tc=1+0.05": 50 ms).
std::int64_t IncrementMs(const std::string& tc) {
  const size_t plus = tc.find('+');
  return plus == std::string::npos
             ? 0
             : static_cast<std::int64_t>(std::stod(tc.substr(plus + 1)) * 1000 + 0.5);
}

// One game's lines, replayed with the rules against its record: "start" first (the record's
// players, start, opening and clocks, who moves), a "move" for each of the record's moves
// (its text, its ms, the mover's clock charged that and given its increment, the other
// clock unchanged, who moves next), then "end" (the record's result, termination, reason and
// final scores).
void ExpectLinesReplayTheRecord(const GameRecord& record, const std::vector<const Json*>& lines,
                                bool clocks_kept) {
  SCOPED_TRACE(absl::StrCat("game ", record.game));
  ASSERT_EQ(lines.size(), record.moves.size() + 2);
  const Json& start = *lines.front();
  EXPECT_EQ(String(start, "event"), "start");
  EXPECT_EQ(String(start, "p1"), record.p1);
  EXPECT_EQ(String(start, "p2"), record.p2);
  EXPECT_EQ(String(start, "start"), record.start);
  EXPECT_EQ(String(start, "opening"), record.opening);
  absl::StatusOr<Opening> opening = ParseOpening(
      absl::StrCat(record.start, record.opening.empty() ? "" : " moves ", record.opening));
  ASSERT_TRUE(opening.ok()) << opening.status();
  Position board = opening->start;
  for (const std::string& move : opening->moves) board.Play(*ParseMove(move));
  int ply = static_cast<int>(opening->moves.size());
  EXPECT_EQ(Int(start, "ply"), ply);
  EXPECT_EQ(ToMove(start), SideToMove(board));
  std::vector<std::optional<std::int64_t>> clocks = Clocks(start);
  const std::int64_t increments[2] = {IncrementMs(record.time_controls[0]),
                                      IncrementMs(record.time_controls[1])};
  for (int side = 0; side < 2; ++side) EXPECT_EQ(clocks[side].has_value(), clocks_kept);
  int decreases = 0;
  for (size_t i = 0; i < record.moves.size(); ++i) {
    const Json& move = *lines[i + 1];
    const MoveRecord& recorded = record.moves[i];
    EXPECT_EQ(String(move, "event"), "move");
    EXPECT_EQ(String(move, "move"), recorded.move);
    EXPECT_EQ(Int(move, "ms"), recorded.ms);
    const int mover = board.SideToMove() == Player::kFirst ? 0 : 1;
    absl::StatusOr<Move> parsed = ParseMove(recorded.move);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    ASSERT_TRUE(board.CheckLegal(*parsed).ok()) << recorded.move;
    board.Play(*parsed);
    EXPECT_EQ(Int(move, "ply"), ++ply);
    EXPECT_EQ(ToMove(move), SideToMove(board));
    const std::vector<std::optional<std::int64_t>> after = Clocks(move);
    if (clocks_kept) {
      EXPECT_EQ(after[mover], *clocks[mover] - recorded.ms + increments[mover]) << i;
      EXPECT_EQ(after[1 - mover], clocks[1 - mover]) << i;
      // The clocks only go down, but for an increment larger than the move's time.
      if (recorded.ms > increments[mover]) {
        EXPECT_LT(*after[mover], *clocks[mover]);
        ++decreases;
      }
    } else {
      EXPECT_FALSE(after[0].has_value() || after[1].has_value());
    }
    clocks = after;
  }
  if (clocks_kept) {
    // The fake's moves at least (20 ms each, no increment).
    EXPECT_GE(decreases, static_cast<int>(record.moves.size()) / 2);
  }
  const Json& end = *lines.back();
  EXPECT_EQ(String(end, "event"), "end");
  EXPECT_EQ(Int(end, "ply"), ply);
  EXPECT_EQ(String(end, "result"), GameResultText(record.result));
  EXPECT_EQ(String(end, "termination"), TerminationText(record.termination));
  EXPECT_EQ(String(end, "reason"), record.reason);
  absl::StatusOr<const Json*> final_scores = JsonArrayMember(end, "final", 2);
  ASSERT_TRUE(final_scores.ok()) << final_scores.status();
  EXPECT_EQ((**final_scores)[0].get<int>(), record.final_scores[0]);
  EXPECT_EQ((**final_scores)[1].get<int>(), record.final_scores[1]);
}

// Every game of the run against its lines (in file order), each line with its time.
void ExpectLinesReplayTheRecords(const Played& played, bool clocks_kept) {
  std::map<int, std::vector<const Json*>> by_game;
  for (const Json& line : played.lines) {
    by_game[static_cast<int>(Int(line, "game"))].push_back(&line);
    EXPECT_EQ(String(line, "time").size(), 24u) << DumpJson(line);  // 2026-11-24T03:41:07.512Z
  }
  EXPECT_EQ(by_game.size(), played.records.size());
  for (const GameRecord& record : played.records) {
    ExpectLinesReplayTheRecord(record, by_game[record.game], clocks_kept);
  }
}

TEST(LiveTest, TwoGamesAtOnceReplayToTheirRecordsWithTheClocksCharged) {
  // The engine on a clock with an increment, against the fake taking 20 ms a move on its
  // own: each game's lines interleave with the other's.
  const Played played = Play(
      "-engine cmd=ENGINE name=engine tc=2+0.05 -engine cmd=FAKE name=slow arg=--mode=slow "
      "arg=--delay_ms=20 tc=5 -games 2 -repeat -openings random plies=3 -seed 5 "
      "-concurrency 2",
      FreshTempPath("match_live_two.jsonl"));
  ASSERT_TRUE(played.status.ok()) << played.status;
  ASSERT_EQ(played.records.size(), 2u);
  // Each game to its end, or to the engine's loss on time on a busy machine: the replay
  // holds for either.
  for (const GameRecord& record : played.records) EXPECT_GE(record.moves.size(), 10u);
  ExpectLinesReplayTheRecords(played, /*clocks_kept=*/true);
}

TEST(LiveTest, AGameLostByACrashEndsWithItsReasonAndNoClockWithoutOne) {
  const Played played = Play(
      "-engine cmd=FAKE name=good arg=--mode=good -engine cmd=FAKE name=faulty "
      "arg=--mode=crash arg=--after=2 -each depth=1 -games 1",
      FreshTempPath("match_live_crash.jsonl"));
  ASSERT_TRUE(played.status.ok()) << played.status;
  ASSERT_EQ(played.records.size(), 1u);
  EXPECT_EQ(played.records[0].termination, Termination::kCrash);
  ExpectLinesReplayTheRecords(played, /*clocks_kept=*/false);
  EXPECT_TRUE(absl::StrContains(String(played.lines.back(), "reason"), "No module named"))
      << DumpJson(played.lines.back());
}

TEST(LiveTest, AnEngineThatCannotStartHasNoStartLineButAnEnd) {
  const Played played = Play(
      "-engine cmd=FAKE name=good -engine cmd=/nonexistent/engine name=none -each tc=1 -games 1",
      FreshTempPath("match_live_nostart.jsonl"));
  ASSERT_TRUE(played.status.ok()) << played.status;
  ASSERT_EQ(played.lines.size(), 1u);
  EXPECT_EQ(String(played.lines[0], "event"), "end");
  EXPECT_EQ(String(played.lines[0], "result"), "1-0");
  EXPECT_EQ(Int(played.lines[0], "ply"), 0);
}

TEST(LiveTest, AFileThatCannotBeWrittenStopsTheRunAtOnceAndTheFlagsErrors) {
  absl::StatusOr<MatchSettings> settings =
      ParseMatchSettings(Args("-engine cmd=FAKE name=a -engine cmd=FAKE name=b -each tc=1 "
                              "-live /nonexistent/folder/live.jsonl"));
  ASSERT_TRUE(settings.ok()) << settings.status();
  std::ostringstream out;
  MatchRunner runner(*settings, out);
  const absl::Status status = runner.Run();
  EXPECT_EQ(status.message(), "-live: cannot write /nonexistent/folder/live.jsonl");
  EXPECT_TRUE(runner.Records().empty());

  EXPECT_EQ(CommandLineErrorAfter("-live live.jsonl"), "accepted");
  EXPECT_EQ(CommandLineErrorAfter("-live"), "-live takes exactly one value");
  EXPECT_EQ(CommandLineErrorAfter("-merge a.jsonl -live live.jsonl"),
            "-live follows the games being played, -merge plays none: not both");
}

}  // namespace
}  // namespace divercite
