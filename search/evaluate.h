// The static evaluation: the expected final margin, in centipoints, from the side to move's
// point of view. The current score difference, plus what the seeds' evaluations missed: the
// cities that can still become a divercité and who can complete or spoil them, the
// own-colour resources still to come, and the cities each player holds back.
#ifndef DIVERCITE_SEARCH_EVALUATE_H_
#define DIVERCITE_SEARCH_EVALUATE_H_

#include <string>

#include "engine/position.h"

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

EvalTerms EvaluateTerms(const Position& position);
inline int Evaluate(const Position& position) { return EvaluateTerms(position).Total(); }

// The exact value of a finished game: 100 x final margin, side to move's view.
inline int FinalValue(const Position& position) {
  const Player us = position.SideToMove();
  return 100 * (position.Score(us) - position.Score(Opponent(us)));
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVALUATE_H_
