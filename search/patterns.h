// The patterns: what each city cell of a position looks like, as an index, which the network
// takes as features (search/network.h) and the tuners' pattern sum weighs with a table of
// learned values (tools/tune/pattern_eval.h).
//
// A city's future is decided by its own cell and its four neighbours, and by who still holds
// which pieces. Each of the 16 city cells gives one pattern, reduced by the colour
// permutations (only which colours are the city's own, present, missing or repeated counts,
// never which colour is which):
//
//   live city   an open city (an empty neighbour) that can still become a divercité: no
//               colour twice around it, and every missing colour still held by someone.
//               Index: owner to move or waiting, empty neighbours (1-4), own colour present
//               (0/1), missing colours the owner holds (0-4), missing colours the opponent
//               holds (0-4).
//   dead city   an open city that can no longer be a divercité: it can only gain its own
//               colour. Index: owner to move or waiting, empty neighbours (1-4), own-colour
//               neighbours (0-3), whether the owner and the opponent hold a resource of the
//               city's colour (the counts 0-3 fitted no better, and would make every resource
//               move change the patterns of every dead city of its colour).
//   empty cell  a city cell nobody has built on. Index: the neighbours' colours as a
//               partition of counts (12 shapes, 0-4 resources), whether a divercité is still
//               possible there, and for the side to move and the other the best value a city
//               they hold would have there now (the count of its colour, 5 on a divercité, or
//               none: 7 states each).
//
// A city with its four neighbours filled has its final value, already in the score: no
// pattern. Besides the cells, three small tables: the open threes (live cities one resource
// from a divercité whose owner holds the missing colour) of each side, 0-3 or more each; the
// cities in hand, ours less theirs (-8..8); and the side to move (first or second player).
//
// Every pattern has two values, for the start and for the end of the game; a position at ply
// p weighs them (40 - p) : p (a taper over the ply).
#ifndef DIVERCITE_SEARCH_PATTERNS_H_
#define DIVERCITE_SEARCH_PATTERNS_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <utility>

#include "engine/board.h"
#include "engine/position.h"
#include "engine/types.h"

namespace divercite {

// The tables, one after the other in one index space.
namespace patterns {
inline constexpr int kLiveCities = 2 * 4 * 2 * 5 * 5;
inline constexpr int kDeadCities = 2 * 4 * 4 * 2 * 2;
inline constexpr int kNumShapes = 12;
inline constexpr int kNoCity = 6;  // "holds no city": the 7th best-value state
inline constexpr int kEmptyCells = kNumShapes * 2 * 7 * 7;
inline constexpr int kThreats = 4 * 4;
inline constexpr int kCitiesInHand = 17;
inline constexpr int kSideToMove = 2;

inline constexpr int kLiveOffset = 0;
inline constexpr int kDeadOffset = kLiveOffset + kLiveCities;
inline constexpr int kEmptyOffset = kDeadOffset + kDeadCities;
inline constexpr int kThreatOffset = kEmptyOffset + kEmptyCells;
inline constexpr int kCitiesInHandOffset = kThreatOffset + kThreats;
inline constexpr int kSideToMoveOffset = kCitiesInHandOffset + kCitiesInHand;
inline constexpr int kNumPatterns = kSideToMoveOffset + kSideToMove;

// The name of this layout of the tables: a weight file made for another is refused. Change it
// whenever an index's meaning changes.
inline constexpr char kLayoutName[] = "patterns-2";

// What a pattern index means, in words ("live city, owner to move, 2 empty, ...").
std::string DescribePattern(int pattern);
// The layout's name and table sizes, as a weight file's layout line gives them.
std::string LayoutText();

// The shape of a multiset of neighbour colours: its counts sorted, most first, as one of the
// 12 partitions of 0 to 4 pieces. kShapeOfCounts is indexed by the counts in base 5.
constexpr int ShapeOfSortedCounts(int a, int b, int c, int d) {
  // Partitions of n = 0..4 into at most 4 parts, in order of n.
  constexpr int kShapes[kNumShapes][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {1, 1, 0, 0},
                                          {3, 0, 0, 0}, {2, 1, 0, 0}, {1, 1, 1, 0}, {4, 0, 0, 0},
                                          {3, 1, 0, 0}, {2, 2, 0, 0}, {2, 1, 1, 0}, {1, 1, 1, 1}};
  for (int s = 0; s < kNumShapes; ++s) {
    if (kShapes[s][0] == a && kShapes[s][1] == b && kShapes[s][2] == c && kShapes[s][3] == d) {
      return s;
    }
  }
  return -1;
}
constexpr std::array<std::int8_t, 625> MakeShapeOfCounts() {
  std::array<std::int8_t, 625> table{};
  for (int code = 0; code < 625; ++code) {
    int counts[4] = {code % 5, code / 5 % 5, code / 25 % 5, code / 125};
    // Sort descending (four elements).
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) {
        if (counts[j] > counts[i]) {
          const int t = counts[i];
          counts[i] = counts[j];
          counts[j] = t;
        }
      }
    }
    table[code] =
        static_cast<std::int8_t>(ShapeOfSortedCounts(counts[0], counts[1], counts[2], counts[3]));
  }
  return table;
}
inline constexpr std::array<std::int8_t, 625> kShapeOfCounts = MakeShapeOfCounts();

