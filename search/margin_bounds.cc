// The margin bounds (search/margin_bounds.h), computed for all cities at once.
#include "search/margin_bounds.h"

#include <algorithm>
#include <array>
#include <bit>

#include "search/value.h"

namespace divercite {

namespace {

// The bounds read each city's four neighbours for all cities at once. A city's left and
// right neighbours are the cells just before and after it (a row never ends on a city); the
// cells above and below it are 2, 4, 6 or 8 cells away, by its row, so the cities are grouped
// by those distances: up[k] holds the cities whose upper neighbour is 2k cells before them,
// down[k] those whose lower neighbour is 2k cells after.
struct CityShifts {
  std::array<Bitboard, 5> up{};
  std::array<Bitboard, 5> down{};
};

constexpr CityShifts MakeCityShifts() {
  CityShifts shifts;
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (!IsCityCell(cell)) continue;
    const Bitboard vertical = Neighbours(cell) & ~(Bit(cell - 1) | Bit(cell + 1));
    shifts.up[(cell - LowestCell(vertical)) / 2] |= Bit(cell);
    shifts.down[(63 - std::countl_zero(vertical) - cell) / 2] |= Bit(cell);
  }
  return shifts;
}

inline constexpr CityShifts kCityShifts = MakeCityShifts();

constexpr bool ShiftsDescribeTheBoard() {
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (!IsCityCell(cell)) continue;
    Bitboard expected = Bit(cell - 1) | Bit(cell + 1);
    for (int k = 1; k <= 4; ++k) {
      if (kCityShifts.up[k] & Bit(cell)) expected |= Bit(cell - 2 * k);
      if (kCityShifts.down[k] & Bit(cell)) expected |= Bit(cell + 2 * k);
    }
    if (expected != Neighbours(cell)) return false;
  }
  return true;
}
static_assert(ShiftsDescribeTheBoard());

// The cities with a cell of `cells` above, below, left and right of them.
std::array<Bitboard, 4> CitiesNextTo(Bitboard cells) {
  Bitboard up = 0, down = 0;
  for (int k = 1; k <= 4; ++k) {
    up |= (cells << (2 * k)) & kCityShifts.up[k];
    down |= (cells >> (2 * k)) & kCityShifts.down[k];
  }
  return {up, down, (cells << 1) & kCityCells, (cells >> 1) & kCityCells};
}

// The cells with a city of `cities` below, above, right and left of them.
std::array<Bitboard, 4> CellsNextTo(Bitboard cities) {
  Bitboard above = 0, below = 0;
  for (int k = 1; k <= 4; ++k) {
    above |= (cities & kCityShifts.up[k]) >> (2 * k);
    below |= (cities & kCityShifts.down[k]) << (2 * k);
  }
  return {above, below, cities >> 1, cities << 1};
}

// A count from 0 to 4 per cell, in three bit planes: how many of four sets hold the cell.
struct CellCounts {
  Bitboard ones, twos, fours;
  explicit CellCounts(const std::array<Bitboard, 4>& sets) {
    const Bitboard sum1 = sets[0] ^ sets[1], carry1 = sets[0] & sets[1];
    const Bitboard sum2 = sets[2] ^ sets[3], carry2 = sets[2] & sets[3];
    const Bitboard carry = sum1 & sum2;
    ones = sum1 ^ sum2;
    twos = carry1 ^ carry2 ^ carry;
    fours = (carry1 & carry2) | (carry1 & carry) | (carry2 & carry);
  }
  Bitboard AtLeast(int n) const {
    switch (n) {
      case 1:
        return ones | twos | fours;
      case 2:
        return twos | fours;
      case 3:
        return (ones & twos) | fours;
      default:
        return fours;
    }
  }
  int At(int cell) const {
    return static_cast<int>(((ones >> cell) & 1) + 2 * ((twos >> cell) & 1) +
                            4 * ((fours >> cell) & 1));
  }
  int SumOver(Bitboard cells) const {
    return PopCount(ones & cells) + 2 * PopCount(twos & cells) + 4 * PopCount(fours & cells);
  }
};

}  // namespace

