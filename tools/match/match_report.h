// divercite-match -html DIR (and -merge ... -html DIR): the match report, a self-contained
// page (inline CSS and SVG, no script but its data, no network) at DIR/index.html, and a
// replay page per game at DIR/games/game-<N>.html (N the record's "game", from 0), written by
// the review pages' writer (tools/review/review_page.h) from the record alone: the board at
// every ply, the scores the players reported and their clocks; no new analysis.
//
// On the index, in the arena's look (TablePageStart): the standings (points, Bradley-Terry
// Elo and its 95 % interval, W/D/L, score, ms/move, losses on time) and the cross table (W-D-L
// of the row against the column, with the row's Elo difference ± error), both the one
// writer's (tools/common/standings_table.h); for a match or each pairing of a gauntlet, what
// the runner prints (reporter.h, through SummarizeMatch): Elo ± its 95 % error, LOS, draw
// ratio, pentanomial pairs, the SPRT's state; a results chart; each engine's clock use
// (median time per move by ply, the clock left at the end of its games under a tc=B+I
// control, its losses on time); and a link to each game's page.
// Its numbers are also in <script type="application/json" id="report"> (MatchReportJson),
// a contract for tests and programs:
//   {"games": N, "total": T, "tournament": "match"|"roundrobin"|"gauntlet",
//    "engines": [name, ...],                       // the settings' order
//    "standings": [{"name", "wins", "draws", "losses", "points", "games", "elo",
//                   "elo_interval"}, ...],          // best rated first (Bradley-Terry);
//                                                   // the interval null when unbounded
//    "matches": [{"a", "b", "games", "wins", "draws", "losses", "points", "elo", "error95",
//                 "los", "draw_ratio", "model": "pentanomial"|"trinomial",
//                 "pentanomial": [5 counts]|null,
//                 "sprt": {"llr", "lower", "upper", "elo0", "elo1",
//                          "decision": "continue"|"H0"|"H1"}|null}, ...],
//                                                   // engine 0 against the others (not in
//                                                   // a round robin of more than two)
//    "clocks": [{"name", "moves", "median_ms_by_ply": [ms|null x 40], "clock_left_ms":
//                [ms, ...], "time_losses": n}, ...],   // the settings' order
//    "game_list": [{"game", "page", "p1", "p2", "result", "termination", "final"}, ...]}
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_REPORT_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_REPORT_H_

#include <string>

#include "absl/status/status.h"
#include "tools/common/json.h"
#include "tools/match/match_settings.h"
#include "tools/match/scoreboard.h"
#include "tools/records/game_record.h"

namespace divercite {

// The game page's path relative to DIR: games/game-<N>.html.
std::string MatchGamePage(const GameRecord& record);

Json MatchReportJson(const MatchSettings& settings, const FinishedGames& finished, int total_games);
std::string MatchReportHtml(const MatchSettings& settings, const FinishedGames& finished,
                            int total_games);

// Writes into settings.html_dir (created, with games/).
class MatchReportWriter {
 public:
  // `settings` must outlive the writer.
  MatchReportWriter(const MatchSettings& settings, int total_games)
      : settings_(settings), total_games_(total_games) {}

  absl::Status Prepare();
  // The page of `record`.
  absl::Status WriteGame(const GameRecord& record);
  // index.html over `finished`.
  absl::Status WriteIndex(const FinishedGames& finished);
  // Every game's page, then the index.
  absl::Status WriteAll(const FinishedGames& finished);

 private:
  const MatchSettings& settings_;
  const int total_games_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_REPORT_H_
