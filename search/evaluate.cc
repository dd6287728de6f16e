#include "search/evaluate.h"

#include <algorithm>
#include <bit>

#include "search/eval_weights.h"

namespace divercite {

EvalTerms EvaluateTerms(const Position& position, const EvalWeights& w) {
  EvalTerms terms;
  const Player us = position.SideToMove();
  const Player them = Opponent(us);
  terms.score_difference = weights::kPoint * (position.Score(us) - position.Score(them));

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
    const int sign = owner == Index(us) ? 1 : -1;
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
          terms.open_three += sign * gain *
                              (owner == Index(us) ? w.open_three_owner_to_move
                                                  : w.open_three_owner_waiting);
        }
      } else {
        terms.open_divercite += sign * (pieces == 2 ? w.open_two : w.open_one);
      }
    } else {
      terms.own_colour_slots += sign * empty * w.own_colour_slot;
    }
  }
  // A player with several open threes keeps some of them: one spoil per move.
  for (int p = 0; p < kNumPlayers; ++p) {
    if (threes[p] > 1) {
      const int sign = p == Index(us) ? 1 : -1;
      terms.open_three += sign * (threes[p] - 1) * best_three[p] * w.open_three_extra_threat;
    }
  }
  int cities_held = 0;
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    cities_held += position.PiecesLeft(us, Kind::kCity, colour) -
                   position.PiecesLeft(them, Kind::kCity, colour);
  }
  terms.cities_in_hand = cities_held * w.city_in_hand;
  return terms;
}

MarginBounds FinalMarginBounds(const Position& position) {
  const Player us = position.SideToMove();
  const Bitboard occupied = position.Occupied();
  int low[kNumPlayers] = {0, 0};
  int high[kNumPlayers] = {0, 0};
  for (Bitboard cities = occupied & kCityCells; cities;) {
    const int city = PopLowestCell(cities);
    const Bitboard around = Neighbours(city);
    const int owner = Index(position.OwnerAt(city));
    const int own = PopCount(position.PiecesOf(position.ColourAt(city)) & around);
    const Bitboard filled = occupied & around;
    if (filled == around) {
      const int value = position.CityValue(city, position.ColourAt(city));
      low[owner] += value;
      high[owner] += value;
      continue;
    }
    const bool divercite_possible = std::popcount(position.ColoursOn(around)) == PopCount(filled);
    low[owner] += own;
    high[owner] += divercite_possible ? kDivercitePoints : own + PopCount(around & ~filled);
  }
  for (int p = 0; p < kNumPlayers; ++p) {
    for (int c = 0; c < kNumColours; ++c) {
      high[p] += kDivercitePoints *
                 position.PiecesLeft(static_cast<Player>(p), Kind::kCity, static_cast<Colour>(c));
    }
  }
  constexpr int kTieBreakPoints = 2;
  const int me = Index(us), them = 1 - me;
  return {weights::kPoint * (low[me] - high[them] - kTieBreakPoints),
          weights::kPoint * (high[me] - low[them] + kTieBreakPoints)};
}

}  // namespace divercite
