#include "tools/match/scoreboard.h"

#include <algorithm>

namespace divercite {

MatchScore ScoreMatch(const FinishedGames& finished, bool repeat, std::optional<int> opponent) {
  MatchScore score;
  std::map<int, std::vector<double>> pair_points;  // engine 0's points per pair
  for (const auto& [game, record] : finished) {
    if (opponent && record.first_engine != *opponent && record.second_engine != *opponent) {
      continue;
    }
    const double points = record.PointsOf(0);
    score.tally.Add(points);
    if (record.pair >= 0) pair_points[record.pair].push_back(points);
  }
  for (const auto& [pair, points] : pair_points) {
    if (points.size() == 2) ++score.pairs[static_cast<int>(2 * (points[0] + points[1]))];
  }
  const Pentanomial& pairs = score.pairs;
  score.paired = repeat && pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4] > 0;
  return score;
}

SprtState MatchSprt(const SprtParameters& parameters, const MatchScore& score) {
  return Sprt(parameters, score.tally, score.paired ? &score.pairs : nullptr);
}

MatchSummary SummarizeMatch(const FinishedGames& finished, bool repeat, std::optional<int> opponent,
                            const std::optional<SprtParameters>& sprt) {
  MatchSummary summary;
  summary.score = ScoreMatch(finished, repeat, opponent);
  summary.elo =
      summary.score.paired ? Estimate(summary.score.pairs) : Estimate(summary.score.tally);
  summary.games_view = Estimate(summary.score.tally);
  if (sprt) summary.sprt = MatchSprt(*sprt, summary.score);
  return summary;
}

CrossTable ScoreTournament(const FinishedGames& finished, int engines) {
  const size_t n = engines;
  CrossTable table;
  table.tallies.assign(n, std::vector<Tally>(n));
  table.points.assign(n, std::vector<double>(n, 0));
  table.games.assign(n, std::vector<int>(n, 0));
  table.ms.assign(n, 0);
  table.moves.assign(n, 0);
  for (const auto& [game, record] : finished) {
    const int first = record.first_engine, second = record.second_engine;
    const double p = record.FirstPlayerPoints();
    table.tallies[first][second].Add(p);
    table.tallies[second][first].Add(1 - p);
    table.points[first][second] += p;
    table.points[second][first] += 1 - p;
    ++table.games[first][second];
    ++table.games[second][first];
    // The opening's parity decides who made the engines' first move.
    const int opening_plies =
        record.opening.empty()
            ? 0
            : static_cast<int>(std::count(record.opening.begin(), record.opening.end(), ' ')) + 1;
    for (size_t m = 0; m < record.moves.size(); ++m) {
      const int mover = (opening_plies + static_cast<int>(m)) % 2 == 0 ? first : second;
      table.ms[mover] += record.moves[m].ms;
      ++table.moves[mover];
    }
  }
  return table;
}

double MsPerMove(const CrossTable& table, size_t i) {
  return table.moves[i] ? static_cast<double>(table.ms[i]) / table.moves[i] : 0.0;
}

Standings StandTournament(const FinishedGames& finished, size_t engines) {
  Standings s;
  s.table = ScoreTournament(finished, static_cast<int>(engines));
  s.ratings = BradleyTerryElo(s.table.points, s.table.games);
  s.intervals = BradleyTerryIntervals(s.table.games, s.ratings);
  s.order.resize(engines);
  for (size_t i = 0; i < engines; ++i) s.order[i] = i;
  std::sort(s.order.begin(), s.order.end(),
            [&](size_t x, size_t y) { return s.ratings[x] > s.ratings[y]; });
  return s;
}

}  // namespace divercite
