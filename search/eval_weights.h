// Every tuning constant of the evaluation and the search, one line each. Values are in
// centipoints (100 = one point of the final margin) unless said otherwise.
#ifndef DIVERCITE_SEARCH_EVAL_WEIGHTS_H_
#define DIVERCITE_SEARCH_EVAL_WEIGHTS_H_

namespace divercite::weights {

// --- Evaluation -----------------------------------------------------------------------------
// A point on the board is a point of the final margin.
inline constexpr int kPoint = 100;

}  // namespace divercite::weights

namespace divercite {

// The evaluation's weights. The defaults are the tuned values; each can be changed at run
// time as a UCI option (kEvalWeightOptions), so that variants are compared in matches.
struct EvalWeights {
  // A city with three neighbours of three colours: the fourth colour makes a divercité.
  // Per point it would gain, when the city's owner is to move and holds that colour...
  int open_three_owner_to_move = 80;
  // ...when the owner waits (the side to move may spoil it, one city per move)...
  int open_three_owner_waiting = 30;
  // ...and for each further open three of the same owner (one spoil per move is not enough).
  int open_three_extra_threat = 25;
  // A city with two neighbours of two colours and two empty: still on the way to a divercité.
  int open_two = 60;
  // A city with one or no neighbour yet: little is settled.
  int open_one = 25;
  // Each empty neighbour of a city that can no longer be a divercité: an own-colour resource
  // may still come (+1 point).
  int own_colour_slot = 25;
  // Each city held in hand beyond the opponent's (so, negative: each resource held beyond
  // the opponent's). Resources decide what cities end up worth; holding them late controls
  // the last fills, which is what skypiea_v5's evaluation rewards. Measured against
  // skypiea_v5 (engine tc=10, 40 games, same 20 openings, both colours):
  //   +15: 75.0 %   -40: 88.75 %   -60: 77.5 %   -100: 60.0 %
  // and in self-play, +40 against +15: -35 +/- 76 Elo (60 games, tc=3+0.05).
  int city_in_hand = -40;
  // Being to move, as the first player and as the second (who places the last piece of the
  // game). Within one depth they change no choice (every leaf has the same side to move);
  // they make the score an estimate of the final margin at odd and even depths alike.
  int tempo_first_player = 0;
  int tempo_second_player = 0;
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

namespace divercite::weights {

// --- Search ---------------------------------------------------------------------------------
// Aspiration window half-width at the first try, widened x4 on each failure.
inline constexpr int kAspirationWindow = 60;
// The solver takes over once the end of the game is this many plies beyond the next
// iteration's depth (the evaluation's iterations only order moves for it).
inline constexpr int kSolverReach = 6;
// Solving nodes with at most this many plies left go to the lean endgame solver.
inline constexpr int kEndgameSolverPlies = 14;
// The endgame solver uses the table from this many plies left up.
inline constexpr int kEndgameTableMinPlies = 3;
// ...orders its moves by the evaluation after them from this many plies left up...
inline constexpr int kEndgameEvalOrderingMinPlies = 11;
// ...and looks its children up in the table before searching from this many plies left up.
inline constexpr int kEndgameEtcMinPlies = 6;
// While solving, moves are ordered by the evaluation after them from this depth up.
inline constexpr int kEvalOrderingMinDepth = 5;
// While solving, children are looked up in the table before searching from this depth up.
inline constexpr int kEtcMinDepth = 4;
// Late move reductions: no reduction for the first moves or at shallow depth.
inline constexpr int kLmrMinDepth = 3;
inline constexpr int kLmrFirstReducedMove = 4;
// reduction = log(depth) * log(move number) / kLmrDivisor (in hundredths).
inline constexpr int kLmrDivisor = 200;

}  // namespace divercite::weights

#endif  // DIVERCITE_SEARCH_EVAL_WEIGHTS_H_
