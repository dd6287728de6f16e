#include "tools/common/standings_table.h"

#include <array>
#include <cmath>
#include <iterator>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "tools/common/html.h"

namespace divercite {
namespace {

constexpr absl::string_view kNone = "–";

struct Heading {
  absl::string_view text;
  absl::string_view sort;   // sortable.js: how the column's cells compare
  absl::string_view title;  // what the column counts; empty: none (the rank, the name)
};

// Rounded to the unit, halves away from zero (Django's floatformat:0); never "-0".
std::string Whole(double value) { return absl::StrFormat("%.0f", std::round(value) + 0.0); }

std::string Whole(const std::optional<double>& value) {
  return value ? Whole(*value) : std::string(kNone);
}

// `value` to two decimals (the seeds' table's form), "–" for none.
std::string TwoDecimals(const std::optional<double>& value) {
  return value ? absl::StrFormat("%.2f", *value) : std::string(kNone);
}

// `part` a game; none without a game.
std::optional<double> PerGame(int part, int games) {
  if (games == 0) return std::nullopt;
  return static_cast<double>(part) / games;
}

// 2 or 2.5 (Django's floatformat:"-1").
std::string Points(double points) {
  return points == std::floor(points) ? absl::StrFormat("%.0f", points + 0.0)
                                      : absl::StrFormat("%.1f", points);
}

std::string Interval(const StandingsRow& row) {
  if (!row.elo || !row.elo_low || !row.elo_high) return std::string(kNone);
  return absl::StrCat(Whole(*row.elo_low), " … ", Whole(*row.elo_high));
}

std::vector<Heading> Headings(const StandingsTableOptions& options) {
  const StandingsColumns& shown = options.columns;
  std::vector<Heading> headings = {{"#", "number", ""}, {options.name_heading, "text", ""}};
  if (shown.version) headings.push_back({"Version", "number", "The version that plays"});
  if (shown.points) headings.push_back({"Points", "number", "1 a win, ½ a draw"});
  const Heading every[] = {{"Elo", "number", "Bradley-Terry Elo over the games"},
                           {"95 %", "number", "The Elo's 95 % interval (– where unbounded)"},
                           {"Games", "number", "Games played"},
                           {"Wins", "number", "Games won"},
                           {"Draws", "number", "Games drawn"},
                           {"Losses", "number", "Games lost"}};
  headings.insert(headings.end(), std::begin(every), std::end(every));
  if (shown.win_ratio) {
    headings.push_back({"W/L", "number", "Wins per loss (∞ without a loss)"});
  }
  if (shown.score) headings.push_back({"Score", "number", "Points a game, in %"});
  if (shown.divercites) {
    const Heading seeds[] = {
        {"Divercités", "number", "Divercité cities on the games' final boards"},
        {"Divercités a game", "number", "Divercité cities a game"},
        {"Points scored", "number", "The games' points scored, all games"},
        {"Points conceded", "number", "The games' points conceded, all games"},
        {"Scored / conceded", "number", "Points scored per point conceded"},
        {"Scored a game", "number", "Points scored a game"},
        {"Conceded a game", "number", "Points conceded a game"}};
    headings.insert(headings.end(), std::begin(seeds), std::end(seeds));
  }
  if (shown.clock) {
    headings.push_back({"ms/move", "number", "Milliseconds a move, on average"});
    headings.push_back({"Losses on time", "number", "Games lost on time"});
  }
  return headings;
}

std::string NameCell(const StandingsRow& row) {
  std::string cell = row.link.empty() ? HtmlEscape(row.name)
                                      : absl::StrCat("<a href=\"", HtmlEscape(row.link), "\">",
                                                     HtmlEscape(row.name), "</a>");
  if (!row.mark.empty()) {
    absl::StrAppend(&cell, " <span class=\"", HtmlEscape(row.mark), "-mark\">",
                    HtmlEscape(row.mark), "</span>");
  }
  return cell;
}

std::vector<std::string> Cells(const StandingsRow& row, const StandingsColumns& shown) {
  std::vector<std::string> cells = {absl::StrCat(row.rank), NameCell(row)};
  if (shown.version) {
    cells.push_back(row.version ? absl::StrCat(*row.version) : std::string(kNone));
  }
  if (shown.points) cells.push_back(Points(row.points));
  for (std::string& cell : std::array<std::string, 6>{
           Whole(row.elo), Interval(row), absl::StrCat(row.games), absl::StrCat(row.wins),
           absl::StrCat(row.draws), absl::StrCat(row.losses)}) {
    cells.push_back(std::move(cell));
  }
  if (shown.win_ratio) cells.push_back(RatioText(row.wins, row.losses));
  if (shown.score) {
    cells.push_back(row.games ? absl::StrFormat("%.1f%%", 100 * row.points / row.games)
                              : std::string(kNone));
  }
  if (shown.divercites) {
    for (std::string& cell : std::array<std::string, 7>{
             absl::StrCat(row.divercites), TwoDecimals(PerGame(row.divercites, row.games)),
             absl::StrCat(row.points_for), absl::StrCat(row.points_against),
             RatioText(row.points_for, row.points_against),
             TwoDecimals(PerGame(row.points_for, row.games)),
             TwoDecimals(PerGame(row.points_against, row.games))}) {
      cells.push_back(std::move(cell));
    }
  }
  if (shown.clock) {
    cells.push_back(row.ms_per_move ? absl::StrFormat("%.1f", *row.ms_per_move)
                                    : std::string(kNone));
    cells.push_back(absl::StrCat(row.time_losses));
  }
  return cells;
}

std::string TableStart(absl::string_view classes, absl::string_view id) {
  return absl::StrCat("<div class=\"scroll\">\n<table class=\"", classes, "\"",
                      id.empty() ? "" : absl::StrCat(" id=\"", HtmlEscape(id), "\""), ">\n");
}

constexpr absl::string_view kTableEnd = "</tbody>\n</table>\n</div>\n";

}  // namespace

std::string RatioText(int above, int below) {
  if (below == 0) return std::string(above ? "∞" : kNone);
  return TwoDecimals(static_cast<double>(above) / below);
}

std::string StandingsTableHtml(absl::Span<const StandingsRow> rows,
                               const StandingsTableOptions& options) {
  const std::vector<Heading> headings = Headings(options);
  std::string html = absl::StrCat(
      TableStart(options.sortable ? "standings sortable" : "standings", options.id), "<thead><tr>");
  for (const Heading& heading : headings) {
    absl::StrAppend(
        &html, "<th data-sort=\"", heading.sort, "\"",
        heading.title.empty() ? "" : absl::StrCat(" title=\"", HtmlEscape(heading.title), "\""),
        ">", HtmlEscape(heading.text), "</th>");
  }
  absl::StrAppend(&html, "</tr></thead>\n<tbody>\n");
  for (const StandingsRow& row : rows) {
    absl::StrAppend(&html, row.row_class.empty()
                               ? "<tr>"
                               : absl::StrCat("<tr class=\"", HtmlEscape(row.row_class), "\">"));
    for (const std::string& cell : Cells(row, options.columns)) {
      absl::StrAppend(&html, "<td>", cell, "</td>");
    }
    absl::StrAppend(&html, "</tr>\n");
  }
  if (rows.empty() && !options.empty.empty()) {
    absl::StrAppend(&html, "<tr><td colspan=\"", headings.size(), "\">", HtmlEscape(options.empty),
                    "</td></tr>\n");
  }
  absl::StrAppend(&html, kTableEnd);
  return html;
}

std::string CrossTableHtml(absl::Span<const std::string> names,
                           const std::vector<std::vector<std::optional<CrossCell>>>& cells,
                           const CrossTableOptions& options) {
  std::string html = absl::StrCat(TableStart("cross", options.id), "<thead><tr><th>#</th><th>",
                                  HtmlEscape(options.name_heading), "</th>");
  for (size_t j = 0; j < names.size(); ++j) {
    absl::StrAppend(&html, "<th title=\"", HtmlEscape(names[j]), "\">", j + 1, "</th>");
  }
  absl::StrAppend(&html, "</tr></thead>\n<tbody>\n");
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&html, "<tr><td>", i + 1, "</td><td>", HtmlEscape(names[i]), "</td>");
    for (size_t j = 0; j < names.size(); ++j) {
      const std::optional<CrossCell>* cell =
          i < cells.size() && j < cells[i].size() ? &cells[i][j] : nullptr;
      if (i == j) {
        absl::StrAppend(&html, "<td class=\"self\"></td>");
      } else if (cell == nullptr || !cell->has_value()) {
        absl::StrAppend(&html, "<td>", kNone, "</td>");
      } else {
        const CrossCell& shown = **cell;
        const std::string text = HtmlEscape(shown.text);
        absl::StrAppend(
            &html, "<td>",
            shown.link.empty()
                ? text
                : absl::StrCat("<a href=\"", HtmlEscape(shown.link), "\">", text, "</a>"),
            shown.note.empty()
                ? ""
                : absl::StrCat("<br><span class=\"note\">", HtmlEscape(shown.note), "</span>"),
            "</td>");
      }
    }
    absl::StrAppend(&html, "</tr>\n");
  }
  absl::StrAppend(&html, kTableEnd);
  return html;
}

}  // namespace divercite
