// What divercite-match prints as a run goes, in the manner of cutechess-cli: a line per
// finished game (and the running score of a match), the statistics (Elo with its interval,
// LOS, the pentanomial counts, the SPRT) of a match or the cross table of a round robin, and
// the notes on resuming from a records file. Every report is flushed.
#ifndef DIVERCITE_TOOLS_MATCH_REPORTER_H_
#define DIVERCITE_TOOLS_MATCH_REPORTER_H_

#include <ostream>
#include <string>

#include "tools/match/match_settings.h"
#include "tools/match/scoreboard.h"
#include "tools/records/game_record.h"

namespace divercite {

class Reporter {
 public:
  // `settings` must outlive the reporter.
  Reporter(const MatchSettings& settings, int total_games, std::ostream& out);

  // The records file ended in a line cut short, which is dropped.
  void DroppedUnfinishedLine(const std::string& path);
  // A resumed run: `finished` games are already in the records file `path`.
  void Resuming(int finished, const std::string& path);
  // A game could not be appended to the records file `path`.
  void CannotWrite(const std::string& path);

  // "Finished game ..." for `record`, and for a match the score over `finished` (which
  // holds `record`).
  void GameFinished(const GameRecord& record, const FinishedGames& finished);

  // The statistics of a match, or the table of a round robin, over `finished`.
  void Statistics(const FinishedGames& finished);

 private:
  void MatchStatistics(const FinishedGames& finished);
  void TournamentTable(const FinishedGames& finished);

  const MatchSettings& settings_;
  const int total_games_;
  std::ostream& out_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_REPORTER_H_
