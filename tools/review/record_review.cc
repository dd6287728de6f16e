#include "tools/review/record_review.h"

#include <utility>

#include "tools/records/record_replay.h"

namespace divercite {

absl::StatusOr<GameToAnalyze> GameFromRecord(const GameRecord& record) {
  absl::StatusOr<ReplayedRecord> replayed = ReplayRecord(record);
  if (!replayed.ok()) return replayed.status();
  GameToAnalyze game;
  game.game = record.game;
  game.p1 = record.p1;
  game.p2 = record.p2;
  game.start_string = replayed->start_string;
  game.start = replayed->start;
  game.moves = std::move(replayed->moves);
  game.opening_plies = replayed->opening_plies;
  game.move_ms.assign(game.opening_plies, std::nullopt);
  for (const MoveRecord& move : record.moves) game.move_ms.push_back(move.ms);
  game.time_controls = record.time_controls;
  if (record.termination != Termination::kNormal) {
    game.recorded_result = record.result;
    game.termination = std::string(TerminationText(record.termination));
    if (record.termination == Termination::kTime) {
      game.out_of_time = record.result == GameResult::kSecondWins ? 0 : 1;
    }
  }
  return game;
}

absl::StatusOr<GameAnalysis> ReplayOfRecord(const GameRecord& record) {
  absl::StatusOr<GameToAnalyze> game = GameFromRecord(record);
  if (!game.ok()) return game.status();
  GameAnalysis analysis;
  analysis.replay = true;
  Position position = game->start;
  int value = 0;  // the value of `position` for its side to move
  for (size_t k = 0; k < game->moves.size(); ++k) {
    MoveAnalysis move;
    move.ply = position.Ply();
    move.side = position.SideToMove();
    move.move = move.best = game->moves[k];
    move.opening = static_cast<int>(k) < game->opening_plies;
    if (!move.opening) {
      const MoveRecord& recorded = record.moves[k - game->opening_plies];
      if (recorded.score_cp) {
        value = *recorded.score_cp;
        move.exact = recorded.exact;
      }
    }
    move.value = value;
    if (!move.opening) ++analysis.players[Index(move.side)].moves;
    analysis.moves.push_back(move);
    position.Play(move.move);
    value = -value;
  }
  if (position.IsGameOver()) {
    const Player us = position.SideToMove();
    value = 100 * (position.Score(us) - position.Score(Opponent(us)));
  }
  for (size_t k = 0; k < analysis.moves.size(); ++k) {
    analysis.moves[k].played =
        k + 1 < analysis.moves.size() ? -analysis.moves[k + 1].value : -value;
  }
  analysis.last_value = value;
  analysis.last_exact = position.IsGameOver();
  analysis.final_scores = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
  analysis.result = game->recorded_result.value_or(position.Result());
  analysis.game = *std::move(game);
  return analysis;
}

}  // namespace divercite