MarginBounds FinalMarginBounds(const Position& position) {
  const Player us = position.SideToMove();
  const Bitboard occupied = position.Occupied();
  const Bitboard holes = kResourceCells & ~occupied;
  // Resources of each colour still to be placed, by either player: a city can only gain
  // what is left.
  std::array<int, kNumColours> resources_left{};
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    resources_left[c] = position.PiecesLeft(Player::kFirst, Kind::kResource, colour) +
                        position.PiecesLeft(Player::kSecond, Kind::kResource, colour);
  }
  // Per city cell: its empty neighbours, and its neighbours of each colour.
  const CellCounts hole_count(CitiesNextTo(holes));
  std::array<CellCounts, kNumColours> colour_count{
      CellCounts(CitiesNextTo(position.PiecesOf(Colour::kRed) & kResourceCells)),
      CellCounts(CitiesNextTo(position.PiecesOf(Colour::kGreen) & kResourceCells)),
      CellCounts(CitiesNextTo(position.PiecesOf(Colour::kBlue) & kResourceCells)),
      CellCounts(CitiesNextTo(position.PiecesOf(Colour::kYellow) & kResourceCells))};
  // The cells that can still see four colours around them: no colour twice, and every
  // colour of which no resource is left already there.
  Bitboard divercite_possible = kCityCells;
  for (int c = 0; c < kNumColours; ++c) {
    divercite_possible &= ~colour_count[c].AtLeast(2);
    if (resources_left[c] == 0) divercite_possible &= colour_count[c].AtLeast(1);
  }
  // The own-colour neighbours of the cities of `cities`, summed.
  auto own_colour_sum = [&](Bitboard cities) {
    int sum = 0;
    for (int c = 0; c < kNumColours; ++c) {
      sum += colour_count[c].SumOver(cities & position.PiecesOf(static_cast<Colour>(c)));
    }
    return sum;
  };
  // The score is the sum of the cities' values now, and a value never drops as resources
  // come: the score now is the least a player ends with. Only the open cities (with an empty
  // neighbour) can still gain: up to 5 if a divercité is still possible, else one point per
  // resource of their colour, as many as they have holes and as the colour has resources
  // left; and each resource adds a point to each city of its colour around its cell, no more.
  const Bitboard open_cities = kCityCells & occupied & hole_count.AtLeast(1);
  const int low[kNumPlayers] = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
  int high[kNumPlayers] = {low[0], low[1]};
  for (int p = 0; p < kNumPlayers; ++p) {
    const Bitboard mine = open_cities & position.PiecesOf(static_cast<Player>(p));
    const Bitboard divercites = mine & divercite_possible;
    high[p] += kDivercitePoints * PopCount(divercites) - own_colour_sum(divercites);
    for (int c = 0; c < kNumColours; ++c) {
      const Bitboard gaining =
          mine & ~divercite_possible & position.PiecesOf(static_cast<Colour>(c));
      if (!gaining || resources_left[c] == 0) continue;
      int gain = 0;
      for (int n = 1; n <= std::min(resources_left[c], 4); ++n) {
        gain += PopCount(hole_count.AtLeast(n) & gaining);
      }
      if (gain > resources_left[c]) {
        const CellCounts reach(CellsNextTo(gaining));  // such cities around each cell
        int most = 1;
        for (int n = 4; n > 1; --n) {
          if (reach.AtLeast(n) & holes) {
            most = n;
            break;
          }
        }
        gain = std::min(gain, most * resources_left[c]);
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
  std::array<std::array<int, kNumCityCells>, kNumPlayers> potential;
  int empty_city_cells = 0;
  for (Bitboard cells = kCityCells & ~occupied; cells;) {
    const int cell = PopLowestCell(cells);
    int best[kNumPlayers] = {kDivercitePoints, kDivercitePoints};
    if (!(divercite_possible & Bit(cell))) {
      const int empty = hole_count.At(cell);
      for (int p = 0; p < kNumPlayers; ++p) {
        best[p] = 0;
        for (unsigned colours = city_colours[p]; colours; colours &= colours - 1) {
          const int c = std::countr_zero(colours);
          best[p] =
              std::max(best[p], colour_count[c].At(cell) + std::min(empty, resources_left[c]));
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
  // first player's view, to 0 or +2. The +2 needs the first player to end with more cities
  // of exactly two own-colour neighbours than the second. A city ends so if it has two and no
  // resource of its colour is left; it can only if it has two, or one and a resource of its
  // colour is left, or none and two holes and two such resources (or is still in hand).
  const int me = Index(us), them = 1 - me;
  int lower = low[me] - high[them];
  int upper = high[me] - low[them];
  if (lower <= 0 && 0 <= upper) {
    Bitboard surely_two = 0, maybe_two = 0;
    for (int c = 0; c < kNumColours; ++c) {
      const Bitboard of_colour = occupied & position.PiecesOf(static_cast<Colour>(c));
      const CellCounts& own = colour_count[c];
      const Bitboard two = own.twos & ~own.ones & ~own.fours;
      const Bitboard one = own.ones & ~own.twos & ~own.fours;
      const Bitboard none = ~(own.ones | own.twos | own.fours);
      const Bitboard open_of_colour = of_colour & open_cities;
      surely_two |= of_colour & two & (resources_left[c] == 0 ? kCityCells : ~open_cities);
      maybe_two |= of_colour & two;
      if (resources_left[c] >= 1) maybe_two |= open_of_colour & one;
      if (resources_left[c] >= 2) maybe_two |= open_of_colour & none & hole_count.AtLeast(2);
    }
    const int first_most = cities_in_hand[Index(Player::kFirst)] +
                           PopCount(maybe_two & position.PiecesOf(Player::kFirst));
    const int second_least = PopCount(surely_two & position.PiecesOf(Player::kSecond));
    const int first_gain = first_most > second_least ? 2 : 1;
    const bool first = us == Player::kFirst;
    lower = std::min(lower, first ? -1 : -first_gain);
    upper = std::max(upper, first ? first_gain : 1);
  }
  return {kPoint * lower, kPoint * upper};
}

}  // namespace divercite
