// Proven results from the engine to the records: the client reads `info string proven
// win|draw|loss` (and the score's bound) of the search its move came from, the runner keeps
// it per move as "proven", and records without it (older files) still read.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/our_engine.h"
#include "tests/reference_games.h"
#include "tools/client/engine_client.h"
#include "tools/common/json.h"
#include "tools/match/cli.h"
#include "tools/match/match_runner.h"
#include "tools/match/match_settings.h"
#include "tools/records/game_record.h"

namespace divercite {
namespace {

using testing::OurEngine;

using testing::ReferenceGameMoves;

// `position` after the first `plies` moves of reference game `index`.
std::string ReferencePosition(int index, int plies) {
  const std::vector<std::string> moves = ReferenceGameMoves(index);
  return absl::StrCat("position startpos moves ",
                      absl::StrJoin(moves.begin(), moves.begin() + plies, " "));
}

GameRecord RecordWithProofs() {
  GameRecord record;
  record.game = 3;
  record.p1 = "a";
  record.p2 = "b";
  record.result = GameResult::kFirstWins;
  record.start = "startpos";
  record.moves = {{"BC23", 120, 35, false, ProvenResult::kUnknown},
                  {"GC32", 7, -300, false, ProvenResult::kLoss},
                  {"YR44", 10, 300, true, ProvenResult::kWin},
                  {"RR62", 0, 0, true, ProvenResult::kDraw}};
  return record;
}

TEST(ProvenRecordTest, TheFieldRoundTripsAfterExactAndIsAbsentWithoutAProof) {
  const GameRecord record = RecordWithProofs();
  const std::string line = DumpJson(record.ToJson());
  EXPECT_TRUE(absl::StrContains(line, R"({"move":"BC23","ms":120,"score":35,"exact":false},)"))
      << line;
  EXPECT_TRUE(absl::StrContains(
      line, R"({"move":"GC32","ms":7,"score":-300,"exact":false,"proven":"loss"},)"))
      << line;
  EXPECT_TRUE(absl::StrContains(line, R"("exact":true,"proven":"win"},)")) << line;
  EXPECT_TRUE(absl::StrContains(line, R"("exact":true,"proven":"draw"}])")) << line;

  const absl::StatusOr<GameRecord> read = GameRecord::FromJson(*ParseJson(line));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->moves.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(read->moves[i].proven, record.moves[i].proven) << i;
  EXPECT_EQ(DumpJson(read->ToJson()), line);

  const std::string text = record.ToText();
  EXPECT_TRUE(absl::StrContains(text, "GC32 (7 ms, -3.00, proven loss)")) << text;
  EXPECT_TRUE(absl::StrContains(text, "YR44 (10 ms, +3.00 exact, proven win)")) << text;
  EXPECT_TRUE(absl::StrContains(text, "BC23 (120 ms, +0.35)")) << text;
}

TEST(ProvenRecordTest, LinesWithoutTheFieldStillReadAndABadOneIsNamed) {
  // A line as the runner wrote it before proofs were recorded.
  const absl::StatusOr<GameRecord> old = GameRecord::FromJson(
      *ParseJson(R"({"game":0,"p1":"a","p2":"b","result":"0-1",)"
                 R"("moves":[{"move":"BC23","ms":5,"score":-100,"exact":true}]})"));
  ASSERT_TRUE(old.ok()) << old.status();
  ASSERT_EQ(old->moves.size(), 1u);
  EXPECT_EQ(old->moves[0].proven, ProvenResult::kUnknown);
  EXPECT_TRUE(old->moves[0].exact);

  const absl::StatusOr<GameRecord> unknown = GameRecord::FromJson(*ParseJson(
      R"({"game":0,"p1":"a","p2":"b","result":"0-1","moves":[{"move":"BC23","proven":"won"}]})"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "record: 'moves'[0]: 'proven': unknown proven result 'won' (expected win, draw or "
            "loss)");
  const absl::StatusOr<GameRecord> mistyped = GameRecord::FromJson(*ParseJson(
      R"({"game":0,"p1":"a","p2":"b","result":"0-1","moves":[{"move":"BC23","proven":1}]})"));
  ASSERT_FALSE(mistyped.ok());
  EXPECT_TRUE(absl::StartsWith(mistyped.status().message(), "record: 'moves'[0]: 'proven'"))
      << mistyped.status();
}

// Reference game 0 is won by the side to move 14 plies from the end (ply 26): `go prove`
// proves it in well under a second, and solving it exactly proves it too.
TEST(ProvenClientTest, TheProofOfTheFinalReportIsRead) {
  EngineClient engine = OurEngine();
  ASSERT_TRUE(engine.EnsureStarted(absl::Seconds(30)).ok());
  ASSERT_TRUE(engine.NewGame(absl::Seconds(30)).ok());

  absl::StatusOr<EngineReply> proof =
      engine.Go(ReferencePosition(0, 26), "go prove", absl::Seconds(60));
  ASSERT_TRUE(proof.ok()) << proof.status();
  EXPECT_EQ(proof->proven, ProvenResult::kWin);
  EXPECT_FALSE(proof->exact);
  EXPECT_EQ(proof->score_bound, ScoreBound::kLower);
  ASSERT_TRUE(proof->score_cp.has_value());
  EXPECT_GE(*proof->score_cp, 100);

  absl::StatusOr<EngineReply> exact =
      engine.Go(ReferencePosition(0, 26), "go depth 40", absl::Seconds(60));
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(exact->proven, ProvenResult::kWin);
  EXPECT_TRUE(exact->exact);
  EXPECT_EQ(exact->score_bound, ScoreBound::kNone);
  EXPECT_GE(exact->score_cp.value_or(0), *proof->score_cp);

  // One ply later (after the reference game's random move): the exact value's result.
  absl::StatusOr<EngineReply> next =
      engine.Go(ReferencePosition(0, 27), "go depth 40", absl::Seconds(60));
  ASSERT_TRUE(next.ok()) << next.status();
  ASSERT_TRUE(next->exact && next->score_cp.has_value());
  EXPECT_EQ(next->proven, *next->score_cp > 0    ? ProvenResult::kWin
                          : *next->score_cp == 0 ? ProvenResult::kDraw
                                                 : ProvenResult::kLoss);

  absl::StatusOr<EngineReply> early =
      engine.Go(ReferencePosition(0, 4), "go depth 3", absl::Seconds(60));
  ASSERT_TRUE(early.ok()) << early.status();
  EXPECT_EQ(early->proven, ProvenResult::kUnknown);
  EXPECT_FALSE(early->exact);
  engine.Quit();
}

// Two engines that solve every move (`go depth 40`) from 12 plies before the end: every move
// is recorded with its proof, from its mover's view, and agrees with the game's result.
TEST(ProvenMatchTest, EveryMoveOfASolvedEndgameIsRecordedWithItsProof) {
  constexpr int kOpeningPlies = 28;
  const std::string dir = ::testing::TempDir();
  const std::string openings = dir + "/proven_openings.txt";
  const std::string records = dir + "/proven_match.jsonl";
  const std::string text = dir + "/proven_match.txt";
  std::filesystem::remove(records);
  std::filesystem::remove(text);
  const std::vector<std::string> reference = ReferenceGameMoves(0);
  std::ofstream(openings, std::ios::trunc)
      << absl::StrJoin(reference.begin(), reference.begin() + kOpeningPlies, " ") << "\n";
  const std::vector<std::string> args = {"-engine",
                                         absl::StrCat("cmd=", DIVERCITE_ENGINE_BINARY),
                                         "name=one",
                                         "option.Hash=16",
                                         "-engine",
                                         absl::StrCat("cmd=", DIVERCITE_ENGINE_BINARY),
                                         "name=two",
                                         "option.Hash=16",
                                         "-each",
                                         "depth=40",
                                         "-games",
                                         "2",
                                         "-repeat",
                                         "-openings",
                                         absl::StrCat("file=", openings),
                                         "-records",
                                         records,
                                         "-text",
                                         text};
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
  ASSERT_TRUE(settings.ok()) << settings.status();
  std::ostringstream out;
  MatchRunner runner(*settings, out);
  ASSERT_TRUE(runner.Run().ok()) << out.str();
  const std::vector<GameRecord> played = runner.Records();
  ASSERT_EQ(played.size(), 2u);
  for (const GameRecord& record : played) {
    ASSERT_EQ(record.termination, Termination::kNormal) << record.reason;
    ASSERT_EQ(record.moves.size(), 40u - kOpeningPlies);
    for (size_t i = 0; i < record.moves.size(); ++i) {
      const MoveRecord& move = record.moves[i];
      ASSERT_NE(move.proven, ProvenResult::kUnknown) << "move " << i;
      const bool first_moved = (kOpeningPlies + i) % 2 == 0;
      const ProvenResult expected = record.result == GameResult::kDraw ? ProvenResult::kDraw
                                    : (record.result == GameResult::kFirstWins) == first_moved
                                        ? ProvenResult::kWin
                                        : ProvenResult::kLoss;
      EXPECT_EQ(move.proven, expected) << "move " << i << " of game " << record.game;
    }
  }
  std::stringstream readable;
  readable << std::ifstream(text).rdbuf();
  EXPECT_TRUE(absl::StrContains(readable.str(), " exact, proven ")) << readable.str();
  // The file the resume reads back holds the same.
  std::ifstream in(records);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    EXPECT_TRUE(absl::StrContains(line, R"("proven":")")) << line;
    EXPECT_TRUE(GameRecord::FromJson(*ParseJson(line)).ok()) << line;
  }
  EXPECT_EQ(lines, 2);
}

}  // namespace
}  // namespace divercite
