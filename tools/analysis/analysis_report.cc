#include "tools/analysis/analysis_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/analysis/plot_analysis_script.h"
#include "tools/common/child_process.h"

namespace divercite {
namespace {

constexpr absl::string_view kSideKeys[2] = {"p1", "p2"};

absl::string_view ResultText(GameResult result) {
  switch (result) {
    case GameResult::kFirstWins: return "1-0";
    case GameResult::kSecondWins: return "0-1";
    case GameResult::kDraw: return "1/2-1/2";
    case GameResult::kOngoing: break;
  }
  return "*";
}

std::string Points(int centipoints) { return absl::StrFormat("%+.2f", centipoints / 100.0); }

std::string MoveText(Move move) { return move.IsNone() ? "-" : MoveToString(move); }

std::string SearchDescription(const AnalysisSettings& settings) {
  return settings.movetime_ms > 0 ? absl::StrCat("search for ", settings.movetime_ms, " ms")
                                  : absl::StrCat("search to depth ", settings.depth);
}

JsonValue OptionalPly(const std::optional<int>& ply) {
  return ply ? JsonValue(*ply) : JsonValue(nullptr);
}

}  // namespace

std::string AnalysisText(const GameAnalysis& analysis) {
  const GameToAnalyze& game = analysis.game;
  const std::string names[2] = {game.p1, game.p2};
  std::string text;
  absl::StrAppend(&text, game.game ? absl::StrCat("Game ", *game.game, ": ") : "", game.p1,
                  " (first) vs ", game.p2, " (second): ", ResultText(analysis.result),
                  ", scores ", analysis.final_scores[0], "-", analysis.final_scores[1], "\n");
  if (game.start_string != "startpos") absl::StrAppend(&text, "Start: ", game.start_string, "\n");
  absl::StrAppend(
      &text, "Values in points of final margin, the mover's view: '=' exact (solved, ",
      analysis.settings.solve_plies, " plies left or fewer), '~' ",
      SearchDescription(analysis.settings), ". value: the best move's; played: the move's.\n");
  absl::StrAppend(&text, " ply  side  move     value  best     played    loss\n");
  for (const MoveAnalysis& move : analysis.moves) {
    const bool loses = move.loss > 0 && !move.opening;
    absl::StrAppend(
        &text, absl::StrFormat("%4d  %-4s  %-4s  %c %6s  %-4s  %c %6s  %6s%s\n", move.ply,
                               kSideKeys[Index(move.side)], MoveToString(move.move),
                               move.exact ? '=' : '~', Points(move.value), MoveText(move.best),
                               move.exact ? '=' : '~', Points(move.played),
                               absl::StrFormat("%.2f", move.loss / 100.0),
                               move.opening ? "  (opening)" : loses ? "  <" : ""));
  }
  absl::StrAppend(&text, "Summary\n");
  for (int p = 0; p < 2; ++p) {
    const PlayerSummary& player = analysis.players[p];
    absl::StrAppend(&text, absl::StrFormat("  %s (%s): %d moves, %.2f points lost", names[p],
                                           kSideKeys[p], player.moves, player.loss / 100.0));
    for (size_t i = 0; i < player.largest.size(); ++i) {
      const Mistake& mistake = player.largest[i];
      absl::StrAppend(&text, i == 0 ? "; largest: " : ", ",
                      absl::StrFormat("ply %d %s (best %s) %.2f", mistake.ply,
                                      MoveToString(mistake.move), MoveText(mistake.best),
                                      mistake.loss / 100.0));
    }
    absl::StrAppend(&text, "\n");
  }
  if (!analysis.first_exact_ply) {
    absl::StrAppend(&text, "  No position was solved exactly: the result's turning point is unknown.\n");
  } else if (!analysis.decided_ply) {
    absl::StrAppend(&text, "  Exact from ply ", *analysis.first_exact_ply,
                    "; the game did not reach a solved end.\n");
  } else if (*analysis.decided_ply == *analysis.first_exact_ply) {
    absl::StrAppend(&text, "  Exact from ply ", *analysis.first_exact_ply,
                    "; the result was already decided there (perhaps earlier: the solver "
                    "reaches no further back).\n");
  } else {
    absl::StrAppend(&text, "  Exact from ply ", *analysis.first_exact_ply,
                    "; the result was decided from ply ", *analysis.decided_ply,
                    " on (the move before it changed it).\n");
  }
  absl::StrAppend(&text, absl::StrFormat("  Analysed in %.1f s.\n", analysis.seconds));
  return text;
}

JsonValue AnalysisJson(const GameAnalysis& analysis) {
  const GameToAnalyze& game = analysis.game;
  JsonValue json;
  json.Set("game", game.game ? JsonValue(*game.game) : JsonValue(nullptr));
  json.Set("p1", game.p1);
  json.Set("p2", game.p2);
  json.Set("start", game.start_string);
  json.Set("result", ResultText(analysis.result));
  json.Set("final", JsonValue::Array{analysis.final_scores[0], analysis.final_scores[1]});
  JsonValue settings;
  settings.Set("solve_plies", analysis.settings.solve_plies);
  settings.Set("depth", analysis.settings.movetime_ms > 0 ? JsonValue(nullptr)
                                                          : JsonValue(analysis.settings.depth));
  settings.Set("movetime", analysis.settings.movetime_ms > 0
                               ? JsonValue(analysis.settings.movetime_ms)
                               : JsonValue(nullptr));
  json.Set("settings", std::move(settings));
  JsonValue::Array moves;
  for (const MoveAnalysis& move : analysis.moves) {
    JsonValue entry;
    entry.Set("ply", move.ply);
    entry.Set("side", kSideKeys[Index(move.side)]);
    entry.Set("move", MoveToString(move.move));
    entry.Set("best", MoveText(move.best));
    entry.Set("value", move.value);
    entry.Set("played", move.played);
    entry.Set("loss", move.loss);
    entry.Set("exact", move.exact);
    entry.Set("opening", move.opening);
    moves.push_back(std::move(entry));
  }
  json.Set("moves", std::move(moves));
  JsonValue summary;
  for (int p = 0; p < 2; ++p) {
    const PlayerSummary& player = analysis.players[p];
    JsonValue side;
    side.Set("name", p == 0 ? game.p1 : game.p2);
    side.Set("moves", player.moves);
    side.Set("loss", player.loss);
    JsonValue::Array mistakes;
    for (const Mistake& mistake : player.largest) {
      JsonValue entry;
      entry.Set("ply", mistake.ply);
      entry.Set("move", MoveToString(mistake.move));
      entry.Set("best", MoveText(mistake.best));
      entry.Set("loss", mistake.loss);
      mistakes.push_back(std::move(entry));
    }
    side.Set("mistakes", std::move(mistakes));
    summary.Set(std::string(kSideKeys[p]), std::move(side));
  }
  summary.Set("first_exact_ply", OptionalPly(analysis.first_exact_ply));
  summary.Set("decided_ply", OptionalPly(analysis.decided_ply));
  summary.Set("seconds", analysis.seconds);
  json.Set("summary", std::move(summary));
  return json;
}

absl::Status PlotAnalysis(const GameAnalysis& analysis, const std::string& png_path,
                          const std::string& python) {
  absl::StatusOr<std::unique_ptr<ChildProcess>> plotter =
      ChildProcess::Start({python, "-c", std::string(kPlotAnalysisScript), png_path});
  if (!plotter.ok()) return plotter.status();
  absl::Status status = (*plotter)->WriteLine(AnalysisJson(analysis).Serialize());
  (*plotter)->CloseInput();
  const std::optional<int> exit_code = (*plotter)->WaitForExit(absl::Seconds(120));
  if (!status.ok()) return status;
  if (!exit_code || *exit_code != 0) {
    return absl::InternalError(absl::StrCat(
        "plotting ", png_path, " with ", python, " failed (",
        exit_code ? absl::StrCat("exit code ", *exit_code) : "no exit in 120 s",
        "); it needs matplotlib: apt-get install python3-matplotlib"));
  }
  return absl::OkStatus();
}

}  // namespace divercite
