#include "tools/tune/pattern_fit.h"

#include <algorithm>
#include <random>

#include "Eigen/Dense"
#include "engine/movegen.h"
#include "tools/tune/labelled_positions.h"
#include "tools/tune/linear_eval.h"

namespace divercite {

void PatternSamples::Add(const Position& position, Sample sample) {
  sample.ply = static_cast<std::uint8_t>(position.Ply());
  const Player us = position.SideToMove();
  sample.score_difference = static_cast<float>(position.Score(us) - position.Score(Opponent(us)));
  sample.old_eval = static_cast<float>(EvaluateLinear(position)) / kPoint;
  sample.first_term = static_cast<std::uint32_t>(terms.size());
  ForEachPattern(position, [&](int pattern, int sign) {
    terms.push_back({static_cast<std::uint16_t>(pattern), static_cast<std::int8_t>(sign)});
  });
  sample.num_terms = static_cast<std::uint32_t>(terms.size()) - sample.first_term;
  samples.push_back(sample);
}

absl::Status AddGameSamples(const GameRecord& record, PatternSamples& samples) {
  return ForEachLabelledPosition(record, [&](const Position& position, const PositionLabel& label) {
    PatternSamples::Sample sample;
    sample.game = label.game;
    sample.pair = label.pair;
    sample.later = label.later;
    sample.exact = label.exact;
    sample.has_search = label.has_search;
    sample.search = label.search;
    samples.Add(position, sample);
  });
}

double LabelOf(const PatternSamples::Sample& sample, Label label) {
  switch (label) {
    case Label::kLater:
      return sample.later;
    case Label::kSearch:
      return sample.has_search ? sample.search : sample.later;
    case Label::kBlend:
      return sample.has_search ? (sample.search + sample.later) / 2 : sample.later;
  }
  return sample.later;
}

namespace {

// The sparse row of a sample: (column, coefficient), columns E[k] = k and L[k] = n + k.
void RowOf(const PatternSamples& samples, const PatternSamples::Sample& sample,
           std::vector<std::pair<int, double>>& row) {
  row.clear();
  const double t = static_cast<double>(sample.ply) / kTotalPlies;
  for (std::uint32_t i = 0; i < sample.num_terms; ++i) {
    const PatternTerm term = samples.terms[sample.first_term + i];
    row.emplace_back(term.pattern, term.sign * (1 - t));
    row.emplace_back(patterns::kNumPatterns + term.pattern, term.sign * t);
  }
  // Merge repeated columns (two cells with the same pattern).
  std::sort(row.begin(), row.end());
  std::size_t out = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (out > 0 && row[out - 1].first == row[i].first) {
      row[out - 1].second += row[i].second;
    } else {
      row[out++] = row[i];
    }
  }
  row.resize(out);
}

}  // namespace

PatternFit FitPatterns(const PatternSamples& samples, const std::vector<bool>& use, Label label,
                       double lambda) {
  constexpr int kColumns = 2 * patterns::kNumPatterns;
  PatternFit fit;
  fit.values.assign(kColumns, 0.0);
  // Only the columns that some sample touches enter the system.
  std::vector<int> compact(kColumns, -1);
  std::vector<int> column_of;
  std::vector<std::pair<int, double>> row;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    if (!use[s]) continue;
    RowOf(samples, samples.samples[s], row);
    for (const auto& [column, x] : row) {
      if (x != 0 && compact[column] < 0) {
        compact[column] = static_cast<int>(column_of.size());
        column_of.push_back(column);
      }
    }
  }
  const int m = static_cast<int>(column_of.size());
  fit.columns_used = m;
  if (m == 0) return fit;
  Eigen::MatrixXd normal = Eigen::MatrixXd::Zero(m, m);
  Eigen::VectorXd right = Eigen::VectorXd::Zero(m);
  for (std::size_t s = 0; s < samples.size(); ++s) {
    if (!use[s]) continue;
    const PatternSamples::Sample& sample = samples.samples[s];
    RowOf(samples, sample, row);
    const double y = LabelOf(sample, label) - sample.score_difference;
    for (const auto& [ci, xi] : row) {
      const int i = compact[ci];
      if (i < 0) continue;
      right(i) += xi * y;
      for (const auto& [cj, xj] : row) {
        const int j = compact[cj];
        if (j >= i) normal(i, j) += xi * xj;
      }
    }
  }
  normal.diagonal().array() += lambda;
  const Eigen::VectorXd solution = normal.selfadjointView<Eigen::Upper>().ldlt().solve(right);
  for (int i = 0; i < m; ++i) fit.values[column_of[i]] = solution(i);
  for (int k = 0; k < patterns::kNumPatterns; ++k) {
    auto round = [](double points) {
      return static_cast<std::int16_t>(std::clamp(std::lround(points * kPoint), -30000L, 30000L));
    };
    fit.weights.values[k] = {round(fit.values[k]), round(fit.values[patterns::kNumPatterns + k])};
  }
  return fit;
}

double PredictPoints(const PatternSamples& samples, const PatternSamples::Sample& sample,
                     const std::vector<double>& values) {
  const double t = static_cast<double>(sample.ply) / kTotalPlies;
  double sum = sample.score_difference;
  for (std::uint32_t i = 0; i < sample.num_terms; ++i) {
    const PatternTerm term = samples.terms[sample.first_term + i];
    sum += term.sign *
           ((1 - t) * values[term.pattern] + t * values[patterns::kNumPatterns + term.pattern]);
  }
  return sum;
}

PatternSamples PlantedSamples(const std::vector<double>& values, int games, std::uint64_t seed) {
  PatternSamples samples;
  std::mt19937_64 rng(seed);
  for (int game = 0; game < games; ++game) {
    Position position = Position::Start();
    while (position.PliesLeft() > 1) {
      PatternSamples::Sample sample;
      sample.game = game;
      sample.pair = game / 2;
      samples.Add(position, sample);
      PatternSamples::Sample& added = samples.samples.back();
      added.later = static_cast<float>(PredictPoints(samples, added, values));
      const MoveList moves = LegalMoves(position);
      position.Play(moves[static_cast<int>(rng() % moves.size())]);
    }
  }
  return samples;
}

}  // namespace divercite
