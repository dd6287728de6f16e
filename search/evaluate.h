// The static evaluation: the expected final margin, in centipoints, from the side to move's
// point of view. The current score difference, plus what the seeds' evaluations missed: the
// cities that can still become a divercité and who can complete or spoil them, the
// own-colour resources still to come, and the cities each player holds back.
#ifndef DIVERCITE_SEARCH_EVALUATE_H_
#define DIVERCITE_SEARCH_EVALUATE_H_

#include <string>

#include "engine/position.h"
#include "search/eval_weights.h"

namespace divercite {

// Each term from the side to move's view; their sum is the evaluation.
struct EvalTerms {
  int score_difference = 0;
  int open_three = 0;
  int open_divercite = 0;
  int own_colour_slots = 0;
  int cities_in_hand = 0;
  int Total() const {
    return score_difference + open_three + open_divercite + own_colour_slots + cities_in_hand;
  }
};

EvalTerms EvaluateTerms(const Position& position, const EvalWeights& weights = {});
inline int Evaluate(const Position& position, const EvalWeights& weights = {}) {
  return EvaluateTerms(position, weights).Total();
}

// What the final margin can still become, in centipoints from the side to move's view, with
// any play: settled cities keep their value, an open city ends between its own-colour count
// now and 5 (divercité still possible) or that count plus its empty neighbours, a city in
// hand is worth 0 to 5, and the tie-break moves a level margin by at most 2 points.
struct MarginBounds {
  int lower;
  int upper;
};
MarginBounds FinalMarginBounds(const Position& position);

// The exact value of a finished game: 100 x final margin, side to move's view.
inline int FinalValue(const Position& position) {
  const Player us = position.SideToMove();
  return 100 * (position.Score(us) - position.Score(Opponent(us)));
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVALUATE_H_