// The city cells, lowest first; a city cell's number in that list; and for each cell, the
// city cells it is or touches, as a mask over that list.
constexpr std::array<std::int8_t, kNumCityCells> MakeCityCellList() {
  std::array<std::int8_t, kNumCityCells> list{};
  int n = 0;
  for (Bitboard b = kCityCells; b;) list[n++] = static_cast<std::int8_t>(PopLowestCell(b));
  return list;
}
inline constexpr std::array<std::int8_t, kNumCityCells> kCityCellList = MakeCityCellList();
constexpr std::array<std::uint16_t, kNumCells> MakeCityCellsTouched() {
  std::array<std::uint16_t, kNumCells> touched{};
  for (int cell = 0; cell < kNumCells; ++cell) {
    for (int i = 0; i < kNumCityCells; ++i) {
      const int city = kCityCellList[i];
      if (city == cell || (Neighbours(city) & Bit(cell))) touched[cell] |= 1u << i;
    }
  }
  return touched;
}
inline constexpr std::array<std::uint16_t, kNumCells> kCityCellsTouched = MakeCityCellsTouched();
inline constexpr std::uint16_t kAllCityCells = (1u << kNumCityCells) - 1;
}  // namespace patterns

// What the patterns need to know of the pieces in hand, computed once per position.
struct Holdings {
  // After `player` plays a piece of this kind and colour.
  void Take(Player player, Kind kind, Colour colour) {
    const int p = Index(player), c = Index(colour);
    if (kind == Kind::kResource) {
      if (--resource_count[p][c] == 0) resources[p] &= static_cast<std::uint8_t>(~(1u << c));
    } else {
      --cities_held[p];
      if (--city_count[p][c] == 0) cities[p] &= static_cast<std::uint8_t>(~(1u << c));
    }
  }

  std::array<std::uint8_t, kNumPlayers> resources{};  // colours of which a resource is held
  std::array<std::uint8_t, kNumPlayers> cities{};     // colours of which a city is held
  std::array<std::array<std::uint8_t, kNumColours>, kNumPlayers> resource_count{};
  std::array<std::array<std::uint8_t, kNumColours>, kNumPlayers> city_count{};
  std::array<int, kNumPlayers> cities_held{};

  static Holdings Of(const Position& position) {
    Holdings h;
    for (int p = 0; p < kNumPlayers; ++p) {
      for (int c = 0; c < kNumColours; ++c) {
        const int resources =
            position.PiecesLeft(static_cast<Player>(p), Kind::kResource, static_cast<Colour>(c));
        const int cities =
            position.PiecesLeft(static_cast<Player>(p), Kind::kCity, static_cast<Colour>(c));
        h.resource_count[p][c] = static_cast<std::uint8_t>(resources);
        h.city_count[p][c] = static_cast<std::uint8_t>(cities);
        if (resources) h.resources[p] |= static_cast<std::uint8_t>(1u << c);
        if (cities) h.cities[p] |= static_cast<std::uint8_t>(1u << c);
        h.cities_held[p] += cities;
      }
    }
    return h;
  }
};

