// The one writer of a standings table and of a cross table, for every page that shows one:
// divercite-match -html (tools/match/match_report.cc), and through divercite._core the
// ladder's page (divercite.ladder.report_html) and the arena's standings and tournament pages
// (divercite.arena.pages.tables). It writes the arena's markup, which the arena's style sheet
// (arena.css, which TablePageStart carries into the tools' pages), its sorting script
// (sortable.js: a heading's data-sort) and the tests read:
//
//   <div class="scroll">
//   <table class="standings sortable" id="ID">
//   <thead><tr><th data-sort="number">#</th><th data-sort="text">Team</th><th
//     data-sort="number" title="WHAT IT COUNTS">Elo</th>...</tr></thead>
//   <tbody>
//   <tr class="ROW_CLASS"><td>RANK</td><td><a href="LINK">NAME</a> <span
//     class="MARK-mark">MARK</span></td><td>ELO</td><td>LOW … HIGH</td>...</tr>
//   </tbody>
//   </table>
//   </div>
//
// Every heading but the rank's and the name's carries a title that says what its column
// counts (a reader's tooltip).
// Every text put in is escaped (HtmlEscape). The columns, in this order, those of a group
// only where StandingsColumns asks for it:
//   #, the name, [Version], [Points], Elo, 95 %, Games, Wins, Draws, Losses, [W/L], [Score],
//   [Divercités, Divercités a game, Points scored, Points conceded, Scored / conceded,
//    Scored a game, Conceded a game],
//   [ms/move, Losses on time].
// The W/L and the divercités' group are the course's seeds' table (the Abyss ladder's:
// "W/L", "NbDivercités/Game", "Points marqués", "Points concédés", "Points
// marqués/Concédés", "Points marqués/Game", "Points concédés/Game"), with its numbers' forms:
// ratios and values a game to two decimals, computed here from the counts.
// Numbers: Elo and its interval's ends rounded to the unit (halves away from zero, as
// Django's floatformat), "–" where there is none; points with a decimal only for a half; W/L
// as wins per loss ("3.33"), "∞" without a loss, "–" without a win or a loss; points scored
// per point conceded the same way; values a game "–" without a game; score in % to 0.1;
// ms/move to 0.1.
#ifndef DIVERCITE_TOOLS_COMMON_STANDINGS_TABLE_H_
#define DIVERCITE_TOOLS_COMMON_STANDINGS_TABLE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"

namespace divercite {

// One line of the standings.
struct StandingsRow {
  std::string name;
  std::string link;       // the name's href; empty: the name alone
  std::string mark;       // a label after the name ("house"), of class MARK-mark; empty: none
  std::string row_class;  // the row's class ("team", "house"); empty: none
  int rank = 0;
  std::optional<double> elo;  // none: unrated
  // The ends of Elo's 95 % interval; none (either): unbounded or unrated.
  std::optional<double> elo_low;
  std::optional<double> elo_high;
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  double points = 0;  // 1 a win, ½ a draw
  // The groups' values, read only where their group is shown.
  std::optional<int> version;
  int divercites = 0;      // divercité cities on the games' final boards
  int points_for = 0;      // the games' points scored
  int points_against = 0;  // and conceded
  std::optional<double> ms_per_move;
  int time_losses = 0;
};

// The groups of columns shown beside the ones every table has.
struct StandingsColumns {
  bool version = false;     // Version: the entry's version (the arena's tournaments)
  bool points = false;      // Points
  bool win_ratio = false;   // W/L
  bool score = false;       // Score: points a game, in %
  bool divercites = false;  // divercités and points for and against, totals and a game
  bool clock = false;       // ms/move and losses on time (the match report)
};

struct StandingsTableOptions {
  StandingsColumns columns;
  std::string id;                     // the table's id; empty: none
  std::string name_heading = "Team";  // the name column's heading
  bool sortable = true;               // class "sortable", for a page that loads sortable.js
  std::string empty;                  // the one row's text when there is no line
};

std::string StandingsTableHtml(absl::Span<const StandingsRow> rows,
                               const StandingsTableOptions& options);

// A ratio as the table shows it: `above` per `below` to two decimals ("3.33"), "∞" where
// `below` is 0 and `above` is not, "–" where both are (W/L: RatioText(wins, losses)), for a
// page that shows one outside the table (the arena's versions of a team).
std::string RatioText(int above, int below);

// A cell of a cross table: the row's result against the column's.
struct CrossCell {
  std::string text;  // "1.5/2", "3-1-0"
  std::string note;  // a second line, muted ("+35 ± 80"); empty: none
  std::string link;  // empty: none
};

struct CrossTableOptions {
  std::string id;                     // the table's id; empty: none
  std::string name_heading = "Team";  // the name column's heading
};

// The cross table of `names` (in the standings' order, numbered from 1; a column's heading is
// its row's number, the name in its title): cells[i][j] is row i against column j, none (or
// missing) where they have not played: "–"; the diagonal is blank.
//
//   <div class="scroll">
//   <table class="cross" id="ID">
//   <thead><tr><th>#</th><th>Team</th><th title="NAME">1</th>...</tr></thead>
//   <tbody>
//   <tr><td>1</td><td>NAME</td><td class="self"></td><td><a href="LINK">TEXT</a><br><span
//     class="note">NOTE</span></td>...</tr>
//   ...
std::string CrossTableHtml(absl::Span<const std::string> names,
                           const std::vector<std::vector<std::optional<CrossCell>>>& cells,
                           const CrossTableOptions& options);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_COMMON_STANDINGS_TABLE_H_
