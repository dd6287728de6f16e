// Game analysis against brute force: a live `divercite` analyses games, and every exact value
// and loss it reports near the end must be what an exhaustive search of the last plies gives.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "tests/our_engine.h"
#include "tests/reference_games.h"
#include "tools/analysis/game_analysis.h"
#include "tools/analysis/game_sources.h"
#include "tools/common/json.h"
#include "tools/records/course_recording.h"
#include "tools/review/analysis_report.h"

namespace divercite {
namespace {

using testing::OurEngine;
using testing::ReferenceGameMoves;

// Reference game `index` as a match record of players "a" and "b" from the start, its first
// `opening_plies` moves the opening and the others the players' moves.
GameRecord RecordOfReferenceGame(int index, int opening_plies) {
  const std::vector<std::string> reference = ReferenceGameMoves(index);
  GameRecord record;
  record.p1 = "a";
  record.p2 = "b";
  record.start = "startpos";
  record.opening = absl::StrJoin(reference.begin(), reference.begin() + opening_plies, " ");
  for (size_t k = opening_plies; k < reference.size(); ++k) {
    MoveRecord move;
    move.move = reference[k];
    record.moves.push_back(move);
  }
  return record;
}

// Exhaustive negamax: the final margin under best play, centipoints, side to move's view.
int BruteForce(const Position& position) {
  if (position.IsGameOver()) {
    const Player us = position.SideToMove();
    return 100 * (position.Score(us) - position.Score(Opponent(us)));
  }
  int best = -1'000'000;
  ForEachLegalMove(position, [&](Move move) {
    Position child = position;
    child.Play(move);
    best = std::max(best, -BruteForce(child));
  });
  return best;
}

std::vector<Position> PositionsOf(const GameToAnalyze& game) {
  std::vector<Position> positions = {game.start};
  for (const Move move : game.moves) {
    positions.push_back(positions.back());
    positions.back().Play(move);
  }
  return positions;
}

TEST(Analysis, ExactValuesAndLossesMatchBruteForceOverTheLastPlies) {
  constexpr int kSolvePlies = 8;
  for (const int reference : {0, 1, 2}) {
    SCOPED_TRACE(absl::StrCat("reference game ", reference));
    absl::StatusOr<GameToAnalyze> game =
        GameFromMoveList(absl::StrJoin(ReferenceGameMoves(reference), " "));
    ASSERT_TRUE(game.ok()) << game.status();
    EngineClient engine = OurEngine();
    AnalysisSettings settings;
    settings.solve_plies = kSolvePlies;
    settings.depth = 3;
    absl::StatusOr<GameAnalysis> analysis = AnalyzeGame(*game, settings, engine);
    engine.Quit();
    ASSERT_TRUE(analysis.ok()) << analysis.status();
    ASSERT_EQ(analysis->moves.size(), 40u);
    const std::vector<Position> positions = PositionsOf(*game);
    for (int k = 0; k < 40; ++k) {
      const MoveAnalysis& move = analysis->moves[k];
      EXPECT_EQ(move.ply, k);
      EXPECT_EQ(move.move, game->moves[k]);
      EXPECT_GE(move.loss, 0);
      if (positions[k].PliesLeft() > kSolvePlies) {
        EXPECT_FALSE(move.exact) << "ply " << k;
        continue;
      }
      ASSERT_TRUE(move.exact) << "ply " << k;
      const int best = BruteForce(positions[k]);
      const int played = -BruteForce(positions[k + 1]);
      EXPECT_EQ(move.value, best) << "ply " << k;
      EXPECT_EQ(move.played, played) << "ply " << k;
      EXPECT_EQ(move.loss, best - played) << "ply " << k;
      // The engine's best move reaches the brute-force value.
      Position after_best = positions[k];
      after_best.Play(move.best);
      EXPECT_EQ(-BruteForce(after_best), best) << "ply " << k;
    }
    EXPECT_EQ(analysis->first_exact_ply, 40 - kSolvePlies);
    EXPECT_EQ(analysis->final_scores[0], positions.back().Score(Player::kFirst));
    EXPECT_EQ(analysis->final_scores[1], positions.back().Score(Player::kSecond));
  }
}

// With MultiPV 3 each position keeps the engine's 3 best lines: distinct legal moves, best
// first, and in the exact range each line's value is its move's, the child's brute force.
TEST(Analysis, MultiPvKeepsTheThreeBestLinesWithTheirExactValues) {
  constexpr int kSolvePlies = 8;
  absl::StatusOr<GameToAnalyze> game = GameFromMoveList(absl::StrJoin(ReferenceGameMoves(0), " "));
  ASSERT_TRUE(game.ok()) << game.status();
  EngineClient engine = OurEngine(3);
  AnalysisSettings settings;
  settings.solve_plies = kSolvePlies;
  settings.depth = 3;
  settings.multipv = 3;
  absl::StatusOr<GameAnalysis> analysis = AnalyzeGame(*game, settings, engine);
  engine.Quit();
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  const std::vector<Position> positions = PositionsOf(*game);
  int exact_plies = 0;
  for (int k = 0; k < 40; ++k) {
    SCOPED_TRACE(absl::StrCat("ply ", k));
    const MoveAnalysis& move = analysis->moves[k];
    // In the last plies fewer than 3 moves may differ up to symmetry (one line a class).
    if (positions[k].PliesLeft() > 3) {
      ASSERT_EQ(move.lines.size(), 3u);
    }
    ASSERT_FALSE(move.lines.empty());
    EXPECT_LE(move.lines.size(), 3u);
    EXPECT_EQ(move.lines[0].move, move.best);
    EXPECT_EQ(move.lines[0].value, move.value);
    for (size_t i = 0; i < move.lines.size(); ++i) {
      const AnalysisLine& line = move.lines[i];
      EXPECT_TRUE(positions[k].CheckLegal(line.move).ok());
      EXPECT_EQ(line.pv.front(), line.move);
      for (size_t j = 0; j < i; ++j) EXPECT_NE(move.lines[j].move, line.move);
      if (i > 0) {
        EXPECT_LE(line.value, move.lines[i - 1].value);
      }
      if (positions[k].PliesLeft() > kSolvePlies) continue;
      EXPECT_TRUE(line.exact);
      Position child = positions[k];
      child.Play(line.move);
      EXPECT_EQ(line.value, -BruteForce(child)) << "line " << i + 1;
    }
    if (positions[k].PliesLeft() <= kSolvePlies) ++exact_plies;
  }
  EXPECT_EQ(exact_plies, kSolvePlies);
  // Without MultiPV the analysis keeps no lines (the default's output is unchanged).
  AnalysisSettings one = settings;
  one.multipv = 1;
  one.solve_plies = 2;
  EngineClient plain = OurEngine();
  absl::StatusOr<GameAnalysis> single = AnalyzeGame(*game, one, plain);
  plain.Quit();
  ASSERT_TRUE(single.ok()) << single.status();
  for (const MoveAnalysis& move : single->moves) EXPECT_TRUE(move.lines.empty());
}

// Perfect play by both sides over the last 6 plies, but for the first player's move at ply
// 34, the worst it had: the analysis must single that move out.
TEST(Analysis, ADeliberatelyBadMoveIsTheLargestMistake) {
  constexpr int kBadPly = 34;
  const std::vector<std::string> reference = ReferenceGameMoves(3);
  absl::StatusOr<Position> start =
      PlayMoveTexts(Position::Start(),
                    std::vector<absl::string_view>(reference.begin(), reference.begin() + kBadPly));
  ASSERT_TRUE(start.ok()) << start.status();

  GameToAnalyze game;
  game.p1 = "careless";
  game.p2 = "perfect";
  game.start = *start;
  game.start_string = absl::StrCat("fen ", ToPositionString(*start));
  Position position = *start;
  int bad_loss = 0;
  while (!position.IsGameOver()) {
    // Best (or, at the bad ply, worst) by brute force over what is left.
    Move chosen;
    int chosen_value = 0;
    const bool worst = position.Ply() == kBadPly;
    ForEachLegalMove(position, [&](Move move) {
      Position child = position;
      child.Play(move);
      const int value = -BruteForce(child);
      if (chosen.IsNone() || (worst ? value < chosen_value : value > chosen_value)) {
        chosen = move;
        chosen_value = value;
      }
    });
    if (worst) bad_loss = BruteForce(position) - chosen_value;
    game.moves.push_back(chosen);
    position.Play(chosen);
  }
  ASSERT_GT(bad_loss, 0) << "the position at ply 34 must have a losing move";
  ASSERT_EQ(position.SideToMove(), Player::kFirst);

  EngineClient engine = OurEngine();
  AnalysisSettings settings;
  settings.solve_plies = 8;
  absl::StatusOr<GameAnalysis> analysis = AnalyzeGame(game, settings, engine);
  engine.Quit();
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  const PlayerSummary& careless = analysis->players[0];
  ASSERT_EQ(careless.largest.size(), 1u);
  EXPECT_EQ(careless.largest[0].ply, kBadPly);
  EXPECT_EQ(careless.largest[0].move, game.moves[kBadPly - 34]);
  EXPECT_EQ(careless.largest[0].loss, bad_loss);
  EXPECT_EQ(careless.loss, bad_loss);
  EXPECT_EQ(analysis->players[1].loss, 0);
  EXPECT_TRUE(analysis->players[1].largest.empty());
  for (const MoveAnalysis& move : analysis->moves) EXPECT_TRUE(move.exact);

  // The JSON contract: the fields other tools read.
  // Read back from its printed line, as those tools do.
  const absl::StatusOr<Json> json = ParseJson(DumpJson(AnalysisJson(*analysis)));
  ASSERT_TRUE(json.ok()) << json.status();
  const absl::StatusOr<const Json*> moves = JsonArrayMember(*json, "moves", 6);
  ASSERT_TRUE(moves.ok()) << moves.status();
  const Json& bad = (**moves)[kBadPly - 34];
  EXPECT_EQ(JsonIntMember(bad, "ply").value_or(-1), kBadPly);
  EXPECT_EQ(JsonStringMember(bad, "move").value_or(""), MoveToString(game.moves[kBadPly - 34]));
  EXPECT_EQ(JsonIntMember(bad, "loss").value_or(-1), bad_loss);
  EXPECT_TRUE(JsonBoolMember(bad, "exact").value_or(false));
  EXPECT_TRUE(JsonStringMember(bad, "best").ok());
  ASSERT_NE(FindJsonMember(bad, "value"), nullptr);
  EXPECT_TRUE(FindJsonMember(bad, "value")->is_number_integer());
  const absl::StatusOr<const Json*> summary = JsonObjectMember(*json, "summary");
  ASSERT_TRUE(summary.ok()) << summary.status();
  const absl::StatusOr<const Json*> p1 = JsonObjectMember(**summary, "p1");
  ASSERT_TRUE(p1.ok()) << p1.status();
  EXPECT_EQ(JsonIntMember(**p1, "loss").value_or(-1), bad_loss);
  const absl::StatusOr<const Json*> mistakes = JsonArrayMember(**p1, "mistakes", 1);
  ASSERT_TRUE(mistakes.ok()) << mistakes.status();
  EXPECT_EQ(JsonIntMember((**mistakes)[0], "ply").value_or(-1), kBadPly);
}

TEST(Analysis, RecordsKeepTheOpeningApartFromThePlayersMoves) {
  const std::vector<std::string> reference = ReferenceGameMoves(0);
  GameRecord record = RecordOfReferenceGame(0, 4);
  record.game = 7;
  record.result = GameResult::kFirstWins;
  absl::StatusOr<GameToAnalyze> game = GameFromRecord(record);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->game, 7);
  EXPECT_EQ(game->opening_plies, 4);
  EXPECT_EQ(game->moves.size(), 40u);

