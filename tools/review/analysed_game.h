// An analysed game, as the analysis (tools/analysis/game_analysis.h, which says what the
// values mean) makes it and the reports and review pages show it; a record's replay
// (record_review.h) fills the same structure with the players' own scores.
#ifndef DIVERCITE_TOOLS_REVIEW_ANALYSED_GAME_H_
#define DIVERCITE_TOOLS_REVIEW_ANALYSED_GAME_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/game_result.h"
#include "engine/move.h"
#include "engine/position.h"
#include "tools/client/engine_reply.h"

namespace divercite {

// A game to analyse: a start and the moves played from it.
struct GameToAnalyze {
  std::optional<int> game;  // its number in a records file, when it came from one
  std::string p1 = "first player", p2 = "second player";
  std::string start_string = "startpos";  // as in `position <start_string> moves ...`
  Position start = Position::Start();
  std::vector<Move> moves;
  int opening_plies = 0;  // the first moves were an opening, not the players' choices
  // From a match record: each move's time in ms (none for the opening's moves), parallel to
  // `moves`, and each side's time control as the record writes it ("tc=10+0.1", "tc=inf",
  // "st=1", ...). Empty for the other sources, which keep no times.
  std::vector<std::optional<std::int64_t>> move_ms;
  std::array<std::string, 2> time_controls;
  // From a match record of a game that did not end on the board (a player lost it by a
  // fault, or it was cut): its result and how it ended ("time", "crash", ...; never the
  // reason, which quotes the engines), and who ran out of time (0 or 1) for a time loss. The
  // analysis claims no board result for it, and its page shows that clock at zero.
  std::optional<GameResult> recorded_result;
  std::string termination;
  std::optional<int> out_of_time;
};

struct AnalysisSettings {
  // Positions with at most this many plies left are solved exactly (`go depth 40`).
  int solve_plies = 14;
  // Earlier positions: `go depth <depth>`, or `go movetime <movetime_ms>` when that is set.
  int depth = 8;
  std::int64_t movetime_ms = 0;
  // Beyond the exact range, the result of the positions with at most `prove_plies` plies left
  // is proved (`go prove movetime <prove_movetime_ms>`), walking back from the exact range and
  // stopping at two positions in a row without a proof: one per side to move, so further back
  // (where proofs cost more) is not tried. prove_movetime_ms 0: no proofs but exact values.
  int prove_plies = 24;
  std::int64_t prove_movetime_ms = 1000;
  // The engine's best lines kept per position (it must have the option MultiPV, which the
  // caller sets to this; analyze_main does when it is above 1). 1: the best move alone.
  int multipv = 1;
};

// One of the engine's best lines in a position (MultiPV), the side to move's view.
struct AnalysisLine {
  Move move;      // the line's first move
  int value = 0;  // centipoints
  ScoreBound bound = ScoreBound::kNone;
  bool exact = false;
  ProvenResult proven = ProvenResult::kUnknown;
  std::vector<Move> pv;  // legal from the position, starts with `move`
};

struct MoveAnalysis {
  int ply = 0;  // pieces on the board before the move (0 for the game's first move)
  Player side = Player::kFirst;
  Move move;
  Move best;             // the engine's choice in the position before the move
  int value = 0;         // V(k): centipoints of final margin, the mover's view, best play
  int played = 0;        // -V(k+1): what the move played is worth, the mover's view
  int loss = 0;          // centipoints the move lost, >= 0
  bool exact = false;    // value, played and loss are exact
  bool opening = false;  // part of the opening: not counted against its player
  // The proven result of the position before the move and of the one after it, both from
  // the mover's view; kUnknown where no proof (nor exact value) was found.
  ProvenResult proven_before = ProvenResult::kUnknown, proven_after = ProvenResult::kUnknown;
  // A move that keeps proven_before: the proof's (beyond the exact range), else `best`;
  // None without a proof.
  Move keeps;
  // The engine's lines in the position before the move, best first, when it was asked for
  // several (settings.multipv > 1); empty otherwise.
  std::vector<AnalysisLine> lines;
  // Both proven, and the move made the result worse for its mover: a win to a draw or a
  // loss, a draw to a loss.
  bool result_changing = false;
};

struct Mistake {
  int ply = 0;
  Move move, best;
  int loss = 0;
};

// A result-changing move: the result its mover had (proven), a move that kept it, and what
// the move played left.
struct ResultChange {
  int ply = 0;
  Move move, best;  // best: a move that kept the result
  ProvenResult before = ProvenResult::kWin, after = ProvenResult::kDraw;
};

struct PlayerSummary {
  int moves = 0;                 // moves of the player's own choice (opening excluded)
  int loss = 0;                  // centipoints lost over them
  std::vector<Mistake> largest;  // the largest losses, largest first (at most 3, all > 0)
  std::vector<ResultChange> result_changes;  // its result-changing moves, in order
};

struct GameAnalysis {
  GameToAnalyze game;
  AnalysisSettings settings;
  std::vector<MoveAnalysis> moves;
  // The value of the position after the last move, its side to move's view (the final margin
  // when the game is over).
  int last_value = 0;
  bool last_exact = false;
  std::array<int, 2> final_scores{};  // the board's scores after the last move
  GameResult result = GameResult::kOngoing;
  std::array<PlayerSummary, 2> players;
  // The first ply whose position has an exact value, if any.
  std::optional<int> first_exact_ply;
  // The first ply from which every exact value gives the game's final result (win, draw or
  // loss for the first player). When it equals first_exact_ply the result may have been
  // decided earlier, where the solver does not reach.
  std::optional<int> decided_ply;
  // The first ply whose position has a proven result (exact values included), if any: how
  // far back the proofs reached.
  std::optional<int> first_proven_ply;
  // The first ply from which the result was proven: its position's proven result is the
  // game's (the last position's, first player's view), and so is every later one that has
  // a proof. None when the last position has none.
  std::optional<int> proven_ply;
  double seconds = 0;  // wall time of the analysis
  // A replay of a record (ReplayOfRecord, record_review.h), not an analysis: the values are
  // the scores the players reported, every move its mover's own best, no loss, no proof.
  bool replay = false;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_REVIEW_ANALYSED_GAME_H_