namespace patterns {
// A city cell's neighbourhood as a code: the counts of each colour around it in base 5 (red
// first), 0-624. A resource of colour c next to it adds kPowerOf5[c].
inline constexpr int kNumCodes = 625;
inline constexpr int kPowerOf5[kNumColours] = {1, 5, 25, 125};

// What a code says: the pieces around, the colours present, whether no colour is there twice,
// the shape, and the counts (4 bits per colour, red lowest).
struct Neighbourhood {
  std::uint8_t filled;
  std::uint8_t present;
  std::uint8_t distinct;
  std::uint8_t shape;
  std::uint16_t counts;
};
constexpr std::array<Neighbourhood, kNumCodes> MakeNeighbourhoods() {
  std::array<Neighbourhood, kNumCodes> table{};
  for (int code = 0; code < kNumCodes; ++code) {
    const int counts[4] = {code % 5, code / 5 % 5, code / 25 % 5, code / 125};
    int filled = 0, present = 0, distinct = 1, packed = 0;
    for (int c = 0; c < 4; ++c) {
      filled += counts[c];
      if (counts[c]) present |= 1 << c;
      if (counts[c] > 1) distinct = 0;
      packed |= counts[c] << (4 * c);
    }
    table[code] = {static_cast<std::uint8_t>(filled), static_cast<std::uint8_t>(present),
                   static_cast<std::uint8_t>(distinct),
                   static_cast<std::uint8_t>(kShapeOfCounts[code] < 0 ? 0 : kShapeOfCounts[code]),
                   static_cast<std::uint16_t>(packed)};
  }
  return table;
}
inline constexpr std::array<Neighbourhood, kNumCodes> kNeighbourhoods = MakeNeighbourhoods();

// kBestOf[code][colours]: the best value a city of one of `colours` (a mask) would have on an
// empty cell with this neighbourhood now: the count of its colour, 5 on a divercité, or
// kNoCity when `colours` is empty.
constexpr std::array<std::array<std::uint8_t, 16>, kNumCodes> MakeBestOf() {
  std::array<std::array<std::uint8_t, 16>, kNumCodes> table{};
  for (int code = 0; code < kNumCodes; ++code) {
    const Neighbourhood n = kNeighbourhoods[code];
    for (int colours = 0; colours < 16; ++colours) {
      int best = -1;
      for (int c = 0; c < 4; ++c) {
        const int count = (n.counts >> (4 * c)) & 15;
        if ((colours >> c) & 1 && count > best) best = count;
      }
      if (best >= 0 && n.filled == 4 && n.distinct) best = kDivercitePoints;
      table[code][colours] = static_cast<std::uint8_t>(best < 0 ? kNoCity : best);
    }
  }
  return table;
}
inline constexpr std::array<std::array<std::uint8_t, 16>, kNumCodes> kBestOf = MakeBestOf();

// How far apart the two views of a built city's pattern are: its owner to move or waiting.
inline constexpr int kLiveToMoveStride = 200;
inline constexpr int kDeadToMoveStride = 64;

// Whether each pattern is an open three whose owner holds the missing colour.
constexpr std::array<bool, kNumPatterns> MakeOwnedOpenThrees() {
  std::array<bool, kNumPatterns> table{};
  for (int pattern = kLiveOffset; pattern < kDeadOffset; ++pattern) {
    const int rest = pattern - kLiveOffset;
    table[pattern] = (rest / 50) % 4 == 0 && (rest / 5) % 5 == 1;
  }
  return table;
}
inline constexpr std::array<bool, kNumPatterns> kOwnedOpenThree = MakeOwnedOpenThrees();
}  // namespace patterns

// A city cell's state: 0 when empty, else 1 + 4 x owner + colour.
constexpr int BuiltCityState(Player owner, Colour colour) {
  return 1 + 4 * Index(owner) + Index(colour);
}

// The code and state of a city cell, from the board.
inline void CityCellCode(const Position& position, int cell, int& code, int& state) {
  const Bitboard around = Neighbours(cell);
  code = 0;
  for (int c = 0; c < kNumColours; ++c) {
    code += patterns::kPowerOf5[c] * PopCount(position.PiecesOf(static_cast<Colour>(c)) & around);
  }
  state = position.Occupied() & Bit(cell)
              ? BuiltCityState(position.OwnerAt(cell), position.ColourAt(cell))
              : 0;
}

