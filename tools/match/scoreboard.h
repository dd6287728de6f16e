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

// What the runner prints of a two-engine score (reporter.h) and the match report shows
// (match_report.h): the Elo estimate (on the pairs when paired), the games' view (its draw
// ratio), and the SPRT's state when there is one.
struct MatchSummary {
  MatchScore score;
  EloEstimate elo;
  EloEstimate games_view;
  std::optional<SprtState> sprt;
};
MatchSummary SummarizeMatch(const FinishedGames& finished, bool repeat, std::optional<int> opponent,
                            const std::optional<SprtParameters>& sprt);

// A round robin of `engines` engines; [i][j] is engine i against engine j.
struct CrossTable {
  std::vector<std::vector<Tally>> tallies;
  std::vector<std::vector<double>> points;
  std::vector<std::vector<int>> games;
  std::vector<std::int64_t> ms;     // each engine's thinking time over all its moves
  std::vector<std::int64_t> moves;  // and its number of moves (the openings' excluded)
};
CrossTable ScoreTournament(const FinishedGames& finished, int engines);
// Engine i's mean thinking time per move (0 without moves).
double MsPerMove(const CrossTable& table, size_t i);

// A round robin's cross table, its Bradley-Terry ratings with their intervals and the engines
// best rated first.
struct Standings {
  CrossTable table;
  std::vector<double> ratings;
  std::vector<double> intervals;  // the ratings' 95 % half-widths
  std::vector<size_t> order;
};
Standings StandTournament(const FinishedGames& finished, size_t engines);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_SCOREBOARD_H_
