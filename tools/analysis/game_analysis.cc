#include "tools/analysis/game_analysis.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"

namespace divercite {
namespace {

constexpr absl::Duration kStartTimeout = absl::Seconds(30);
// The search limits (depth, move time, the solver's reach) bound every answer; this only
// catches an engine that never answers.
constexpr absl::Duration kAnswerTimeout = absl::Hours(24);
constexpr int kLargestMistakes = 3;

// What the engine (or the rules, for a finished game) says of one position.
struct PositionValue {
  int value = 0;  // side to move's view
  Move best;      // None when the game is over
  bool exact = false;
  ProvenResult proven = ProvenResult::kUnknown;  // side to move's view
  // A move that keeps the proven result: the proof's, or the best move of a value that
  // proves it (a depth-limited search's best move may not keep a proven win).
  Move keeps;
  std::vector<AnalysisLine> lines;  // with settings.multipv > 1
};

// The engine's lines as moves, each checked legal along its pv.
absl::StatusOr<std::vector<AnalysisLine>> LinesOf(const EngineReply& reply,
                                                  const Position& position) {
  std::vector<AnalysisLine> lines;
  for (const EngineLine& line : reply.lines) {
    AnalysisLine kept{Move::None(), line.score_cp, line.score_bound, line.exact, line.proven, {}};
    Position along = position;
    for (const std::string& text : line.pv) {
      absl::StatusOr<Move> move = ParseMove(text);
      const absl::Status legal = move.ok() ? along.CheckLegal(*move) : move.status();
      if (!legal.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", lines.size() + 1, ": '", text, "': ", legal.message()));
      }
      along.Play(*move);
      kept.pv.push_back(*move);
    }
    if (kept.pv.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("line ", lines.size() + 1, " has no pv"));
    }
    kept.move = kept.pv.front();
    lines.push_back(std::move(kept));
  }
  return lines;
}

// The result an exact value means: exact values are whole points, the tie-break included.
ProvenResult ResultOfExactValue(int value) {
  return value > 0 ? ProvenResult::kWin : value == 0 ? ProvenResult::kDraw : ProvenResult::kLoss;
}

// Better proven results for the side whose view they are in rank higher.
int Rank(ProvenResult proven) {
  return proven == ProvenResult::kWin ? 2 : proven == ProvenResult::kDraw ? 1 : 0;
}

ProvenResult FirstPlayerView(const Position& position, ProvenResult proven) {
  return position.SideToMove() == Player::kFirst ? proven : OpponentView(proven);
}

std::string PositionLine(const GameToAnalyze& game, size_t moves_played) {
  std::string line = absl::StrCat("position ", game.start_string);
  if (moves_played > 0) {
    absl::StrAppend(
        &line, " moves ",
        absl::StrJoin(game.moves.begin(), game.moves.begin() + moves_played, " ",
                      [](std::string* out, Move m) { absl::StrAppend(out, MoveToString(m)); }));
  }
  return line;
}

std::string GoLine(const Position& position, const AnalysisSettings& settings) {
  if (position.PliesLeft() <= settings.solve_plies) return "go depth 40";
  // `depth 40` keeps a value a value: a bare `go movetime` near the end may stop at the
  // result's proof, whose score is only a bound (`score cp 100 lowerbound`); the results are
  // proved apart (ProveResults).
  if (settings.movetime_ms > 0) {
    return absl::StrCat("go depth 40 movetime ", settings.movetime_ms);
  }
  return absl::StrCat("go depth ", settings.depth);
}

absl::StatusOr<PositionValue> ValueOf(const GameToAnalyze& game, size_t moves_played,
                                      const Position& position, const AnalysisSettings& settings,
                                      EngineClient& engine) {
  if (position.IsGameOver()) {
    const Player us = position.SideToMove();
    const int value = 100 * (position.Score(us) - position.Score(Opponent(us)));
    return PositionValue{value, Move::None(), true, ResultOfExactValue(value), Move::None(), {}};
  }
  const auto where = [&] { return absl::StrCat("ply ", position.Ply(), ": "); };
  absl::StatusOr<EngineReply> reply =
      engine.Go(PositionLine(game, moves_played), GoLine(position, settings), kAnswerTimeout);
  if (!reply.ok())
    return absl::Status(reply.status().code(), where() + std::string(reply.status().message()));
  absl::StatusOr<Move> best = ParseMove(reply->bestmove);
  const absl::Status legal = best.ok() ? position.CheckLegal(*best) : best.status();
  if (!legal.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(where(), engine.config().name, " answered '",
                                                   reply->bestmove, "': ", legal.message()));
  }
  if (!reply->score_cp) {
    return absl::InvalidArgumentError(
        absl::StrCat(where(), engine.config().name, " reported no score"));
  }
  // An exact value proves the result; so may an engine's search that stopped at a proof.
  const ProvenResult proven = reply->exact ? ResultOfExactValue(*reply->score_cp) : reply->proven;
  PositionValue value{*reply->score_cp,
                      *best,
                      reply->exact,
                      proven,
                      proven != ProvenResult::kUnknown ? *best : Move::None(),
                      {}};
  if (settings.multipv > 1) {
    absl::StatusOr<std::vector<AnalysisLine>> lines = LinesOf(*reply, position);
    if (!lines.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where(), engine.config().name, ": ", lines.status().message()));
    }
    value.lines = *std::move(lines);
  }
  return value;
}