  record.moves[10].move = reference[2];  // an occupied cell by then
  absl::StatusOr<GameToAnalyze> bad = GameFromRecord(record);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(absl::StrCat("move 15 '", reference[2], "'")),
            std::string::npos)
      << bad.status();
}

TEST(Analysis, GamesComeFromTheRecordsFileByNumber) {
  const std::vector<std::string> reference = ReferenceGameMoves(0);
  GameRecord record = RecordOfReferenceGame(0, 2);
  const std::string path = ::testing::TempDir() + "/analysis_records_test.jsonl";
  std::string lines;
  for (int game : {3, 5, 4}) {
    record.game = game;
    absl::StrAppend(&lines, DumpJson(record.ToJson()), "\n");
  }
  record.game = 6;
  const std::string cut = DumpJson(record.ToJson());
  std::ofstream(path, std::ios::trunc) << lines << cut.substr(0, cut.size() / 2);

  absl::StatusOr<std::vector<GameToAnalyze>> games = GamesFromRecordsFile(path, std::nullopt);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 3u) << "the unfinished last line is left out";
  EXPECT_EQ((*games)[1].game, 5);
  games = GamesFromRecordsFile(path, 4);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ((*games)[0].game, 4);
  EXPECT_EQ((*games)[0].opening_plies, 2);
  EXPECT_EQ((*games)[0].moves.size(), 40u);
  EXPECT_EQ(GamesFromRecordsFile(path, 6).status().code(), absl::StatusCode::kNotFound);

  // A record whose moves are not legal is named by its line and its game.
  record.game = 5;
  record.moves[5].move = reference[0];  // taken by the opening
  std::ofstream(path, std::ios::trunc)
      << lines.substr(0, lines.find('\n') + 1) << DumpJson(record.ToJson()) << "\n";
  games = GamesFromRecordsFile(path, std::nullopt);
  ASSERT_FALSE(games.ok());
  EXPECT_TRUE(absl::StartsWith(games.status().message(),
                               absl::StrCat(path, ":2: game 5: move 8 '", reference[0], "'")))
      << games.status();
  std::filesystem::remove(path);
}

