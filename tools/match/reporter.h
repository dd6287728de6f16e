// What divercite-match prints as a run goes, in the manner of cutechess-cli: a line per
// finished game (and the running score of a match or of the gauntlet's pairing), the
// statistics (Elo with its interval, LOS, the pentanomial counts, the SPRT) of a match, the
// cross table of a round robin, or the first engine's statistics against each opponent and
// in total in a gauntlet, and the notes on resuming from a records file. Every report is
// flushed.
#ifndef DIVERCITE_TOOLS_MATCH_REPORTER_H_
#define DIVERCITE_TOOLS_MATCH_REPORTER_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tools/match/match_settings.h"
#include "tools/match/scoreboard.h"
#include "tools/records/game_record.h"

namespace divercite {

class Reporter {
 public:
  // `settings` must outlive the reporter. `planned_games` is what this run plays of the
  // `total_games` of the schedule (a shard's part; by default all).
  Reporter(const MatchSettings& settings, int total_games, std::ostream& out,
           int planned_games = -1);

  // A shard (-shard K/N) plays `planned_games` of the schedule.
  void Shard();

  // The records file ended in a line cut short, which is dropped.
  void DroppedUnfinishedLine(const std::string& path);
  // A resumed run: `finished` games are already in the records file `path`.
  void Resuming(int finished, const std::string& path);
  // A game could not be appended to the records file `path`.
  void CannotWrite(const std::string& path);

  // "Finished game ..." for `record`, and for a match the score over `finished` (which
  // holds `record`).
  void GameFinished(const GameRecord& record, const FinishedGames& finished);

  // The statistics of a match, the table of a round robin or the tables of a gauntlet, over
  // `finished`.
  void Statistics(const FinishedGames& finished);

  // All the runner prints for `record`, its `newly_finished`-th game (from 1), just finished:
  // the game, then the statistics every -ratinginterval games and after each game of an SPRT.
  void AfterGame(const GameRecord& record, const FinishedGames& finished, int newly_finished);

 private:
  // Engine 0 against `opponent` (a gauntlet's), or against all, named `against`.
  void MatchStatistics(const FinishedGames& finished, std::optional<int> opponent,
                       const std::string& against);
  void GauntletTables(const FinishedGames& finished);
  void TournamentTable(const FinishedGames& finished);

  const MatchSettings& settings_;
  const int total_games_;
  const int planned_games_;
  std::ostream& out_;
};

// The round robin's standings over `finished` (engine i is names[i]) as one line of JSON, best
// rated first, for programs (tools/match/plot_tournament.py draws them):
// {"games": N, "engines": [{"name": "...", "elo": <Bradley-Terry, mean 0>, "points": P,
// "games": G, "score": P/G, "ms_per_move": M}, ...]}. The same numbers as the table above.
void WriteStandingsJson(const FinishedGames& finished, const std::vector<std::string>& names,
                        std::ostream& out);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_REPORTER_H_
