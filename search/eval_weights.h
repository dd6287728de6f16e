// Every tuning constant of the evaluation and the search, one line each. Values are in
// centipoints (100 = one point of the final margin) unless said otherwise.
#ifndef DIVERCITE_SEARCH_EVAL_WEIGHTS_H_
#define DIVERCITE_SEARCH_EVAL_WEIGHTS_H_

namespace divercite::weights {

// --- Evaluation -----------------------------------------------------------------------------
// A point on the board is a point of the final margin.
inline constexpr int kPoint = 100;
// A city with three neighbours of three colours: the fourth colour makes a divercité.
// Per point it would gain, when the city's owner is to move and holds that colour...
inline constexpr int kOpenThreeOwnerToMove = 80;
// ...when the owner waits (the side to move may spoil it, one city per move)...
inline constexpr int kOpenThreeOwnerWaiting = 30;
// ...and for each further open three of the same owner (one spoil per move is not enough).
inline constexpr int kOpenThreeExtraThreat = 25;
// A city with two neighbours of two colours and two empty: still on the way to a divercité.
inline constexpr int kOpenTwo = 60;
// A city with one or no neighbour yet: little is settled.
inline constexpr int kOpenOne = 25;
// Each empty neighbour of a city that can no longer be a divercité: an own-colour resource may
// still come (+1 point).
inline constexpr int kOwnColourSlot = 25;
// Each city held in hand beyond the opponent's: a late city picks its spot on a known board.
inline constexpr int kCityInHand = 15;

// --- Search ---------------------------------------------------------------------------------
// Aspiration window half-width at the first try, widened x4 on each failure.
inline constexpr int kAspirationWindow = 60;
// The solver takes over once the end of the game is this many plies beyond the next
// iteration's depth (the evaluation's iterations only order moves for it).
inline constexpr int kSolverReach = 6;
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
