// Game analysis: where a finished (or unfinished) game was won and lost, move by move.
//
// Every position of the game is searched by an engine over the protocol (so any engine that
// speaks it can analyse, and the analysis never shares a process with what it judges). Near
// the end, where the engine's exact solver reaches (`solve_plies` or fewer plies left), the
// values are exact: the final margin under best play, tie-break included. Before that they
// are search values at a fixed depth or move time.
//
// With V(k) the value of position k for its side to move (the value of its best move), the
// move played at ply k is worth -V(k+1) to its mover, and it lost V(k) + V(k+1) points —
// exactly, when both values are exact. A move that is the engine's own choice loses nothing,
// and a search-value loss is never negative (a deeper look at the next position can find
// more than the shallower one before it).
//
// The result (win, draw or loss under best play, the tie-break included) reaches further back
// than the exact margin: an exact value proves it, and beyond the exact range the engine is
// asked to prove it alone (`go prove movetime <ms>`), which costs far less when the side to
// move wins. A move is result-changing when the position before it was a proven win for its
// mover and the position after it is proven not to be (a draw or a loss), or a proven draw
// became a proven loss: the move that gave the result away, as far back as proofs reach.
#ifndef DIVERCITE_TOOLS_ANALYSIS_GAME_ANALYSIS_H_
#define DIVERCITE_TOOLS_ANALYSIS_GAME_ANALYSIS_H_

#include "absl/status/statusor.h"
#include "tools/client/engine_client.h"
#include "tools/review/analysed_game.h"

namespace divercite {

// Starts `engine` if it is not running: once before the games, so that an engine that cannot
// start, or refuses an option (or does not have it), stops the tool before any analysis.
absl::Status StartAnalysisEngine(EngineClient& engine);

// Analyses every move of `game` with `engine` (started and told `ucinewgame` here). Fails on
// an illegal move in the game, or an engine that crashes, stalls or reports no score.
absl::StatusOr<GameAnalysis> AnalyzeGame(const GameToAnalyze& game,
                                         const AnalysisSettings& settings, EngineClient& engine);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_ANALYSIS_GAME_ANALYSIS_H_
