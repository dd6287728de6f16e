// The counts behind a match's or tournament's statistics, from its finished games: the
// two-engine score (games and colour-swapped pairs, from engine 0's view) with its SPRT
// state, and the round-robin cross table. The math itself is in match_stats.h.
#ifndef DIVERCITE_TOOLS_MATCH_SCOREBOARD_H_
#define DIVERCITE_TOOLS_MATCH_SCOREBOARD_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "tools/match/match_stats.h"
#include "tools/records/game_record.h"

namespace divercite {

// The finished games of a run, by game index (so in schedule order).
using FinishedGames = std::map<int, GameRecord>;

// A two-engine match from engine 0's view; in a gauntlet, engine 0 against `opponent` only,
// or against all (nullopt).
struct MatchScore {
  Tally tally;
  Pentanomial pairs{};  // the colour swaps of which both games are finished
  bool paired = false;  // -repeat, with at least one finished pair: the pentanomial view
};
MatchScore ScoreMatch(const FinishedGames& finished, bool repeat,
                      std::optional<int> opponent = std::nullopt);

// The SPRT of `parameters` on `score`, on its pairs when paired, else on its games.
SprtState MatchSprt(const SprtParameters& parameters, const MatchScore& score);

// A round robin of `engines` engines; [i][j] is engine i against engine j.
struct CrossTable {
  std::vector<std::vector<Tally>> tallies;
  std::vector<std::vector<double>> points;
  std::vector<std::vector<int>> games;
  std::vector<std::int64_t> ms;     // each engine's thinking time over all its moves
  std::vector<std::int64_t> moves;  // and its number of moves (the openings' excluded)
};
CrossTable ScoreTournament(const FinishedGames& finished, int engines);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_SCOREBOARD_H_
