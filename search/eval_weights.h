// The evaluation's weights, in centipoints (100 = one point of the final margin), and the
// options that set them. The search's own constants are in search/search_params.h.
#ifndef DIVERCITE_SEARCH_EVAL_WEIGHTS_H_
#define DIVERCITE_SEARCH_EVAL_WEIGHTS_H_

namespace divercite {

// The evaluation's weights; each can be changed at run time as a UCI option
// (kEvalWeightOptions), so that variants are compared in matches.
//
// How the defaults were set. divercite-tune fitted them by least squares to 1,400 self-play
// games of the previous weights (1,200 at tc=1+0.02, seed 4242, and 200 at tc=10): 28,009
// positions, each against the exact score reached later in its game. Mean squared error of
// the predicted final margin, in points squared: 5.60 -> 3.13 on those games, 5.62 -> 3.14 on
// the 1/5 of games held out. The previous weights (80, 30, 25, 60, 25, 25, -40, 0, 0) were
// set by hand, except city_in_hand, set by matches against skypiea_v5. Matches then decided
// (tc=2+0.05, random 4-ply openings, both colours, concurrency 2):
//   fitted vs previous, 400 games (seed 8181):  340-57-3, 85.4 %, +306 +/- 48 Elo
//   against skypiea_v5, 200 games (seed 9191):  fitted 97.5 %, previous 93.0 %
// Fitting city_in_hand too (+29) predicted better than keeping the match-tuned -40 (mean
// squared error 3.13 against 3.37) and is what the match above played.
struct EvalWeights {
  // A city with three neighbours of three colours: the fourth colour makes a divercité.
  // Per point it would gain, when the city's owner is to move and holds that colour...
  int open_three_owner_to_move = 45;
  // ...when the owner waits (the side to move may spoil it, one city per move)...
  int open_three_owner_waiting = 37;
  // ...and for each further open three of the same owner (one spoil per move is not enough).
  int open_three_extra_threat = 5;
  // A city with two neighbours of two colours and two empty: still on the way to a divercité.
  int open_two = 100;
  // A city with one or no neighbour yet: little is settled.
  int open_one = 110;
  // Each empty neighbour of a city that can no longer be a divercité: an own-colour resource
  // may still come (+1 point).
  int own_colour_slot = 20;
  // Each city held in hand beyond the opponent's (so, minus each resource held beyond the
  // opponent's): a city placed late takes the best of the cells left.
  int city_in_hand = 29;
  // Being to move, as the first player and as the second (who places the last piece of the
  // game). Within one depth they change no choice (every leaf has the same side to move);
  // they make the score an estimate of the final margin at odd and even depths alike.
  int tempo_first_player = -25;
  int tempo_second_player = 144;
};

struct EvalWeightOption {
  const char* name;
  int EvalWeights::*weight;
  int min, max;
};
inline constexpr EvalWeightOption kEvalWeightOptions[] = {
    {"EvalOpenThreeToMove", &EvalWeights::open_three_owner_to_move, -1000, 1000},
    {"EvalOpenThreeWaiting", &EvalWeights::open_three_owner_waiting, -1000, 1000},
    {"EvalOpenThreeExtra", &EvalWeights::open_three_extra_threat, -1000, 1000},
    {"EvalOpenTwo", &EvalWeights::open_two, -1000, 1000},
    {"EvalOpenOne", &EvalWeights::open_one, -1000, 1000},
    {"EvalOwnColourSlot", &EvalWeights::own_colour_slot, -1000, 1000},
    {"EvalCityInHand", &EvalWeights::city_in_hand, -1000, 1000},
    {"EvalTempoFirstPlayer", &EvalWeights::tempo_first_player, -1000, 1000},
    {"EvalTempoSecondPlayer", &EvalWeights::tempo_second_player, -1000, 1000},
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVAL_WEIGHTS_H_
