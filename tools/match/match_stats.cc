#include "tools/match/match_stats.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace divercite {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95 % normal quantile

// A score per observation: how many observations, their mean and their variance (the
// population's: divided by n). The Elo estimate and the SPRT both start from these.
struct Moments {
  double n = 0;
  double mean = 0;
  double variance = 0;
};

// Games, each scoring 1, 1/2 or 0.
Moments MomentsOf(const Tally& tally) {
  Moments m;
  m.n = tally.games();
  if (m.n == 0) return m;
  m.mean = tally.score();
  m.variance = (tally.wins * (1 - m.mean) * (1 - m.mean) +
                tally.draws * (0.5 - m.mean) * (0.5 - m.mean) + tally.losses * m.mean * m.mean) /
               m.n;
  return m;
}

// Pairs of games, each scoring 0, 1/4, 1/2, 3/4 or 1 per game.
Moments MomentsOf(const Pentanomial& pairs) {
  Moments m;
  double sum = 0;
  for (int k = 0; k < 5; ++k) {
    m.n += pairs[k];
    sum += pairs[k] * (k / 4.0);
  }
  if (m.n == 0) return m;
  m.mean = sum / m.n;
  for (int k = 0; k < 5; ++k) m.variance += pairs[k] * (k / 4.0 - m.mean) * (k / 4.0 - m.mean);
  m.variance /= m.n;
  return m;
}

// The Elo interval of a mean score per observation: normal approximation on the score,
// mapped through the logistic curve.
EloEstimate FromMoments(const Moments& moments) {
  const double n = moments.n, mean = moments.mean, variance = moments.variance;
  EloEstimate estimate;
  estimate.score = mean;
  estimate.elo = EloFromScore(mean);
  if (n > 0 && variance == 0) {
    // Every observation alike (say, 6 wins out of 6): the normal approximation has nothing
    // to say about the interval, and a perfect score has no finite Elo.
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    if (mean == 1) estimate.elo = kInfinity;
    if (mean == 0) estimate.elo = -kInfinity;
    estimate.error95 = kInfinity;
    estimate.los = mean > 0.5 ? 1 : mean < 0.5 ? 0 : 0.5;
  } else if (n > 0) {
    const double stderr_mean = std::sqrt(variance / n);
    const double low = EloFromScore(mean - kZ95 * stderr_mean);
    const double high = EloFromScore(mean + kZ95 * stderr_mean);
    estimate.error95 = (high - low) / 2;
    // LOS: probability that the true score exceeds 1/2 (normal approximation).
    estimate.los = 0.5 * (1 + std::erf((mean - 0.5) / (stderr_mean * std::sqrt(2.0))));
  }
  return estimate;
}

}  // namespace

double EloFromScore(double score) {
  const double s = std::clamp(score, 1e-6, 1 - 1e-6);
  return -400 * std::log10(1 / s - 1);
}

double ScoreFromElo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

EloEstimate Estimate(const Tally& tally) {
  const Moments m = MomentsOf(tally);
  if (m.n == 0) return {};
  EloEstimate estimate = FromMoments(m);
  estimate.draw_ratio = tally.draws / m.n;
  return estimate;
}

EloEstimate Estimate(const Pentanomial& pairs) {
  const Moments m = MomentsOf(pairs);
  if (m.n == 0) return {};
  return FromMoments(m);
}

// The generalised sequential probability ratio test of M. Van den Bergh ("A practical
// introduction to the GSPRT", 2015, as used by fishtest and fastchess): for i.i.d.
// observations with sample mean s and variance v, testing mean s0 against s1,
//   LLR ~= n (s1 - s0) (2 s - s0 - s1) / (2 v),
// with s0 = ScoreFromElo(elo0), s1 = ScoreFromElo(elo1) (logistic Elo). Wald's bounds:
//   lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
// The observations are games (trinomial) or, with paired openings, pairs (pentanomial:
// their correlation is then accounted for).
SprtState Sprt(const SprtParameters& parameters, const Tally& tally, const Pentanomial* pairs) {
  SprtState state;
  state.lower = std::log(parameters.beta / (1 - parameters.alpha));
  state.upper = std::log((1 - parameters.beta) / parameters.alpha);
  const Moments m = pairs != nullptr ? MomentsOf(*pairs) : MomentsOf(tally);
  if (m.n == 0) return state;
  if (m.variance <= 0) return state;  // no information yet (all results equal)
  const double s0 = ScoreFromElo(parameters.elo0);
  const double s1 = ScoreFromElo(parameters.elo1);
  state.llr = m.n * (s1 - s0) * (2 * m.mean - s0 - s1) / (2 * m.variance);
  if (state.llr >= state.upper) state.decision = SprtDecision::kAcceptH1;
  if (state.llr <= state.lower) state.decision = SprtDecision::kAcceptH0;
  return state;
}