// The recordings every reader must read alike (tests/data/recordings.json says how they were
// made): the same players and moves from those read, the state named in the error of those
// refused.
TEST(Analysis, CourseRecordingsAreReadAsEveryReaderReadsThem) {
  const std::string folder = std::string(DIVERCITE_SOURCE_DIR) + "/tests/data/";
  std::ifstream in(folder + "recordings.json");
  absl::StatusOr<Json> manifest =
      ParseJson(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  int read = 0, refused = 0;
  for (const Json& expected : manifest->at("recordings")) {
    const std::string file = expected.at("file").get<std::string>();
    SCOPED_TRACE(file);
    absl::StatusOr<GameToAnalyze> game = GameFromCourseRecordingFile(folder + "recordings/" + file);
    if (expected.contains("moves")) {
      ASSERT_TRUE(game.ok()) << game.status();
      std::vector<std::string> moves;
      for (const Move move : game->moves) moves.push_back(MoveToString(move));
      EXPECT_EQ(moves, expected.at("moves").get<std::vector<std::string>>());
      EXPECT_EQ(game->p1, expected.at("names")[0].get<std::string>());
      EXPECT_EQ(game->p2, expected.at("names")[1].get<std::string>());
      ++read;
    } else {
      ASSERT_FALSE(game.ok()) << "read, but " << expected.at("why").get<std::string>();
      if (!expected.at("refused_at").is_null()) {
        const std::string state = expected.at("refused_at").get<std::string>() + ": ";
        EXPECT_TRUE(absl::StrContains(game.status().message(), state)) << game.status();
      }
      ++refused;
    }
  }
  EXPECT_GE(read, 3);
  EXPECT_GE(refused, 5);
}

// The one writer: every reference game written, read back whole by the one reader, in the
// shape the course writes (players with ids 1 and 2, every state's scores).
TEST(Analysis, CourseRecordingsWrittenAreReadBack) {
  for (int index : {0, 1, 2, 3}) {
    SCOPED_TRACE(index);
    const std::vector<std::string> texts = ReferenceGameMoves(index);
    const std::vector<absl::string_view> moves(texts.begin(), texts.end());
    absl::StatusOr<std::string> written = WriteCourseRecording(moves, {"élan", "b \"2\""});
    ASSERT_TRUE(written.ok()) << written.status();
    absl::StatusOr<CourseRecording> read = ReadCourseRecording(*written);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->p1, "élan");
    EXPECT_EQ(read->p2, "b \"2\"");
    std::vector<std::string> again;
    for (const Move move : read->moves) again.push_back(MoveToString(move));
    EXPECT_EQ(again, texts);
    const absl::StatusOr<Position> last = PlayMoveTexts(Position::Start(), moves);
    ASSERT_TRUE(last.ok());
    EXPECT_EQ(read->scores.back(),
              (std::array<int, 2>{last->Score(Player::kFirst), last->Score(Player::kSecond)}));
    absl::StatusOr<Json> states = ParseJson(*written);
    ASSERT_TRUE(states.ok());
    ASSERT_EQ(states->size(), texts.size() + 1);
    const Json& final_state = states->back();
    EXPECT_EQ(final_state.at("step"), texts.size());
    EXPECT_EQ(final_state.at("rep").at("env").size(), texts.size());
    EXPECT_EQ(final_state.at("players")[0].at("id"), 1);
    EXPECT_EQ(final_state.at("players")[1].at("piece_type"), "B");
  }
  const std::vector<absl::string_view> bad = {"RC14", "RC14"};
  absl::StatusOr<std::string> refused = WriteCourseRecording(bad, {"a", "b"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StartsWith(refused.status().message(), "move 2 of 2: ")) << refused.status();
}

TEST(Analysis, CourseRecordingErrorsAreNamed) {
  // The shape the course's StateRecorder writes: a list of states with the board's cells.
  const std::string players = R"j("players": [{"name": "a_1", "id": 11, "piece_type": "W"},)j"
                              R"j( {"name": "b_2", "id": 22, "piece_type": "B"}])j";
  const std::string empty = absl::StrCat(R"j({"scores": {"11": 0, "22": 0}, )j", players,
                                         R"j(, "rep": {"env": {}, "dim": [9, 9]}, "step": 0})j");
  const std::string one = absl::StrCat(
      R"j({"scores": {"11": 0, "22": 0}, )j", players,
      R"j(, "rep": {"env": {"(3, 2)": {"piece_type": "RCW", "owner_id": 11}}, "dim": [9, 9]}, "step": 1})j");
  absl::StatusOr<GameToAnalyze> game =
      GameFromCourseRecording(absl::StrCat("[", empty, ",", one, "]"));
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->p1, "a_1");
  EXPECT_EQ(game->p2, "b_2");
  ASSERT_EQ(game->moves.size(), 1u);
  EXPECT_EQ(MoveToString(game->moves[0]), "RC32");

  std::string wrong_score = one;
  wrong_score.replace(wrong_score.find(R"("11": 0)"), 7, R"("11": 3)");
  absl::StatusOr<GameToAnalyze> bad =
      GameFromCourseRecording(absl::StrCat("[", empty, ",", wrong_score, "]"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(
      bad.status().message().find("state 1: the recording's scores (3, 0), the rules' (0, 0)"),
      std::string::npos)
      << bad.status();

  std::string second_player_first = one;
  second_player_first.replace(second_player_first.find("RCW"), 3, "RCB");
  bad = GameFromCourseRecording(absl::StrCat("[", empty, ",", second_player_first, "]"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("not to move"), std::string::npos) << bad.status();

  EXPECT_FALSE(GameFromCourseRecording("{}").ok());
  EXPECT_FALSE(GameFromCourseRecording("[1, 2").ok());
}

}  // namespace
}  // namespace divercite
