// Result-changing moves: a live `divercite` proves the results beyond the exact range, and
// the analysis marks the moves that gave a proven result away.
//
// Reference game 0 from ply 24 (random moves, as all reference games): at ply 26 the first
// player had a win (best GR44) and its move left a draw; the second player's reply left a
// loss; the exact values then change hands twice more (plies 28 and 29) before the end.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "tests/our_engine.h"
#include "tests/reference_games.h"
#include "tools/analysis/game_analysis.h"
#include "tools/common/json.h"
#include "tools/review/analysis_report.h"

namespace divercite {
namespace {

using testing::OurEngine;

constexpr int kStartPly = 24;

// Reference game 0 from kStartPly: its position as a `fen` start, and the moves after it.
GameToAnalyze ReferenceEnding() {
  GameToAnalyze game;
  Position position = Position::Start();
  const std::vector<std::string> moves = testing::ReferenceGameMoves(0);
  for (int k = 0; k < static_cast<int>(moves.size()); ++k) {
    absl::StatusOr<Move> move = ParseMove(moves[k]);
    EXPECT_TRUE(move.ok()) << move.status();
    if (!move.ok()) return game;
    if (k == kStartPly) {
      game.start = position;
      game.start_string = absl::StrCat("fen ", ToPositionString(position));
    }
    if (k >= kStartPly) game.moves.push_back(*move);
    position.Play(*move);
  }
  return game;
}

// Exact from 12 plies left; proofs at 13 and 14 (each well under a second, given ample time
// so that a loaded machine still finds them); the depth search is only for the values.
AnalysisSettings ProvingSettings() {
  AnalysisSettings settings;
  settings.solve_plies = 12;
  settings.depth = 3;
  settings.prove_plies = 14;
  settings.prove_movetime_ms = 20000;
  return settings;
}

const MoveAnalysis& AtPly(const GameAnalysis& analysis, int ply) {
  return analysis.moves[ply - kStartPly];
}

int Rank(ProvenResult proven) {
  return proven == ProvenResult::kWin ? 2 : proven == ProvenResult::kDraw ? 1 : 0;
}

ProvenResult ResultOf(int exact_value) {
  return exact_value > 0    ? ProvenResult::kWin
         : exact_value == 0 ? ProvenResult::kDraw
                            : ProvenResult::kLoss;
}

TEST(AnalysisProof, AProvenWinThrownAwayIsResultChanging) {
  const GameToAnalyze game = ReferenceEnding();
  ASSERT_EQ(game.moves.size(), 16u);
  EngineClient engine = OurEngine();
  absl::StatusOr<GameAnalysis> analysis = AnalyzeGame(game, ProvingSettings(), engine);
  engine.Quit();
  ASSERT_TRUE(analysis.ok()) << analysis.status();

  // Beyond the proofs' reach (16 and 15 plies left): nothing proven, nothing marked.
  for (int ply : {24, 25}) {
    EXPECT_EQ(AtPly(*analysis, ply).proven_before, ProvenResult::kUnknown) << "ply " << ply;
    EXPECT_FALSE(AtPly(*analysis, ply).result_changing) << "ply " << ply;
  }
  // The move before the proofs' reach led to a proven result: from its mover's view, the
  // first player's win is a loss; with nothing proven before it, it changed nothing known.
  EXPECT_EQ(AtPly(*analysis, 25).proven_after, ProvenResult::kLoss);
  // Proved, not solved: the win given away, then the draw.
  const MoveAnalysis& win_given = AtPly(*analysis, 26);
  EXPECT_FALSE(win_given.exact);
  EXPECT_EQ(win_given.proven_before, ProvenResult::kWin);
  EXPECT_EQ(win_given.proven_after, ProvenResult::kDraw);
  EXPECT_TRUE(win_given.result_changing);
  const MoveAnalysis& draw_given = AtPly(*analysis, 27);
  EXPECT_EQ(draw_given.proven_before, ProvenResult::kDraw);
  EXPECT_EQ(draw_given.proven_after, ProvenResult::kLoss);
  EXPECT_TRUE(draw_given.result_changing);
  // Within the exact range the results are the exact values'.
  for (int ply = 28; ply < 40; ++ply) {
    const MoveAnalysis& move = AtPly(*analysis, ply);
    ASSERT_TRUE(move.exact) << "ply " << ply;
    EXPECT_EQ(move.proven_before, ResultOf(move.value)) << "ply " << ply;
    EXPECT_EQ(move.proven_after, ResultOf(move.played)) << "ply " << ply;
    EXPECT_EQ(move.result_changing, Rank(ResultOf(move.played)) < Rank(ResultOf(move.value)))
        << "ply " << ply;
  }

  // Per player, in order; the game's first player won from ply 30 on.
  const std::vector<ResultChange>& first = analysis->players[0].result_changes;
  const std::vector<ResultChange>& second = analysis->players[1].result_changes;
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].ply, 26);
  EXPECT_EQ(first[0].before, ProvenResult::kWin);
  EXPECT_EQ(first[0].after, ProvenResult::kDraw);
  EXPECT_EQ(MoveToString(first[0].best), "GR44");
  EXPECT_EQ(first[1].ply, 28);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0].ply, 27);
  EXPECT_EQ(second[1].ply, 29);
  EXPECT_EQ(analysis->first_proven_ply, 26);
  EXPECT_EQ(analysis->proven_ply, 30);
  EXPECT_EQ(analysis->result, GameResult::kFirstWins);

  const std::string text = AnalysisText(*analysis);
  EXPECT_TRUE(absl::StrContains(text, "  ! result-changing: win -> draw\n")) << text;
  EXPECT_TRUE(absl::StrContains(
      text, "; result-changing: ply 26 RC63 win -> draw (GR44 kept the win), ply 28 "))
      << text;
  EXPECT_TRUE(absl::StrContains(text, "Result proven from ply 30 on; proofs reach back to ply 26."))
      << text;

  // The JSON contract, read back from its printed line.
  const absl::StatusOr<Json> json = ParseJson(DumpJson(AnalysisJson(*analysis)));
  ASSERT_TRUE(json.ok()) << json.status();
  const absl::StatusOr<const Json*> moves = JsonArrayMember(*json, "moves", 16);
  ASSERT_TRUE(moves.ok()) << moves.status();
  const Json& given = (**moves)[26 - kStartPly];
  EXPECT_EQ(JsonStringMember(given, "proven_before").value_or(""), "win");
  EXPECT_EQ(JsonStringMember(given, "proven_after").value_or(""), "draw");
  EXPECT_TRUE(JsonBoolMember(given, "result_changing").value_or(false));
  const Json& early = (**moves)[0];
  ASSERT_NE(FindJsonMember(early, "proven_before"), nullptr);
  EXPECT_TRUE(FindJsonMember(early, "proven_before")->is_null());
  EXPECT_FALSE(JsonBoolMember(early, "result_changing").value_or(true));
  const absl::StatusOr<const Json*> summary = JsonObjectMember(*json, "summary");
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(JsonIntMember(**summary, "proven_ply").value_or(-1), 30);
  EXPECT_EQ(JsonIntMember(**summary, "first_proven_ply").value_or(-1), 26);
  const absl::StatusOr<const Json*> p2 = JsonObjectMember(**summary, "p2");
  ASSERT_TRUE(p2.ok()) << p2.status();
  const absl::StatusOr<const Json*> changes = JsonArrayMember(**p2, "result_changing", 2);
  ASSERT_TRUE(changes.ok()) << changes.status();
  EXPECT_EQ(JsonIntMember((**changes)[0], "ply").value_or(-1), 27);
  EXPECT_EQ(JsonStringMember((**changes)[0], "before").value_or(""), "draw");
  EXPECT_EQ(JsonStringMember((**changes)[0], "after").value_or(""), "loss");
  const absl::StatusOr<const Json*> settings = JsonObjectMember(*json, "settings");
  ASSERT_TRUE(settings.ok()) << settings.status();
  EXPECT_EQ(JsonIntMember(**settings, "prove_plies").value_or(-1), 14);
}