// Minorisation-maximisation for the Bradley-Terry model (D. R. Hunter, "MM algorithms for
// generalized Bradley-Terry models", Ann. Statist. 32(1), 2004): strengths
//   g_i <- W_i / sum_j n_ij / (g_i + g_j),
// with draws as half a win to each side; Elo_i = 400 log10(g_i), shifted to mean 0.
std::vector<double> BradleyTerryElo(const std::vector<std::vector<double>>& points,
                                    const std::vector<std::vector<int>>& games) {
  const size_t n = points.size();
  std::vector<std::vector<double>> w(n, std::vector<double>(n, 0));
  std::vector<std::vector<double>> g(n, std::vector<double>(n, 0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      if (i == j || games[i][j] + games[j][i] == 0) continue;
      w[i][j] = points[i][j] + 0.5;  // the virtual draw
      g[i][j] = games[i][j] + 1.0;
    }
  }
  std::vector<double> strength(n, 1.0);
  for (int iteration = 0; iteration < 10000; ++iteration) {
    double change = 0;
    std::vector<double> next(n);
    for (size_t i = 0; i < n; ++i) {
      double won = 0, denominator = 0;
      for (size_t j = 0; j < n; ++j) {
        if (g[i][j] == 0) continue;
        won += w[i][j];
        denominator += g[i][j] / (strength[i] + strength[j]);
      }
      next[i] = denominator > 0 ? won / denominator : strength[i];
    }
    double log_mean = 0;
    for (size_t i = 0; i < n; ++i) log_mean += std::log(next[i]) / n;
    for (size_t i = 0; i < n; ++i) {
      next[i] /= std::exp(log_mean);
      change = std::max(change, std::abs(next[i] - strength[i]));
    }
    strength = next;
    if (change < 1e-10) break;
  }
  std::vector<double> elo(n);
  for (size_t i = 0; i < n; ++i) elo[i] = 400 * std::log10(strength[i]);
  return elo;
}

// In natural units (theta = ln strength), the information is I_ii = sum_j n_ij p_ij p_ji,
// I_ij = -n_ij p_ij p_ji, with n_ij the comparisons the fit counted (the virtual draw
// included) and p_ij = 1 / (1 + exp(theta_j - theta_i)). The ratings' mean is fixed, so the
// covariance is the pseudo-inverse of I, whose null space is the constant vector:
// (I + J/n)^-1 - J/n, J all ones, for a table whose engines are all connected.
std::vector<double> BradleyTerryIntervals(const std::vector<std::vector<int>>& games,
                                          const std::vector<double>& elo) {
  const size_t n = elo.size();
  constexpr double kEloPerNatural = 400 / std::numbers::ln10;
  constexpr double kZ95 = 1.959964;
  std::vector<double> half_width(n, std::numeric_limits<double>::infinity());
  if (n < 2) return half_width;
  Eigen::MatrixXd information = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      if (i == j || games[i][j] + games[j][i] == 0) continue;
      const double comparisons = games[i][j] + 1.0;
      const double p = 1 / (1 + std::exp((elo[j] - elo[i]) / kEloPerNatural));
      information(i, j) -= comparisons * p * (1 - p);
      information(i, i) += comparisons * p * (1 - p);
    }
  }
  const Eigen::LDLT<Eigen::MatrixXd> factors(information);
  if (factors.info() != Eigen::Success || !factors.isPositive()) return half_width;
  const Eigen::MatrixXd covariance =
      factors.solve(Eigen::MatrixXd::Identity(n, n)).array() - 1.0 / n;
  for (size_t i = 0; i < n; ++i) {
    const double variance = covariance(i, i);
    if (variance > 0 && std::isfinite(variance)) {
      half_width[i] = kZ95 * kEloPerNatural * std::sqrt(variance);
    }
  }
  // An engine in a group that never met the rest has a huge variance, not an infinite one.
  for (size_t i = 0; i < n; ++i) {
    if (half_width[i] > 1e5) half_width[i] = std::numeric_limits<double>::infinity();
  }
  return half_width;
}

}  // namespace divercite
