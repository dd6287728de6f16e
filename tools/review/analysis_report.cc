#include "tools/review/analysis_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/common/child_process.h"
#include "tools/review/plot_analysis_script.h"

namespace divercite {
namespace {

std::string Points(int centipoints) { return absl::StrFormat("%+.2f", centipoints / 100.0); }

std::string MoveText(Move move) { return move.IsNone() ? "-" : MoveToString(move); }

std::string SearchDescription(const AnalysisSettings& settings) {
  return settings.movetime_ms > 0 ? absl::StrCat("search for ", settings.movetime_ms, " ms")
                                  : absl::StrCat("search to depth ", settings.depth);
}

Json OptionalPly(const std::optional<int>& ply) { return ply ? Json(*ply) : Json(nullptr); }

absl::string_view ProvenText(ProvenResult proven) {
  return proven != ProvenResult::kUnknown ? ProvenResultText(proven) : "-";
}

Json ProvenJson(ProvenResult proven) {
  return proven != ProvenResult::kUnknown ? Json(std::string(ProvenResultText(proven)))
                                          : Json(nullptr);
}

// A line of the engine's (MultiPV), as the JSON's `lines` hold it.
Json LineJson(const AnalysisLine& line) {
  Json json = Json::object();
  json["move"] = MoveToString(line.move);
  json["value"] = line.value;
  json["bound"] = line.bound == ScoreBound::kLower   ? Json("lower")
                  : line.bound == ScoreBound::kUpper ? Json("upper")
                                                     : Json(nullptr);
  json["exact"] = line.exact;
  json["proven"] = ProvenJson(line.proven);
  Json pv = Json::array();
  for (const Move move : line.pv) pv.push_back(MoveToString(move));
  json["pv"] = std::move(pv);
  return json;
}

std::string ProofDescription(const AnalysisSettings& settings) {
  return settings.prove_movetime_ms > 0
             ? absl::StrCat("beyond them `go prove` for ", settings.prove_movetime_ms,
                            " ms, within ", settings.prove_plies, " plies of the end")
             : "no other proofs";
}

}  // namespace

std::string AnalysisText(const GameAnalysis& analysis) {
  const GameToAnalyze& game = analysis.game;
  const std::string names[2] = {game.p1, game.p2};
  std::string text;
  absl::StrAppend(&text, game.game ? absl::StrCat("Game ", *game.game, ": ") : "", game.p1,
                  " (first) vs ", game.p2, " (second): ", GameResultText(analysis.result),
                  ", scores ", analysis.final_scores[0], "-", analysis.final_scores[1], "\n");
  if (game.start_string != "startpos") absl::StrAppend(&text, "Start: ", game.start_string, "\n");
  absl::StrAppend(&text, "Values in points of final margin, the mover's view: '=' exact (solved, ",
                  analysis.settings.solve_plies, " plies left or fewer), '~' ",
                  SearchDescription(analysis.settings),
                  ". value: the best move's; played: the move's.\n");
  absl::StrAppend(&text,
                  "proven: the result proven for the mover before the move ('=' values prove it; ",
                  ProofDescription(analysis.settings),
                  "). '!': result-changing, the move gave a proven result away.\n");
  absl::StrAppend(&text, " ply  side  move     value  best     played    loss  proven\n");
  for (const MoveAnalysis& move : analysis.moves) {
    const bool loses = move.loss > 0 && !move.opening;
    std::string marks = move.opening ? "  (opening)" : loses ? "  <" : "";
    if (move.result_changing) {
      absl::StrAppend(&marks, "  ! result-changing: ", ProvenText(move.proven_before), " -> ",
                      ProvenText(move.proven_after));
    }
    absl::StrAppend(&text,
                    absl::StrFormat("%4d  %-4s  %-4s  %c %6s  %-4s  %c %6s  %6s  %-6s", move.ply,
                                    kPlayerKeys[Index(move.side)], MoveToString(move.move),
                                    move.exact ? '=' : '~', Points(move.value), MoveText(move.best),
                                    move.exact ? '=' : '~', Points(move.played),
                                    absl::StrFormat("%.2f", move.loss / 100.0),
                                    ProvenText(move.proven_before)));
    // No trailing blanks on a line without marks.
    text.erase(text.find_last_not_of(' ') + 1);
    absl::StrAppend(&text, marks, "\n");
  }
  absl::StrAppend(&text, "Summary\n");
  for (int p = 0; p < 2; ++p) {
    const PlayerSummary& player = analysis.players[p];
    absl::StrAppend(&text, absl::StrFormat("  %s (%s): %d moves, %.2f points lost", names[p],
                                           kPlayerKeys[p], player.moves, player.loss / 100.0));
    for (size_t i = 0; i < player.largest.size(); ++i) {
      const Mistake& mistake = player.largest[i];
      absl::StrAppend(
          &text, i == 0 ? "; largest: " : ", ",
          absl::StrFormat("ply %d %s (best %s) %.2f", mistake.ply, MoveToString(mistake.move),
                          MoveText(mistake.best), mistake.loss / 100.0));
    }
    for (size_t i = 0; i < player.result_changes.size(); ++i) {
      const ResultChange& change = player.result_changes[i];
      absl::StrAppend(&text, i == 0 ? "; result-changing: " : ", ",
                      absl::StrFormat("ply %d %s %s -> %s (%s kept the %s)", change.ply,
                                      MoveToString(change.move), ProvenResultText(change.before),
                                      ProvenResultText(change.after), MoveText(change.best),
                                      ProvenResultText(change.before)));
    }
    absl::StrAppend(&text, "\n");
  }
  if (!analysis.first_exact_ply) {
    absl::StrAppend(&text,
                    "  No position was solved exactly: the result's turning point is unknown.\n");
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
  if (!analysis.first_proven_ply) {
    absl::StrAppend(&text, "  No result was proven.\n");
  } else if (!analysis.proven_ply) {
    absl::StrAppend(&text, "  Proofs reach back to ply ", *analysis.first_proven_ply,
                    "; the last position has none.\n");
  } else {
    absl::StrAppend(&text, "  Result proven from ply ", *analysis.proven_ply,
                    " on; proofs reach back to ply ", *analysis.first_proven_ply, ".\n");
  }
  absl::StrAppend(&text, absl::StrFormat("  Analysed in %.1f s.\n", analysis.seconds));
  return text;
}

Json AnalysisJson(const GameAnalysis& analysis) {
  const GameToAnalyze& game = analysis.game;
  Json json = Json::object();
  json["game"] = game.game ? Json(*game.game) : Json(nullptr);
  json["p1"] = game.p1;
  json["p2"] = game.p2;
  json["start"] = game.start_string;
  json["result"] = std::string(GameResultText(analysis.result));
  // How a game that did not end on the board ended (its record's); absent for one that did.
  if (!game.termination.empty()) json["termination"] = game.termination;
  json["final"] = Json::array({analysis.final_scores[0], analysis.final_scores[1]});
  Json settings = Json::object();
  settings["solve_plies"] = analysis.settings.solve_plies;
  settings["depth"] =
      analysis.settings.movetime_ms > 0 ? Json(nullptr) : Json(analysis.settings.depth);
  settings["movetime"] =
      analysis.settings.movetime_ms > 0 ? Json(analysis.settings.movetime_ms) : Json(nullptr);
  settings["prove_plies"] = analysis.settings.prove_plies;
  settings["prove_movetime"] = analysis.settings.prove_movetime_ms > 0
                                   ? Json(analysis.settings.prove_movetime_ms)
                                   : Json(nullptr);
  if (analysis.settings.multipv > 1) settings["multipv"] = analysis.settings.multipv;
  json["settings"] = std::move(settings);
  Json moves = Json::array();
  for (const MoveAnalysis& move : analysis.moves) {
    Json entry = Json::object();
    entry["ply"] = move.ply;
    entry["side"] = std::string(kPlayerKeys[Index(move.side)]);
    entry["move"] = MoveToString(move.move);
    entry["best"] = MoveText(move.best);
    entry["value"] = move.value;
    entry["played"] = move.played;
    entry["loss"] = move.loss;
    entry["exact"] = move.exact;
    entry["opening"] = move.opening;
    entry["proven_before"] = ProvenJson(move.proven_before);
    entry["proven_after"] = ProvenJson(move.proven_after);
    entry["result_changing"] = move.result_changing;
    if (!move.lines.empty()) {
      Json lines = Json::array();
      for (const AnalysisLine& line : move.lines) lines.push_back(LineJson(line));
      entry["lines"] = std::move(lines);
    }
    moves.push_back(std::move(entry));
  }
  json["moves"] = std::move(moves);
  Json summary = Json::object();
  for (int p = 0; p < 2; ++p) {
    const PlayerSummary& player = analysis.players[p];
    Json side = Json::object();
    side["name"] = p == 0 ? game.p1 : game.p2;
    side["moves"] = player.moves;
    side["loss"] = player.loss;
    Json mistakes = Json::array();
    for (const Mistake& mistake : player.largest) {
      Json entry = Json::object();
      entry["ply"] = mistake.ply;
      entry["move"] = MoveToString(mistake.move);
      entry["best"] = MoveText(mistake.best);
      entry["loss"] = mistake.loss;
      mistakes.push_back(std::move(entry));
    }
    side["mistakes"] = std::move(mistakes);
    Json changes = Json::array();
    for (const ResultChange& change : player.result_changes) {
      Json entry = Json::object();
      entry["ply"] = change.ply;
      entry["move"] = MoveToString(change.move);
      entry["best"] = MoveText(change.best);
      entry["before"] = std::string(ProvenResultText(change.before));
      entry["after"] = std::string(ProvenResultText(change.after));
      changes.push_back(std::move(entry));
    }
    side["result_changing"] = std::move(changes);
    summary[std::string(kPlayerKeys[p])] = std::move(side);
  }
  summary["first_exact_ply"] = OptionalPly(analysis.first_exact_ply);
  summary["decided_ply"] = OptionalPly(analysis.decided_ply);
  summary["first_proven_ply"] = OptionalPly(analysis.first_proven_ply);
  summary["proven_ply"] = OptionalPly(analysis.proven_ply);
  summary["seconds"] = analysis.seconds;
  json["summary"] = std::move(summary);
  return json;
}

absl::Status PlotAnalysis(const GameAnalysis& analysis, const std::string& png_path,
                          const std::string& python) {
  absl::StatusOr<std::unique_ptr<ChildProcess>> plotter =
      ChildProcess::Start({python, "-c", std::string(kPlotAnalysisScript), png_path});
  if (!plotter.ok()) return plotter.status();
  absl::Status status = (*plotter)->WriteLine(DumpJson(AnalysisJson(analysis)));
  (*plotter)->CloseInput();
  const std::optional<int> exit_code = (*plotter)->WaitForExit(absl::Seconds(120));
  if (!status.ok()) return status;
  if (!exit_code || *exit_code != 0) {
    return absl::InternalError(
        absl::StrCat("plotting ", png_path, " with ", python, " failed (",
                     exit_code ? absl::StrCat("exit code ", *exit_code) : "no exit in 120 s",
                     "); it needs matplotlib: apt-get install python3-matplotlib"));
  }
  return absl::OkStatus();
}

}  // namespace divercite