// What a proof found: the result (kUnknown if it found none in its time) and its move.
struct Proof {
  ProvenResult proven = ProvenResult::kUnknown;
  Move keeps;
};

// The result the engine proves within `settings.prove_movetime_ms`.
absl::StatusOr<Proof> ProofOf(const GameToAnalyze& game, size_t moves_played,
                              const Position& position, const AnalysisSettings& settings,
                              EngineClient& engine) {
  absl::StatusOr<EngineReply> reply =
      engine.Go(PositionLine(game, moves_played),
                absl::StrCat("go prove movetime ", settings.prove_movetime_ms), kAnswerTimeout);
  if (!reply.ok()) {
    return absl::Status(reply.status().code(), absl::StrCat("ply ", position.Ply(),
                                                            ": proof: ", reply.status().message()));
  }
  if (reply->proven == ProvenResult::kUnknown) return Proof{};
  absl::StatusOr<Move> keeps = ParseMove(reply->bestmove);
  const absl::Status legal = keeps.ok() ? position.CheckLegal(*keeps) : keeps.status();
  if (!legal.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("ply ", position.Ply(),
                                                   ": proof: ", engine.config().name, " answered '",
                                                   reply->bestmove, "': ", legal.message()));
  }
  return Proof{reply->proven, *keeps};
}

// Proofs beyond the exact range, from its edge back (the table then holds the later
// positions' proofs), until two positions in a row, one per side, find none: further back
// they cost more still.
absl::Status ProveResults(const GameToAnalyze& game, const std::vector<Position>& positions,
                          const AnalysisSettings& settings, EngineClient& engine,
                          std::vector<PositionValue>& values) {
  if (settings.prove_movetime_ms <= 0) return absl::OkStatus();
  int unproven_in_a_row = 0;
  for (size_t k = positions.size(); k-- > 0 && unproven_in_a_row < 2;) {
    if (values[k].proven != ProvenResult::kUnknown) {  // exact, or proven by its own search
      unproven_in_a_row = 0;
      continue;
    }
    if (positions[k].PliesLeft() > settings.prove_plies) break;
    absl::StatusOr<Proof> proof = ProofOf(game, k, positions[k], settings, engine);
    if (!proof.ok()) return proof.status();
    values[k].proven = proof->proven;
    values[k].keeps = proof->keeps;
    unproven_in_a_row = proof->proven != ProvenResult::kUnknown ? 0 : unproven_in_a_row + 1;
  }
  return absl::OkStatus();
}

int FirstPlayerView(const Position& position, int value) {
  return position.SideToMove() == Player::kFirst ? value : -value;
}

int Sign(int x) { return (x > 0) - (x < 0); }

void Summarize(GameAnalysis& analysis) {
  for (const MoveAnalysis& move : analysis.moves) {
    if (move.opening) continue;
    PlayerSummary& player = analysis.players[Index(move.side)];
    ++player.moves;
    player.loss += move.loss;
    if (move.loss > 0) player.largest.push_back({move.ply, move.move, move.best, move.loss});
    if (move.result_changing) {
      player.result_changes.push_back(
          {move.ply, move.move, move.keeps, move.proven_before, move.proven_after});
    }
  }
  for (PlayerSummary& player : analysis.players) {
    std::stable_sort(player.largest.begin(), player.largest.end(),
                     [](const Mistake& a, const Mistake& b) { return a.loss > b.loss; });
    if (player.largest.size() > kLargestMistakes) player.largest.resize(kLargestMistakes);
  }
}

}  // namespace