// The patterns of one city cell for each side to move: `pattern[p]` when player p is to move,
// with `sign[p]` (+1 when the pattern counts for p, -1 against). A built city's pattern is
// seen from its owner, an empty cell's from the side to move. Returns false when the cell has
// none (a city with its final value).
inline bool CityCellPatterns(int code, int state, const Holdings& holdings,
                             int pattern[kNumPlayers], int sign[kNumPlayers]) {
  using namespace patterns;
  const Neighbourhood n = kNeighbourhoods[code];
  const unsigned missing = ~n.present & 15u;
  const unsigned held = holdings.resources[0] | holdings.resources[1];
  const int live = n.distinct & static_cast<int>((missing & ~held) == 0);
  if (state == 0) {
    const int base = kEmptyOffset + (n.shape * 2 + live) * 49;
    const int best_first = kBestOf[code][holdings.cities[0]];
    const int best_second = kBestOf[code][holdings.cities[1]];
    pattern[0] = base + best_first * 7 + best_second;
    pattern[1] = base + best_second * 7 + best_first;
    sign[0] = sign[1] = 1;
    return true;
  }
  if (n.filled == 4) return false;
  const int owner = (state - 1) >> 2;
  const int colour = (state - 1) & 3;
  const unsigned owner_holds = holdings.resources[owner];
  const unsigned other_holds = holdings.resources[owner ^ 1];
  const int empty_less_one = 3 - n.filled;
  int base, stride;
  if (live) {
    base = kLiveOffset +
           ((empty_less_one * 2 + static_cast<int>((n.present >> colour) & 1)) * 5 +
            std::popcount(missing & owner_holds)) *
               5 +
           std::popcount(missing & other_holds);
    stride = kLiveToMoveStride;
  } else {
    base = kDeadOffset +
           ((empty_less_one * 4 + ((n.counts >> (4 * colour)) & 15)) * 2 +
            static_cast<int>((owner_holds >> colour) & 1)) *
               2 +
           static_cast<int>((other_holds >> colour) & 1);
    stride = kDeadToMoveStride;
  }
  pattern[owner] = base + stride;
  sign[owner] = 1;
  pattern[owner ^ 1] = base;
  sign[owner ^ 1] = -1;
  return true;
}

// The same from the board, with `us` to move: the pattern, or -1 when the cell has none;
// `sign` +1 when it counts for us, -1 against.
inline int CityCellPattern(const Position& position, const Holdings& holdings, int cell, Player us,
                           int& sign) {
  int code, state, pattern[kNumPlayers], signs[kNumPlayers];
  CityCellCode(position, cell, code, state);
  if (!CityCellPatterns(code, state, holdings, pattern, signs)) return -1;
  sign = signs[Index(us)];
  return pattern[Index(us)];
}

// Whether a pattern is an open three whose owner holds the missing colour.
inline bool IsOwnedOpenThree(int pattern) { return patterns::kOwnedOpenThree[pattern]; }

// The patterns of the global tables: open threes (`threes`: per player), cities in hand,
// side to move.
template <typename Visitor>
inline void ForEachGlobalPattern(const int cities_held[2], Player us, const int threes[2],
                                 Visitor&& visit) {
  using namespace patterns;
  const int me = Index(us);
  visit(kThreatOffset + std::min(threes[me], 3) * 4 + std::min(threes[1 - me], 3), 1);
  visit(kCitiesInHandOffset + cities_held[me] - cities_held[1 - me] + 8, 1);
  visit(kSideToMoveOffset + me, 1);
}

// Calls visit(pattern, sign) for every pattern of the position (not a finished one), as the
// evaluation sees it with `us` to move, whoever is (the trainer's features read both views).
template <typename Visitor>
inline void ForEachPatternAs(const Position& position, Player us, Visitor&& visit) {
  using namespace patterns;
  const Holdings holdings = Holdings::Of(position);
  const int me = Index(us);
  int threes[kNumPlayers] = {0, 0};
  for (const int cell : kCityCellList) {
    int sign = 1;
    const int pattern = CityCellPattern(position, holdings, cell, us, sign);
    if (pattern < 0) continue;
    visit(pattern, sign);
    if (IsOwnedOpenThree(pattern)) ++threes[sign > 0 ? me : 1 - me];
  }
  ForEachGlobalPattern(holdings.cities_held.data(), us, threes, visit);
}

// Calls visit(pattern, sign) for every pattern of the position (not a finished one), from
// the side to move's view.
template <typename Visitor>
inline void ForEachPattern(const Position& position, Visitor&& visit) {
  ForEachPatternAs(position, position.SideToMove(), std::forward<Visitor>(visit));
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_PATTERNS_H_
