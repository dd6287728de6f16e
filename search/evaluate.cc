#include "search/evaluate.h"

#include <algorithm>
#include <array>
#include <bit>

#include "search/eval_weights.h"

namespace divercite {

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

EvalTerms WeighFeatures(const EvalFeatures& f, const EvalWeights& w) {
  EvalTerms terms;
  terms.score_difference = kPoint * f.score_difference;
  terms.open_three = f.own_three_gain * w.open_three_owner_to_move +
                     f.their_three_gain * w.open_three_owner_waiting +
                     f.extra_threats * w.open_three_extra_threat;
  terms.open_divercite = f.open_twos * w.open_two + f.open_ones * w.open_one;
  terms.own_colour_slots = f.own_colour_slots * w.own_colour_slot;
  terms.cities_in_hand = f.cities_held * w.city_in_hand;
  terms.tempo = f.first_player_to_move * w.tempo_first_player +
                f.second_player_to_move * w.tempo_second_player;
  return terms;
}

}  // namespace divercite
