// Match statistics: Elo difference with its 95 % interval, likelihood of superiority, the
// pentanomial view of paired games, the generalised SPRT, and Bradley-Terry ratings for
// tournaments. Scores are from the first-named engine's view: win 1, draw 1/2, loss 0.
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_STATS_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_STATS_H_

#include <array>
#include <vector>

namespace divercite {

struct Tally {
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int games() const { return wins + draws + losses; }
  // Counts one game in which the player scored `points`: 1, 1/2 or 0.
  void Add(double points) { (points == 1 ? wins : points == 0 ? losses : draws)++; }
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }
};

// Pairs of games on the same opening with colours swapped: counts of pair scores
// 0, 1/2, 1, 3/2, 2 (index = twice the pair score).
using Pentanomial = std::array<int, 5>;

struct EloEstimate {
  double elo = 0;      // logistic Elo difference
  double error95 = 0;  // half-width of the 95 % interval, in Elo
  double los = 0.5;    // likelihood of superiority
  double score = 0.5;
  double draw_ratio = 0;
};

// Logistic Elo of a score fraction: -400 log10(1/s - 1), clamped away from 0 and 1.
double EloFromScore(double score);
double ScoreFromElo(double elo);

// From game results (trinomial model).
EloEstimate Estimate(const Tally& tally);
// From paired results (pentanomial model): the pairs' variance replaces the games'.
EloEstimate Estimate(const Pentanomial& pairs);

struct SprtParameters {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};
enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };
struct SprtState {
  double llr = 0, lower = 0, upper = 0;
  SprtDecision decision = SprtDecision::kContinue;
};
// The generalised SPRT on logistic Elo (see match_stats.cc for the formula's source); with
// `pairs` non-empty the pentanomial model is used, else the trinomial one.
SprtState Sprt(const SprtParameters& parameters, const Tally& tally, const Pentanomial* pairs);

// Bradley-Terry ratings (Elo scale, mean 0) from points[i][j] (points i scored against j)
// and games[i][j]; one virtual draw per pair that met keeps perfect scores finite.
std::vector<double> BradleyTerryElo(const std::vector<std::vector<double>>& points,
                                    const std::vector<std::vector<int>>& games);

// The half-widths of the 95 % intervals of those ratings (Elo), from the model's Fisher
// information at the fitted ratings; infinite for an engine without games, and for every
// engine when the table falls apart in groups that never met.
std::vector<double> BradleyTerryIntervals(const std::vector<std::vector<int>>& games,
                                          const std::vector<double>& elo);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_STATS_H_
