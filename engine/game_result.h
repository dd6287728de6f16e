// A game's result, the one type for each view of it: from the first player's view
// (GameResult: the rules' Position::Result(), a record's "1-0"), and from one side's view as a
// search proves it (ProvenResult: the search's, `info string proven win` in the protocol, a
// record's move, the analysis), with their words.
#ifndef DIVERCITE_ENGINE_GAME_RESULT_H_
#define DIVERCITE_ENGINE_GAME_RESULT_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "engine/enum_names.h"

namespace divercite {

// How the game ended, from the first player's view; kOngoing until the board is full.
enum class GameResult : std::uint8_t { kOngoing, kFirstWins, kSecondWins, kDraw };

// A result as game records write it: "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
inline constexpr EnumName<GameResult> kGameResultNames[] = {{GameResult::kFirstWins, "1-0"},
                                                            {GameResult::kSecondWins, "0-1"},
                                                            {GameResult::kDraw, "1/2-1/2"},
                                                            {GameResult::kOngoing, "*"}};
static_assert(NamesAreDistinct(kGameResultNames));

constexpr absl::string_view GameResultText(GameResult result) {
  return NameOf(kGameResultNames, result);
}

// What a search proved of the game's result, from one side's view (the side to move's, a
// move's mover's): a win, a draw or a loss under best play, the last-move tie-break
// included; kUnknown while nothing is proven.
enum class ProvenResult : std::uint8_t { kUnknown, kLoss, kDraw, kWin };

// A proven result's word: "win", "draw", "loss" (`info string proven win|draw|loss`, a
// record's "proven"). kUnknown has none: nothing proven is said by saying nothing.
inline constexpr EnumName<ProvenResult> kProvenResultNames[] = {
    {ProvenResult::kWin, "win"}, {ProvenResult::kDraw, "draw"}, {ProvenResult::kLoss, "loss"}};
static_assert(NamesAreDistinct(kProvenResultNames));

constexpr absl::string_view ProvenResultText(ProvenResult proven) {
  return NameOf(kProvenResultNames, proven);
}

// The same result from the other side's view: a win is the opponent's loss.
constexpr ProvenResult OpponentView(ProvenResult proven) {
  return proven == ProvenResult::kWin    ? ProvenResult::kLoss
         : proven == ProvenResult::kLoss ? ProvenResult::kWin
                                         : proven;
}

}  // namespace divercite

#endif  // DIVERCITE_ENGINE_GAME_RESULT_H_
