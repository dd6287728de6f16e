#include "tools/match/match_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/enum_names.h"
#include "tools/common/html.h"
#include "tools/common/standings_table.h"
#include "tools/review/record_review.h"
#include "tools/review/review_page.h"

namespace divercite {
namespace {

constexpr int kPlies = 40;
// The engines' colours in the charts, in the settings' order (then round again).
constexpr std::array<absl::string_view, 8> kColours = {"#1565c0", "#c62828", "#2e7d32", "#6a1b9a",
                                                       "#ef6c00", "#00838f", "#5d4037", "#455a64"};

absl::string_view EngineColour(size_t engine) { return kColours[engine % kColours.size()]; }

const std::string& Name(const MatchSettings& settings, size_t engine) {
  return settings.engines[engine].config.name;
}

constexpr EnumName<SprtDecision> kDecisionNames[] = {{SprtDecision::kContinue, "continue"},
                                                     {SprtDecision::kAcceptH0, "H0"},
                                                     {SprtDecision::kAcceptH1, "H1"}};
static_assert(NamesAreDistinct(kDecisionNames));

// Engine 0 against each opponent whose statistics the runner prints: the other engine of a
// match, each of a gauntlet's and all of them together; none in a round robin of more.
std::vector<std::pair<std::optional<int>, std::string>> Pairings(const MatchSettings& settings) {
  std::vector<std::pair<std::optional<int>, std::string>> pairings;
  if (settings.engines.size() == 2) {
    pairings.emplace_back(std::nullopt, Name(settings, 1));
  } else if (settings.gauntlet()) {
    for (size_t opponent = 1; opponent < settings.engines.size(); ++opponent) {
      pairings.emplace_back(static_cast<int>(opponent), Name(settings, opponent));
    }
    pairings.emplace_back(std::nullopt, "all");
  }
  return pairings;
}

// One engine's clock use over its games.
struct ClockUse {
  std::array<std::vector<std::int64_t>, kPlies> ms_by_ply;
  std::vector<std::int64_t> clock_left;  // at the end of each game under a tc=B+I control
  int moves = 0;
  int time_losses = 0;
};

std::vector<ClockUse> ClockUses(const FinishedGames& finished, size_t engines) {
  std::vector<ClockUse> uses(engines);
  for (const auto& [number, record] : finished) {
    const int opening_plies =
        record.opening.empty()
            ? 0
            : static_cast<int>(std::count(record.opening.begin(), record.opening.end(), ' ')) + 1;
    int start_ply = 0;
    if (record.start != "startpos") {
      // A position string's ply: its pieces on the board.
      if (absl::StatusOr<GameToAnalyze> game = GameFromRecord(record); game.ok()) {
        start_ply = game->start.Ply();
      }
    }
    const std::array<int, 2> engine = {record.first_engine, record.second_engine};
    std::array<std::optional<std::int64_t>, 2> clock;
    std::array<std::optional<ClockControl>, 2> control;
    for (int side = 0; side < 2; ++side) {
      control[side] = ClockOf(record.time_controls[side]);
      if (control[side]) clock[side] = control[side]->base_ms;
    }
    // As ScoreTournament counts: the opening's parity decides who made the engines' first move.
    for (size_t m = 0; m < record.moves.size(); ++m) {
      const int side = (opening_plies + static_cast<int>(m)) % 2;
      ClockUse& use = uses[engine[side]];
      const int ply = start_ply + opening_plies + static_cast<int>(m);
      if (ply < kPlies) use.ms_by_ply[ply].push_back(record.moves[m].ms);
      ++use.moves;
      if (control[side])
        clock[side] = ClockAfterMove(clock[side], *control[side], record.moves[m].ms);
    }
    for (int side = 0; side < 2; ++side) {
      if (clock[side]) uses[engine[side]].clock_left.push_back(*clock[side]);
      if (record.termination == Termination::kTime && record.PointsOf(engine[side]) == 0) {
        ++uses[engine[side]].time_losses;
      }
    }
  }
  return uses;
}

std::optional<std::int64_t> Median(std::vector<std::int64_t> values) {
  if (values.empty()) return std::nullopt;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const std::int64_t upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const std::int64_t lower = *std::max_element(values.begin(), values.begin() + middle);
  return (lower + upper) / 2;
}

std::string MsText(const std::optional<std::int64_t>& ms) {
  return ms ? absl::StrFormat("%.2f s", *ms / 1000.0) : "-";
}

// The results chart: a bar per engine (best rated first) of its wins, draws and losses in
// proportion to its games, with its score; a line at 50 %.
std::string ResultsChart(const MatchSettings& settings, const Standings& standings,
                         const std::vector<Tally>& totals) {
  constexpr int kLeft = 150, kWidth = 400, kRow = 28;
  const int height = kRow * static_cast<int>(standings.order.size()) + 30;
  std::string svg = absl::StrFormat(
      "<svg id=\"results-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" font-size=\"12\">\n",
      kLeft + kWidth + 90, height, kLeft + kWidth + 90, height);
  int y = 8;
  for (size_t i : standings.order) {
    const Tally& t = totals[i];
    const double games = std::max(1, t.games());
    double x = kLeft;
    absl::StrAppend(&svg, absl::StrFormat("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                                          kLeft - 6, y + 15, HtmlEscape(Name(settings, i))));
    const std::array<std::pair<int, absl::string_view>, 3> parts = {
        {{t.wins, "#43a047"}, {t.draws, "#9e9e9e"}, {t.losses, "#e53935"}}};
    for (const auto& [count, colour] : parts) {
      const double width = kWidth * count / games;
      absl::StrAppend(&svg,
                      absl::StrFormat("<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                                      "height=\"20\" fill=\"%s\"><title>%d</title></rect>\n",
                                      x, y, width, colour, count));
      x += width;
    }
    absl::StrAppend(&svg, absl::StrFormat("<text x=\"%d\" y=\"%d\">%.1f %%</text>\n",
                                          kLeft + kWidth + 6, y + 15, 100 * t.score()));
    y += kRow;
  }
  absl::StrAppend(
      &svg, absl::StrFormat("<line x1=\"%d\" x2=\"%d\" y1=\"2\" y2=\"%d\" stroke=\"#1f2936\" "
                            "stroke-dasharray=\"4 3\"/>\n<text x=\"%d\" y=\"%d\" "
                            "text-anchor=\"middle\" fill=\"#555\">50 %%</text>\n</svg>\n",
                            kLeft + kWidth / 2, kLeft + kWidth / 2, y, kLeft + kWidth / 2, y + 14));
  return svg;
}

// The clock chart: each engine's median time per move by ply, a line each.
std::string ClockChart(const MatchSettings& settings, const std::vector<ClockUse>& uses) {
  constexpr int kLeft = 55, kTop = 10, kWidth = 520, kHeight = 200;
  std::int64_t most = 1;
  std::vector<std::array<std::optional<std::int64_t>, kPlies>> medians(uses.size());
  for (size_t e = 0; e < uses.size(); ++e) {
    for (int ply = 0; ply < kPlies; ++ply) {
      medians[e][ply] = Median(uses[e].ms_by_ply[ply]);
      if (medians[e][ply]) most = std::max(most, *medians[e][ply]);
    }
  }
  const auto x_of = [&](int ply) { return kLeft + kWidth * ply / (kPlies - 1.0); };
  const auto y_of = [&](std::int64_t ms) {
    return kTop + kHeight - kHeight * static_cast<double>(ms) / most;
  };
  std::string svg = absl::StrFormat(
      "<svg id=\"clock-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
      "viewBox=\"0 0 %d %d\" font-size=\"11\">\n"
      "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#bbb\"/>\n"
      "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d ms</text>\n"
      "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
      kLeft + kWidth + 10, kTop + kHeight + 40, kLeft + kWidth + 10, kTop + kHeight + 40, kLeft,
      kTop, kWidth, kHeight, kLeft - 4, kTop + 10, most, kLeft - 4, kTop + kHeight);
  for (int ply = 0; ply < kPlies; ply += 5) {
    absl::StrAppend(&svg,
                    absl::StrFormat("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                                    x_of(ply), kTop + kHeight + 14, ply));
  }
  absl::StrAppend(&svg, absl::StrFormat("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
                                        "ply (pieces on the board before the move)</text>\n",
                                        kLeft + kWidth / 2, kTop + kHeight + 30));
  for (size_t e = 0; e < uses.size(); ++e) {
    std::string points;
    for (int ply = 0; ply < kPlies; ++ply) {
      if (medians[e][ply]) {
        absl::StrAppend(&points, absl::StrFormat("%.1f,%.1f ", x_of(ply), y_of(*medians[e][ply])));
      }
    }
    if (points.empty()) continue;
    absl::StrAppend(
        &svg, absl::StrFormat("<polyline class=\"clock-line\" fill=\"none\" stroke=\"%s\" "
                              "stroke-width=\"2\" points=\"%s\"><title>%s</title></polyline>\n",
                              EngineColour(e), points, HtmlEscape(Name(settings, e))));
  }
  absl::StrAppend(&svg, "</svg>\n");
  return svg;
}

std::string Cell(absl::string_view text) { return absl::StrCat("<td>", text, "</td>"); }

}  // namespace

std::string MatchGamePage(const GameRecord& record) {
  return absl::StrCat("games/game-", record.game, ".html");
}

Json MatchReportJson(const MatchSettings& settings, const FinishedGames& finished,
                     int total_games) {
  const size_t n = settings.engines.size();
  const Standings standings = StandTournament(finished, n);
  Json json = Json::object();
  json["games"] = finished.size();
  json["total"] = total_games;
  json["tournament"] = std::string(NameOf(kTournamentNames, settings.tournament));
  Json engines = Json::array();
  for (size_t i = 0; i < n; ++i) engines.push_back(Name(settings, i));
  json["engines"] = std::move(engines);

  Json table = Json::array();
  for (size_t i : standings.order) {
    Tally total;
    double points = 0;
    for (size_t j = 0; j < n; ++j) {
      const Tally& t = standings.table.tallies[i][j];
      total.wins += t.wins;
      total.draws += t.draws;
      total.losses += t.losses;
      points += standings.table.points[i][j];
    }
    table.push_back(Json{{"name", Name(settings, i)},
                         {"wins", total.wins},
                         {"draws", total.draws},
                         {"losses", total.losses},
                         {"points", points},
                         {"games", total.games()},
                         {"elo", standings.ratings[i]},
                         {"elo_interval", standings.intervals[i]}});  // null if unbounded
  }
  json["standings"] = std::move(table);

  Json matches = Json::array();
  for (const auto& [opponent, against] : Pairings(settings)) {
    const MatchSummary summary = SummarizeMatch(finished, settings.repeat, opponent, settings.sprt);
    const Tally& tally = summary.score.tally;
    const Pentanomial& pairs = summary.score.pairs;
    Json match{{"a", Name(settings, 0)},
               {"b", against},
               {"games", tally.games()},
               {"wins", tally.wins},
               {"draws", tally.draws},
               {"losses", tally.losses},
               {"points", tally.wins + 0.5 * tally.draws},
               {"elo", summary.elo.elo},
               {"error95", summary.elo.error95},
               {"los", summary.elo.los},
               {"draw_ratio", summary.games_view.draw_ratio},
               {"model", summary.score.paired ? "pentanomial" : "trinomial"}};
    match["pentanomial"] = settings.repeat
                               ? Json::array({pairs[0], pairs[1], pairs[2], pairs[3], pairs[4]})
                               : Json(nullptr);
    if (summary.sprt) {
      match["sprt"] =
          Json{{"llr", summary.sprt->llr},
               {"lower", summary.sprt->lower},
               {"upper", summary.sprt->upper},
               {"elo0", settings.sprt->elo0},
               {"elo1", settings.sprt->elo1},
               {"decision", std::string(NameOf(kDecisionNames, summary.sprt->decision))}};
    } else {
      match["sprt"] = nullptr;
    }
    matches.push_back(std::move(match));
  }
  json["matches"] = std::move(matches);

  const std::vector<ClockUse> uses = ClockUses(finished, n);
  Json clocks = Json::array();
  for (size_t e = 0; e < n; ++e) {
    Json by_ply = Json::array();
    for (int ply = 0; ply < kPlies; ++ply) {
      const std::optional<std::int64_t> median = Median(uses[e].ms_by_ply[ply]);
      by_ply.push_back(median ? Json(*median) : Json(nullptr));
    }
    clocks.push_back(Json{{"name", Name(settings, e)},
                          {"moves", uses[e].moves},
                          {"median_ms_by_ply", std::move(by_ply)},
                          {"clock_left_ms", uses[e].clock_left},
                          {"time_losses", uses[e].time_losses}});
  }
  json["clocks"] = std::move(clocks);

  Json games = Json::array();
  for (const auto& [number, record] : finished) {
    games.push_back(Json{{"game", record.game},
                         {"page", MatchGamePage(record)},
                         {"p1", record.p1},
                         {"p2", record.p2},
                         {"result", std::string(GameResultText(record.result))},
                         {"termination", std::string(TerminationText(record.termination))},
                         {"final", Json::array({record.final_scores[0], record.final_scores[1]})}});
  }
  json["game_list"] = std::move(games);
  return json;
}

std::string MatchReportHtml(const MatchSettings& settings, const FinishedGames& finished,
                            int total_games) {
  const size_t n = settings.engines.size();
  const Standings standings = StandTournament(finished, n);
  const CrossTable& table = standings.table;
  std::vector<Tally> totals(n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      totals[i].wins += table.tallies[i][j].wins;
      totals[i].draws += table.tallies[i][j].draws;
      totals[i].losses += table.tallies[i][j].losses;
    }
  }
  const absl::string_view kind = settings.tournament == Tournament::kRoundRobin ? "Round robin"
                                 : settings.gauntlet()                          ? "Gauntlet"
                                                                                : "Match";
  std::string title = absl::StrCat(kind, ": ", Name(settings, 0));
  for (size_t i = 1; i < n; ++i) absl::StrAppend(&title, i == 1 ? " vs " : ", ", Name(settings, i));
  std::string html = TablePageStart(
      title,
      "td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
      "svg text { fill: var(--ink); }\n.h1 { color: var(--good); } .h0 { color: var(--bad); }\n");
  absl::StrAppend(&html, absl::StrFormat("<p id=\"progress\">%d of %d games finished. Time "
                                         "controls:",
                                         finished.size(), total_games));
  for (size_t i = 0; i < n; ++i) {
    absl::StrAppend(&html, i ? ", " : " ", HtmlEscape(Name(settings, i)), " ",
                    HtmlEscape(settings.engines[i].time_control.text));
  }
  absl::StrAppend(&html, ".</p>\n");

  // The standings, in the one writer's table (tools/common/standings_table.h).
  const std::vector<ClockUse> uses = ClockUses(finished, n);
  std::vector<StandingsRow> rows;
  for (size_t i : standings.order) {
    const Tally& t = totals[i];
    StandingsRow& row = rows.emplace_back();
    row.name = Name(settings, i);
    row.rank = static_cast<int>(rows.size());
    row.elo = standings.ratings[i];
    if (std::isfinite(standings.intervals[i])) {
      row.elo_low = standings.ratings[i] - standings.intervals[i];
      row.elo_high = standings.ratings[i] + standings.intervals[i];
    }
    row.games = t.games();
    row.wins = t.wins;
    row.draws = t.draws;
    row.losses = t.losses;
    row.points = t.wins + 0.5 * t.draws;
    row.ms_per_move = MsPerMove(table, i);
    row.time_losses = uses[i].time_losses;
  }
  StandingsTableOptions standings_table;
  standings_table.columns.points = true;
  standings_table.columns.score = true;
  standings_table.columns.clock = true;
  standings_table.id = "standings";
  standings_table.name_heading = "Engine";
  standings_table.sortable = false;  // no script on the page
  absl::StrAppend(&html,
                  "<h2>Standings</h2>\n<p class=\"note\">Bradley-Terry Elo over all games, with "
                  "its 95 % interval (– where it is unbounded); score: points a game.</p>\n",
                  StandingsTableHtml(rows, standings_table));

  // The runner's statistics of engine 0 against the others.
  const auto pairings = Pairings(settings);
  if (!pairings.empty()) {
    absl::StrAppend(&html,
                    "<h2>Statistics</h2>\n<p class=\"note\">As divercite-match prints them: Elo "
                    "difference with its 95 % interval (on colour-swapped pairs with -repeat), "
                    "likelihood of superiority, draw ratio",
                    settings.sprt ? ", and the SPRT's log-likelihood ratio between its bounds" : "",
                    ".</p>\n<div class=\"scroll\"><table "
                    "id=\"statistics\">\n<tr><th></th><th>games</th><th>W</th>"
                    "<th>L</th><th>D</th><th>points</th><th>Elo</th><th>&plusmn; 95%</th>"
                    "<th>LOS</th><th>draws</th><th>model</th>",
                    settings.repeat ? "<th>pairs 0-2 (pentanomial)</th>" : "",
                    settings.sprt ? "<th>SPRT LLR (bounds) [elo0, elo1]</th>" : "", "</tr>\n");
    for (const auto& [opponent, against] : pairings) {
      const MatchSummary summary =
          SummarizeMatch(finished, settings.repeat, opponent, settings.sprt);
      const Tally& tally = summary.score.tally;
      const Pentanomial& pairs = summary.score.pairs;
      absl::StrAppend(
          &html, "<tr>",
          Cell(absl::StrCat(HtmlEscape(Name(settings, 0)), " vs ", HtmlEscape(against))),
          absl::StrFormat(
              "<td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
              "<td class=\"n\">%d</td><td class=\"n\">%.1f</td><td class=\"n elo\">%.1f</td>"
              "<td class=\"n\">%.1f</td><td class=\"n\">%.1f %%</td><td class=\"n\">%.1f %%</td>"
              "<td>%s</td>",
              tally.games(), tally.wins, tally.losses, tally.draws, tally.wins + 0.5 * tally.draws,
              summary.elo.elo, summary.elo.error95, 100 * summary.elo.los,
              100 * summary.games_view.draw_ratio,
              summary.score.paired ? "pentanomial" : "trinomial"));
      if (settings.repeat) {
        absl::StrAppend(&html, absl::StrFormat("<td>[%d, %d, %d, %d, %d]</td>", pairs[0], pairs[1],
                                               pairs[2], pairs[3], pairs[4]));
      }
      if (summary.sprt) {
        const SprtState& sprt = *summary.sprt;
        absl::StrAppend(
            &html, absl::StrFormat("<td>%.2f (%.2f, %.2f) [%.1f, %.1f] %s</td>", sprt.llr,
                                   sprt.lower, sprt.upper, settings.sprt->elo0, settings.sprt->elo1,
                                   sprt.decision == SprtDecision::kAcceptH1
                                       ? "<b class=\"h1\">H1 accepted</b>"
                                   : sprt.decision == SprtDecision::kAcceptH0
                                       ? "<b class=\"h0\">H0 accepted</b>"
                                       : "going on"));
      }
      absl::StrAppend(&html, "</tr>\n");
    }
    absl::StrAppend(&html, "</table></div>\n");
  }

  // The cross table: W-D-L of the row against the column.
  std::vector<std::string> names;
  std::vector<std::vector<std::optional<CrossCell>>> cells;
  for (size_t i : standings.order) {
    names.push_back(Name(settings, i));
    std::vector<std::optional<CrossCell>>& row = cells.emplace_back();
    for (size_t j : standings.order) {
      const Tally& t = table.tallies[i][j];
      if (i == j || t.games() == 0) {
        row.emplace_back();
        continue;
      }
      const EloEstimate elo = Estimate(t);
      row.push_back(CrossCell{absl::StrFormat("%d-%d-%d", t.wins, t.draws, t.losses),
                              absl::StrFormat("%+.0f ± %.0f", elo.elo, elo.error95), ""});
    }
  }
  CrossTableOptions cross_table;
  cross_table.id = "cross-table";
  cross_table.name_heading = "Engine";
  absl::StrAppend(&html, "<h2>", settings.gauntlet() ? "Gauntlet" : "Cross table",
                  "</h2>\n<p class=\"note\">W-D-L of the row against the column (numbered as "
                  "the rows), and the row's Elo difference ± 95 % (trinomial, on those "
                  "games).</p>\n",
                  CrossTableHtml(names, cells, cross_table));

  absl::StrAppend(&html,
                  "<h2>Results</h2>\n<p class=\"note\">Each engine's wins (green), draws (grey) "
                  "and losses (red) in proportion to its games, and its score.</p>\n",
                  ResultsChart(settings, standings, totals));

  // Clock use.
  absl::StrAppend(&html,
                  "<h2>Clock use</h2>\n<p class=\"note\">Median time per move by ply (the "
                  "engines' own moves; the opening's are not theirs); the clock left at the end of "
                  "each game under a tc=B+I control (the runner's clock: the time taken, then the "
                  "increment); losses on time.</p>\n<p>");
  for (size_t e = 0; e < n; ++e) {
    absl::StrAppend(&html, absl::StrFormat("<span style=\"color:%s\">&#9632;</span> %s &nbsp; ",
                                           EngineColour(e), HtmlEscape(Name(settings, e))));
  }
  absl::StrAppend(&html, "</p>\n", ClockChart(settings, uses),
                  "<div class=\"scroll\"><table id=\"clocks\">\n<tr><th>engine</th><th>moves</th>"
                  "<th>median time per move</th><th>clock left at the end: median</th>"
                  "<th>least</th><th>losses on time</th></tr>\n");
  for (size_t e = 0; e < n; ++e) {
    std::vector<std::int64_t> all;
    for (const auto& ply : uses[e].ms_by_ply) all.insert(all.end(), ply.begin(), ply.end());
    const std::vector<std::int64_t>& left = uses[e].clock_left;
    absl::StrAppend(
        &html, "<tr>", Cell(HtmlEscape(Name(settings, e))),
        absl::StrFormat("<td class=\"n\">%d</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                        "<td class=\"n\">%s</td><td class=\"n\">%d</td>",
                        uses[e].moves, MsText(Median(all)), MsText(Median(left)),
                        MsText(left.empty() ? std::nullopt
                                            : std::optional<std::int64_t>(
                                                  *std::min_element(left.begin(), left.end()))),
                        uses[e].time_losses),
        "</tr>\n");
  }
  absl::StrAppend(&html, "</table></div>\n");

  // The games.
  absl::StrAppend(&html,
                  "<h2>Games</h2>\n<p class=\"note\">Each page replays its game from the "
                  "record: the board at every ply, the scores the players reported and their "
                  "clocks (no analysis: <code>divercite-analyze --records FILE --game N "
                  "--html</code> analyses one).</p>\n<div class=\"scroll\"><table id=\"games\" "
                  "class=\"games\">\n<tr><th>game</th>"
                  "<th>first player</th><th>second player</th><th>result</th><th>end</th>"
                  "<th>scores</th></tr>\n");
  for (const auto& [number, record] : finished) {
    absl::StrAppend(
        &html, "<tr><td><a href=\"", HtmlEscape(MatchGamePage(record)), "\">Game ", record.game + 1,
        "</a></td>", Cell(HtmlEscape(record.p1)), Cell(HtmlEscape(record.p2)),
        Cell(GameResultText(record.result)),
        Cell(absl::StrCat(TerminationText(record.termination), record.reason.empty() ? "" : ": ",
                          HtmlEscape(record.reason))),
        Cell(absl::StrCat(record.final_scores[0], "-", record.final_scores[1])), "</tr>\n");
  }
  // '<' only ever appears inside JSON strings, where \u003c reads back as the same text.
  absl::StrAppend(&html, "</table></div>\n<script type=\"application/json\" id=\"report\">",
                  absl::StrReplaceAll(DumpJson(MatchReportJson(settings, finished, total_games)),
                                      {{"<", "\\u003c"}}),
                  "</script>\n", kTablePageEnd);
  return html;
}

absl::Status MatchReportWriter::Prepare() {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(settings_.html_dir) / "games", error);
  if (error) {
    return absl::PermissionDeniedError(absl::StrCat(settings_.html_dir, ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status MatchReportWriter::WriteGame(const GameRecord& record) {
  absl::StatusOr<GameAnalysis> replay = ReplayOfRecord(record);
  if (!replay.ok()) {
    return absl::Status(replay.status().code(),
                        absl::StrCat("game ", record.game + 1, ": ", replay.status().message()));
  }
  return WriteTextFile((std::filesystem::path(settings_.html_dir) / MatchGamePage(record)).string(),
                       ReviewPageHtml(*replay));
}

absl::Status MatchReportWriter::WriteIndex(const FinishedGames& finished) {
  return WriteTextFile((std::filesystem::path(settings_.html_dir) / "index.html").string(),
                       MatchReportHtml(settings_, finished, total_games_));
}

absl::Status MatchReportWriter::WriteAll(const FinishedGames& finished) {
  if (absl::Status status = Prepare(); !status.ok()) return status;
  for (const auto& [number, record] : finished) {
    if (absl::Status status = WriteGame(record); !status.ok()) return status;
  }
  return WriteIndex(finished);
}

}  // namespace divercite