TEST(AnalysisProof, WithoutProofsOnlyTheExactValuesProve) {
  const GameToAnalyze game = ReferenceEnding();
  AnalysisSettings settings = ProvingSettings();
  settings.prove_movetime_ms = 0;
  EngineClient engine = OurEngine();
  absl::StatusOr<GameAnalysis> analysis = AnalyzeGame(game, settings, engine);
  engine.Quit();
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  for (int ply = 24; ply < 28; ++ply) {
    EXPECT_EQ(AtPly(*analysis, ply).proven_before, ProvenResult::kUnknown) << "ply " << ply;
  }
  // The move at ply 27 led into the exact range: its result after is known, not before.
  EXPECT_EQ(AtPly(*analysis, 27).proven_after, ProvenResult::kLoss);
  EXPECT_FALSE(AtPly(*analysis, 27).result_changing);
  EXPECT_EQ(analysis->first_proven_ply, 28);
  EXPECT_EQ(analysis->players[0].result_changes.size(), 1u);  // ply 28
  EXPECT_TRUE(absl::StrContains(AnalysisText(*analysis), "no other proofs"));
  const absl::StatusOr<Json> json = ParseJson(DumpJson(AnalysisJson(*analysis)));
  ASSERT_TRUE(json.ok()) << json.status();
  const absl::StatusOr<const Json*> json_settings = JsonObjectMember(*json, "settings");
  ASSERT_TRUE(json_settings.ok()) << json_settings.status();
  ASSERT_NE(FindJsonMember(**json_settings, "prove_movetime"), nullptr);
  EXPECT_TRUE(FindJsonMember(**json_settings, "prove_movetime")->is_null());
}

}  // namespace
}  // namespace divercite