absl::Status StartAnalysisEngine(EngineClient& engine) {
  return engine.EnsureStarted(kStartTimeout);
}

absl::StatusOr<GameAnalysis> AnalyzeGame(const GameToAnalyze& game,
                                         const AnalysisSettings& settings, EngineClient& engine) {
  const absl::Time began = absl::Now();
  std::vector<Position> positions = {game.start};
  for (size_t k = 0; k < game.moves.size(); ++k) {
    const Move move = game.moves[k];
    if (const absl::Status legal = positions.back().CheckLegal(move); !legal.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", k + 1, " (", MoveToString(move), "): ", legal.message()));
    }
    positions.push_back(positions.back());
    positions.back().Play(move);
  }
  if (absl::Status status = StartAnalysisEngine(engine); !status.ok()) return status;
  if (absl::Status status = engine.NewGame(kStartTimeout); !status.ok()) return status;

  std::vector<PositionValue> values;
  for (size_t k = 0; k < positions.size(); ++k) {
    absl::StatusOr<PositionValue> value = ValueOf(game, k, positions[k], settings, engine);
    if (!value.ok()) return value.status();
    values.push_back(*value);
  }
  if (absl::Status status = ProveResults(game, positions, settings, engine, values); !status.ok()) {
    return status;
  }

  GameAnalysis analysis;
  analysis.game = game;
  analysis.settings = settings;
  for (size_t k = 0; k < game.moves.size(); ++k) {
    MoveAnalysis move;
    move.ply = positions[k].Ply();
    move.side = positions[k].SideToMove();
    move.move = game.moves[k];
    move.best = values[k].best;
    move.value = values[k].value;
    move.played = -values[k + 1].value;
    move.loss = move.move == move.best ? 0 : std::max(0, move.value - move.played);
    move.exact = values[k].exact && values[k + 1].exact;
    move.opening = static_cast<int>(k) < game.opening_plies;
    move.proven_before = values[k].proven;
    move.keeps = values[k].keeps;
    move.lines = values[k].lines;
    move.proven_after = OpponentView(values[k + 1].proven);
    move.result_changing = move.proven_before != ProvenResult::kUnknown &&
                           move.proven_after != ProvenResult::kUnknown &&
                           Rank(move.proven_after) < Rank(move.proven_before);
    analysis.moves.push_back(move);
  }
  const Position& last = positions.back();
  analysis.last_value = values.back().value;
  analysis.last_exact = values.back().exact;
  analysis.final_scores = {last.Score(Player::kFirst), last.Score(Player::kSecond)};
  analysis.result = game.recorded_result.value_or(last.Result());

  for (size_t k = 0; k < positions.size(); ++k) {
    if (values[k].exact) {
      analysis.first_exact_ply = positions[k].Ply();
      break;
    }
  }
  if (values.back().exact) {
    // Walk back from the end while the exact values agree with the final result.
    const int result = Sign(FirstPlayerView(last, values.back().value));
    for (size_t k = positions.size(); k-- > 0;) {
      if (!values[k].exact || Sign(FirstPlayerView(positions[k], values[k].value)) != result) {
        break;
      }
      analysis.decided_ply = positions[k].Ply();
    }
  }
  for (size_t k = 0; k < positions.size(); ++k) {
    if (values[k].proven != ProvenResult::kUnknown) {
      analysis.first_proven_ply = positions[k].Ply();
      break;
    }
  }
  if (values.back().proven != ProvenResult::kUnknown) {
    // Walk back from the end while the proofs agree with the last one; a position without a
    // proof (its proof did not fit its time) neither agrees nor stops the walk.
    const ProvenResult result = FirstPlayerView(last, values.back().proven);
    for (size_t k = positions.size(); k-- > 0;) {
      if (values[k].proven == ProvenResult::kUnknown) continue;
      if (FirstPlayerView(positions[k], values[k].proven) != result) break;
      analysis.proven_ply = positions[k].Ply();
    }
  }
  Summarize(analysis);
  analysis.seconds = absl::ToDoubleSeconds(absl::Now() - began);
  return analysis;
}

}  // namespace divercite
