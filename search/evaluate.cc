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

MarginBounds FinalMarginBounds(const Position& position) {
  const Player us = position.SideToMove();
  const Bitboard occupied = position.Occupied();
  // Resources of each colour still to be placed, by either player: a city can only gain
  // what is left.
  std::array<int, kNumColours> resources_left{};
  unsigned exhausted = 0;  // one bit per colour of which no resource is left
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    resources_left[c] = position.PiecesLeft(Player::kFirst, Kind::kResource, colour) +
                        position.PiecesLeft(Player::kSecond, Kind::kResource, colour);
    if (resources_left[c] == 0) exhausted |= 1u << c;
  }
  // Whether a city with these neighbours filled and these colours present can still see four
  // colours around it: no colour twice, and every missing colour still to come.
  auto divercite_possible = [exhausted](Bitboard filled, unsigned present) {
    return std::popcount(present) == PopCount(filled) && !(exhausted & ~present);
  };
  // The score is the sum of the cities' values now, and a value never drops as resources
  // come: the score now is the least a player ends with. Only the open cities (with an empty
  // neighbour) can still gain.
  const int low[kNumPlayers] = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
  int high[kNumPlayers] = {low[0], low[1]};
  const Bitboard holes = kResourceCells & ~occupied;
  Bitboard open_cities = 0;
  for (Bitboard cells = holes; cells;) open_cities |= Neighbours(PopLowestCell(cells));
  // A city that can no longer be a divercité gains only its own colour's resources, one point
  // each: per owner and colour, what those cities could take, and which they are.
  int own_gain[kNumPlayers][kNumColours] = {};
  Bitboard gaining[kNumPlayers][kNumColours] = {};
  for (Bitboard cities = open_cities & occupied; cities;) {
    const int city = PopLowestCell(cities);
    const int colour = Index(position.ColourAt(city));
    const int owner = Index(position.OwnerAt(city));
    const Bitboard around = Neighbours(city);
    const Bitboard filled = occupied & around;
    if (divercite_possible(filled, position.ColoursOn(around))) {
      high[owner] +=
          kDivercitePoints - PopCount(position.PiecesOf(static_cast<Colour>(colour)) & around);
    } else if (resources_left[colour] > 0) {
      own_gain[owner][colour] += std::min(PopCount(around & ~filled), resources_left[colour]);
      gaining[owner][colour] |= Bit(city);
    }
  }
  // Each resource adds a point to each city of its colour around its cell, no more: a colour's
  // few resources cannot reach every city that waits for one.
  for (int p = 0; p < kNumPlayers; ++p) {
    for (int c = 0; c < kNumColours; ++c) {
      int gain = own_gain[p][c];
      if (gain > resources_left[c]) {
        int reach = 0;  // the most such cities one cell touches
        for (Bitboard cells = holes; cells;) {
          reach = std::max(reach, PopCount(Neighbours(PopLowestCell(cells)) & gaining[p][c]));
        }
        gain = std::min(gain, reach * resources_left[c]);
      }
      high[p] += gain;
    }
  }
  // The cities in hand fill the empty city cells (as many of each); each player's best
  // case takes the cells of most potential for the colours of the cities it holds.
  unsigned city_colours[kNumPlayers] = {0, 0};
  int cities_in_hand[kNumPlayers] = {0, 0};
  for (int p = 0; p < kNumPlayers; ++p) {
    for (int c = 0; c < kNumColours; ++c) {
      const int n =
          position.PiecesLeft(static_cast<Player>(p), Kind::kCity, static_cast<Colour>(c));
      cities_in_hand[p] += n;
      if (n > 0) city_colours[p] |= 1u << c;
    }
  }
  std::array<std::array<int, kNumCityCells>, kNumPlayers> potential{};
  int empty_city_cells = 0;
  for (Bitboard cells = kCityCells & ~occupied; cells;) {
    const int cell = PopLowestCell(cells);
    const Bitboard around = Neighbours(cell);
    const Bitboard filled = occupied & around;
    int best[kNumPlayers] = {kDivercitePoints, kDivercitePoints};
    if (!divercite_possible(filled, position.ColoursOn(around))) {
      const int empty = PopCount(around & ~filled);
      for (int p = 0; p < kNumPlayers; ++p) {
        best[p] = 0;
        for (unsigned colours = city_colours[p]; colours; colours &= colours - 1) {
          const int c = std::countr_zero(colours);
          best[p] = std::max(best[p], PopCount(position.PiecesOf(static_cast<Colour>(c)) & around) +
                                          std::min(empty, resources_left[c]));
        }
      }
    }
    // Kept sorted, most first (a few cells: insertion is cheaper than a sort call).
    for (int p = 0; p < kNumPlayers; ++p) {
      int i = empty_city_cells;
      for (; i > 0 && potential[p][i - 1] < best[p]; --i) potential[p][i] = potential[p][i - 1];
      potential[p][i] = best[p];
    }
    ++empty_city_cells;
  }
  for (int p = 0; p < kNumPlayers; ++p) {
    for (int i = 0; i < cities_in_hand[p]; ++i) high[p] += potential[p][i];
  }
  // The last-move tie-break moves only a level score: to +1 for either player, or, from the
  // first player's view, to 0 or +2 (the n = 2 comparison then the unconditional point).
  const int me = Index(us), them = 1 - me;
  int lower = low[me] - high[them];
  int upper = high[me] - low[them];
  if (lower <= 0 && 0 <= upper) {
    const bool first = us == Player::kFirst;
    lower = std::min(lower, first ? -1 : -2);
    upper = std::max(upper, first ? 2 : 1);
  }
  return {kPoint * lower, kPoint * upper};
}

}  // namespace divercite
