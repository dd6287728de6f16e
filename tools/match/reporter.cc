#include "tools/match/reporter.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/common/json.h"
#include "tools/match/match_stats.h"

namespace divercite {

Reporter::Reporter(const MatchSettings& settings, int total_games, std::ostream& out,
                   int planned_games)
    : settings_(settings),
      total_games_(total_games),
      planned_games_(planned_games < 0 ? total_games : planned_games),
      out_(out) {}

void Reporter::Shard() {
  out_ << absl::StrFormat("Shard %d of %d: %d of the %d games\n", settings_.shard->index,
                          settings_.shard->count, planned_games_, total_games_);
  if (settings_.sprt) {
    out_ << "The SPRT of a shard is its part's alone: the merged report (-merge) decides\n";
  }
  out_.flush();
}

void Reporter::DroppedUnfinishedLine(const std::string& path) {
  out_ << "Dropping an unfinished last line of " << path << "\n";
}

void Reporter::Resuming(int finished, const std::string& path) {
  out_ << "Resuming: " << finished << " of " << planned_games_ << " games already in " << path
       << "\n";
}

void Reporter::CannotWrite(const std::string& path) {
  out_ << "warning: cannot write " << path << "\n";
}

void Reporter::GameFinished(const GameRecord& record, const FinishedGames& finished) {
  out_ << absl::StrFormat("Finished game %d of %d (%s vs %s): %s {%s%s%s}\n", record.game + 1,
                          total_games_, record.p1, record.p2, GameResultText(record.result),
                          TerminationText(record.termination), record.reason.empty() ? "" : ": ",
                          record.reason);
  if (settings_.engines.size() == 2 || settings_.gauntlet()) {
    // In a gauntlet, the first engine against this game's opponent.
    const int opponent = record.first_engine == 0 ? record.second_engine : record.first_engine;
    const Tally tally = ScoreMatch(finished, settings_.repeat, opponent).tally;
    out_ << absl::StrFormat("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n",
                            settings_.engines[0].config.name,
                            settings_.engines[opponent].config.name, tally.wins, tally.losses,
                            tally.draws, tally.score(), tally.games());
  }
  out_.flush();
}

void Reporter::Statistics(const FinishedGames& finished) {
  if (settings_.engines.size() == 2) {
    MatchStatistics(finished, std::nullopt, settings_.engines[1].config.name);
  } else if (settings_.gauntlet()) {
    GauntletTables(finished);
  } else {
    TournamentTable(finished);
  }
  out_.flush();
}

void Reporter::AfterGame(const GameRecord& record, const FinishedGames& finished,
                         int newly_finished) {
  GameFinished(record, finished);
  if (settings_.rating_interval > 0 && newly_finished % settings_.rating_interval == 0) {
    Statistics(finished);
  }
  if (settings_.sprt) Statistics(finished);
}

void Reporter::GauntletTables(const FinishedGames& finished) {
  const std::string& first = settings_.engines[0].config.name;
  out_ << absl::StrFormat("--- Gauntlet of %s after %d of %d games\n", first, finished.size(),
                          planned_games_);
  for (size_t opponent = 1; opponent < settings_.engines.size(); ++opponent) {
    MatchStatistics(finished, static_cast<int>(opponent), settings_.engines[opponent].config.name);
  }
  MatchStatistics(finished, std::nullopt, "all");
}

void Reporter::MatchStatistics(const FinishedGames& finished, std::optional<int> opponent,
                               const std::string& against) {
  const std::string& a = settings_.engines[0].config.name;
  const std::string& b = against;
  const MatchSummary summary = SummarizeMatch(finished, settings_.repeat, opponent, settings_.sprt);
  const MatchScore& score = summary.score;
  const Tally& tally = score.tally;
  const Pentanomial& pairs = score.pairs;
  const EloEstimate& elo = summary.elo;
  const EloEstimate& games_view = summary.games_view;
  out_ << absl::StrFormat("--- %s vs %s after %d games\n", a, b, tally.games());
  out_ << absl::StrFormat(
      "Elo difference: %.1f +/- %.1f (95%%, %s), LOS: %.1f %%, DrawRatio: %.1f %%\n", elo.elo,
      elo.error95, score.paired ? "pentanomial" : "trinomial", 100 * elo.los,
      100 * games_view.draw_ratio);
  out_ << absl::StrFormat("Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
                          tally.games(), tally.wins, tally.losses, tally.draws,
                          tally.wins + 0.5 * tally.draws, 100 * tally.score());
  if (settings_.repeat) {
    out_ << absl::StrFormat("Ptnml(0-2): [%d, %d, %d, %d, %d]\n", pairs[0], pairs[1], pairs[2],
                            pairs[3], pairs[4]);
  }
  if (settings_.sprt) {
    const SprtState& sprt = *summary.sprt;
    out_ << absl::StrFormat("LLR: %.2f (%.2f, %.2f) [%.1f, %.1f]%s\n", sprt.llr, sprt.lower,
                            sprt.upper, settings_.sprt->elo0, settings_.sprt->elo1,
                            sprt.decision == SprtDecision::kAcceptH1   ? " H1 accepted"
                            : sprt.decision == SprtDecision::kAcceptH0 ? " H0 accepted"
                                                                       : "");
  }
}

void Reporter::TournamentTable(const FinishedGames& finished) {
  const Standings standings = StandTournament(finished, settings_.engines.size());
  const CrossTable& table = standings.table;
  const std::vector<double>& ratings = standings.ratings;
  const std::vector<size_t>& order = standings.order;
  out_ << absl::StrFormat(
      "--- Round robin after %d of %d games (W-D-L of the row against the column)\n",
      finished.size(), planned_games_);
  out_ << absl::StrFormat("%-16s", "");
  for (size_t j : order) out_ << absl::StrFormat(" %12.12s", settings_.engines[j].config.name);
  out_ << absl::StrFormat(" %8s %7s %8s %9s\n", "score", "%", "Elo(BT)", "ms/move");
  for (size_t i : order) {
    out_ << absl::StrFormat("%-16.16s", settings_.engines[i].config.name);
    double total = 0;
    int played = 0;
    for (size_t j : order) {
      if (i == j) {
        out_ << absl::StrFormat(" %12s", "-");
        continue;
      }
      const Tally& t = table.tallies[i][j];
      out_ << absl::StrFormat(" %12s", absl::StrCat(t.wins, "-", t.draws, "-", t.losses));
      total += table.points[i][j];
      played += table.games[i][j];
    }
    out_ << absl::StrFormat(" %8.1f %6.1f%% %8.0f %9.1f\n", total,
                            played ? 100.0 * total / played : 0.0, ratings[i], MsPerMove(table, i));
  }
}

void WriteStandingsJson(const FinishedGames& finished, const std::vector<std::string>& names,
                        std::ostream& out) {
  const Standings standings = StandTournament(finished, names.size());
  Json engines = Json::array();
  for (size_t i : standings.order) {
    double points = 0;
    int games = 0;
    for (size_t j = 0; j < names.size(); ++j) {
      points += standings.table.points[i][j];
      games += standings.table.games[i][j];
    }
    // An engine whose rating is unbounded has an infinite interval: DumpJson writes null.
    engines.push_back(Json{{"name", names[i]},
                           {"elo", standings.ratings[i]},
                           {"elo_interval", standings.intervals[i]},
                           {"points", points},
                           {"games", games},
                           {"score", games ? points / games : 0.0},
                           {"ms_per_move", MsPerMove(standings.table, i)}});
  }
  out << DumpJson(Json{{"games", finished.size()}, {"engines", engines}}) << "\n";
}

}  // namespace divercite
