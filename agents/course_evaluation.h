// The evaluations of the course agents (seeds/000, annex and report), always from the agent's
// own point of view ("me" = the player the agent moves for, whoever is to move in `position`):
//
//   my_score - opponent_score
//     + (1 - city_rate * step / 40) * my_cities_left
//     + (1 + resource_rate * step / 40) * my_resources_left
//
// where step is the number of plies played. little_garden keeps only the score difference.
//
// The arithmetic is IEEE double in exactly the Python order, ((diff + a * cities) + b *
// resources), so that ties and near-ties between states break as they did in the course code.
// This is why the agents library (and agents_test) is compiled with -ffp-contract=off: a fused
// multiply-add would round differently. Any other file including this header needs it too.
#ifndef DIVERCITE_AGENTS_COURSE_EVALUATION_H_
#define DIVERCITE_AGENTS_COURSE_EVALUATION_H_

#include <array>

#include "engine/position.h"
#include "engine/types.h"

namespace divercite {

struct CourseEvaluation {
  bool piece_terms = true;  // false: score difference only (little_garden)
  int city_rate = 0;
  int resource_rate = 0;
};

// "player_score - opponent_score" (little_garden).
inline constexpr CourseEvaluation kLittleGardenEvaluation{.piece_terms = false};
// "(1 - 2 * state.step/40) * nb_cite + (1 + 4 * state.step/40) * nb_ressource" (water_seven,
// skypiea_v2).
inline constexpr CourseEvaluation kWaterSevenEvaluation{.city_rate = 2, .resource_rate = 4};
// "(1 - 24 * state.step / 40) * nb_cite + (1 + 24 * state.step / 40) * nb_ressource" (the
// annex code of skypiea_v5; the report's text says 27 for resources, the code 24).
inline constexpr CourseEvaluation kSkypieaV5Evaluation{.city_rate = 24, .resource_rate = 24};
// "(1 - 4 * state.step / 40) * nb_cite + (1 + 4 * state.step / 40) * nb_ressource"
// (Impel Down).
inline constexpr CourseEvaluation kImpelDownEvaluation{.city_rate = 4, .resource_rate = 4};

// Number of pieces of `kind` that `player` still holds.
inline int PiecesLeftOfKind(const Position& position, Player player, Kind kind) {
  return position.PiecesLeft(player, kind, Colour::kRed) +
         position.PiecesLeft(player, kind, Colour::kGreen) +
         position.PiecesLeft(player, kind, Colour::kBlue) +
         position.PiecesLeft(player, kind, Colour::kYellow);
}

class CourseEvaluator {
 public:
  CourseEvaluator(const CourseEvaluation& evaluation, Player me)
      : me_(me), piece_terms_(evaluation.piece_terms) {
    // The per-step weights, computed once as the Python expression computes them each time:
    // an integer product, a true division, then 1 -/+ that.
    for (int step = 0; step <= kTotalPlies; ++step) {
      city_weight_[step] = 1.0 - static_cast<double>(evaluation.city_rate * step) / 40.0;
      resource_weight_[step] = 1.0 + static_cast<double>(evaluation.resource_rate * step) / 40.0;
    }
  }

  Player me() const { return me_; }

  double operator()(const Position& position) const {
    const double difference = position.Score(me_) - position.Score(Opponent(me_));
    if (!piece_terms_) return difference;
    const int step = position.Ply();
    const double cities = PiecesLeftOfKind(position, me_, Kind::kCity);
    const double resources = PiecesLeftOfKind(position, me_, Kind::kResource);
    return (difference + city_weight_[step] * cities) + resource_weight_[step] * resources;
  }

 private:
  Player me_;
  bool piece_terms_;
  std::array<double, kTotalPlies + 1> city_weight_{};
  std::array<double, kTotalPlies + 1> resource_weight_{};
};

}  // namespace divercite

#endif  // DIVERCITE_AGENTS_COURSE_EVALUATION_H_
