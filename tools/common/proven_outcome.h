// A game's result as an engine proved it in a search, from the searching side's view: a win,
// a draw or a loss under best play, the last-move tie-break included (`info string proven
// win|draw|loss` in the protocol). The match records keep it per move, from the mover's view,
// and the analysis compares it before and after a move. Text: "win", "draw", "loss".
//
// The search's own ProvenResult (search/value.h) is the same idea inside the engine; the
// tools only see the protocol's words, so they keep their own type.
#ifndef DIVERCITE_TOOLS_COMMON_PROVEN_OUTCOME_H_
#define DIVERCITE_TOOLS_COMMON_PROVEN_OUTCOME_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace divercite {

enum class ProvenOutcome { kWin, kDraw, kLoss };

absl::string_view ProvenOutcomeText(ProvenOutcome outcome);
// Errors: "unknown proven result 'X' (expected win, draw or loss)".
absl::StatusOr<ProvenOutcome> ParseProvenOutcome(absl::string_view text);

// The same result from the other side's view: a win is the opponent's loss.
constexpr ProvenOutcome OpponentView(ProvenOutcome outcome) {
  return outcome == ProvenOutcome::kWin    ? ProvenOutcome::kLoss
         : outcome == ProvenOutcome::kLoss ? ProvenOutcome::kWin
                                           : ProvenOutcome::kDraw;
}

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_PROVEN_OUTCOME_H_
