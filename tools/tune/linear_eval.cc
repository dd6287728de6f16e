#include "tools/tune/linear_eval.h"

#include <algorithm>
#include <bit>

#include "search/value.h"

namespace divercite {
namespace {

// What the evaluation counts, before any weight, from the side to move's view.
struct EvalFeatures {
  int score_difference = 0;       // points
  int own_three_gain = 0;         // points our open threes would gain (we move: we complete one)
  int their_three_gain = 0;       // minus the points the opponent's open threes would gain
  int extra_threats = 0;          // (threes - 1) x best gain, ours minus theirs
  int open_twos = 0;              // cities with two colours and two holes, ours minus theirs
  int open_ones = 0;              // cities with one or no neighbour, ours minus theirs
  int own_colour_slots = 0;       // empty neighbours of cities past a divercité, ours minus theirs
  int cities_held = 0;            // cities in hand, ours minus theirs
  int first_player_to_move = 0;   // 1 or 0
  int second_player_to_move = 0;  // 1 or 0
};

// The weights, in centipoints per unit of feature, as the engine last played them (e006a31,
// fitted by least squares to self-play games; see search/NOTES.md, "The linear evaluation").
struct LinearWeights {
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
  // game): they make the score an estimate of the final margin at odd and even depths alike.
  int tempo_first_player = -25;
  int tempo_second_player = 144;
};
inline constexpr LinearWeights kWeights;

EvalFeatures ComputeEvalFeatures(const Position& position) {
  EvalFeatures features;
  const Player us = position.SideToMove();
  const Player them = Opponent(us);
  features.score_difference = position.Score(us) - position.Score(them);
  features.first_player_to_move = us == Player::kFirst;
  features.second_player_to_move = us == Player::kSecond;

  const Bitboard occupied = position.Occupied();
  // Open threes per owner: the best gain and the number of them.
  int best_three[kNumPlayers] = {0, 0};
  int threes[kNumPlayers] = {0, 0};
  for (Bitboard cities = occupied & kCityCells; cities;) {
    const int city = PopLowestCell(cities);
    const Bitboard around = Neighbours(city);
    const Bitboard filled = occupied & around;
    if (filled == around) continue;  // its value is final
    const int owner = Index(position.OwnerAt(city));
    const bool ours = owner == Index(us);
    const int sign = ours ? 1 : -1;
    const Colour colour = position.ColourAt(city);
    const unsigned colours_present = position.ColoursOn(around);
    const int pieces = PopCount(filled);
    const int empty = 4 - pieces;
    if (PopCount(colours_present) == pieces) {  // no colour twice: a divercité is possible
      if (pieces == 3) {
        const Colour missing = static_cast<Colour>(std::countr_zero(~colours_present & 15u));
        const int gain = kDivercitePoints - PopCount(position.PiecesOf(colour) & around);
        // Only the owner completes it on purpose, and only with the missing colour in hand.
        if (position.PiecesLeft(static_cast<Player>(owner), Kind::kResource, missing) > 0) {
          best_three[owner] = std::max(best_three[owner], gain);
          ++threes[owner];
          (ours ? features.own_three_gain : features.their_three_gain) += sign * gain;
        }
      } else {
        (pieces == 2 ? features.open_twos : features.open_ones) += sign;
      }
    } else {
      features.own_colour_slots += sign * empty;
    }
  }
  // A player with several open threes keeps some of them: one spoil per move.
  for (int p = 0; p < kNumPlayers; ++p) {
    if (threes[p] > 1) {
      const int sign = p == Index(us) ? 1 : -1;
      features.extra_threats += sign * (threes[p] - 1) * best_three[p];
    }
  }
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    features.cities_held += position.PiecesLeft(us, Kind::kCity, colour) -
                            position.PiecesLeft(them, Kind::kCity, colour);
  }
  return features;
}

}  // namespace

int EvaluateLinear(const Position& position) {
  const EvalFeatures f = ComputeEvalFeatures(position);
  const LinearWeights& w = kWeights;
  return kPoint * f.score_difference + f.own_three_gain * w.open_three_owner_to_move +
         f.their_three_gain * w.open_three_owner_waiting +
         f.extra_threats * w.open_three_extra_threat + f.open_twos * w.open_two +
         f.open_ones * w.open_one + f.own_colour_slots * w.own_colour_slot +
         f.cities_held * w.city_in_hand + f.first_player_to_move * w.tempo_first_player +
         f.second_player_to_move * w.tempo_second_player;
}

}  // namespace divercite
