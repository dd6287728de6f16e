#include "engine/position.h"

#include "absl/strings/str_format.h"

namespace divercite {

constexpr std::uint32_t Position::FullSupply() {
  std::uint32_t supply = 0;
  for (int p = 0; p < kNumPlayers; ++p) {
    for (int c = 0; c < kNumColours; ++c) {
      supply |= std::uint32_t{kCitiesPerColour}
                << SupplyShift(static_cast<Player>(p), Kind::kCity, static_cast<Colour>(c));
      supply |= std::uint32_t{kResourcesPerColour}
                << SupplyShift(static_cast<Player>(p), Kind::kResource, static_cast<Colour>(c));
    }
  }
  return supply;
}

Position Position::Start() {
  Position position;
  position.supply_ = FullSupply();
  return position;
}

absl::StatusOr<Position> Position::FromBoard(
    const std::array<std::optional<Piece>, kNumCells>& cells) {
  Position position = Start();
  std::array<int, kNumPlayers> pieces{};
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (!cells[cell]) continue;
    const auto [colour, owner] = *cells[cell];
    const Kind kind = KindOfCell(cell);
    if (position.PiecesLeft(owner, kind, colour) == 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "the %s player has more than %d %s %s on the board",
          owner == Player::kFirst ? "first" : "second",
          kind == Kind::kCity ? kCitiesPerColour : kResourcesPerColour,
          std::string(1, ColourLetter(colour)), kind == Kind::kCity ? "cities" : "resources"));
    }
    position.colour_[Index(colour)] |= Bit(cell);
    position.owner_[Index(owner)] |= Bit(cell);
    position.supply_ -= std::uint32_t{1} << SupplyShift(owner, kind, colour);
    ++pieces[Index(owner)];
  }
  if (pieces[0] != pieces[1] && pieces[0] != pieces[1] + 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the first player has %d pieces and the second %d: alternating moves give the first "
        "player as many as the second, or one more",
        pieces[0], pieces[1]));
  }
  position.ply_ = static_cast<std::uint8_t>(pieces[0] + pieces[1]);
  const auto scores = position.ScoresFromScratch();
  position.score_ = {static_cast<std::int8_t>(scores[0]), static_cast<std::int8_t>(scores[1])};
  position.key_ = position.KeyFromScratch();
  if (position.IsGameOver()) position.ApplyLastMoveTieBreak();
  return position;
}

std::optional<Piece> Position::PieceAt(int cell) const {
  if (!(Occupied() & Bit(cell))) return std::nullopt;
  return Piece{ColourAt(cell), OwnerAt(cell)};
}

GameResult Position::Result() const {
  if (!IsGameOver()) return GameResult::kOngoing;
  if (score_[0] > score_[1]) return GameResult::kFirstWins;
  if (score_[1] > score_[0]) return GameResult::kSecondWins;
  return GameResult::kDraw;
}

absl::Status Position::CheckLegal(Move move) const {
  if (move.IsNone()) return absl::InvalidArgumentError("the null move is not a move");
  if (IsGameOver()) return absl::FailedPreconditionError("the game is over");
  const std::string text = MoveToString(move);
  if (Occupied() & Bit(move.cell())) {
    return absl::InvalidArgumentError(absl::StrFormat("illegal move %s: cell (%d,%d) is occupied",
                                                      text, CellRow(move.cell()),
                                                      CellColumn(move.cell())));
  }
  if (PiecesLeft(SideToMove(), move.kind(), move.colour()) == 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("illegal move %s: the %s player has no %s %s left", text,
                        SideToMove() == Player::kFirst ? "first" : "second",
                        std::string(1, ColourLetter(move.colour())),
                        move.kind() == Kind::kCity ? "city" : "resource"));
  }
  return absl::OkStatus();
}

bool Position::IsLegal(Move move) const {
  return !move.IsNone() && !IsGameOver() && !(Occupied() & Bit(move.cell())) &&
         PiecesLeft(SideToMove(), move.kind(), move.colour()) > 0;
}

std::array<int, kNumPlayers> Position::ScoresFromScratch() const {
  std::array<int, kNumPlayers> scores{};
  for (Bitboard cities = Occupied() & kCityCells; cities;) {
    const int city = PopLowestCell(cities);
    scores[Index(OwnerAt(city))] += CityValue(city, ColourAt(city));
  }
  return scores;
}

std::uint64_t Position::KeyFromScratch() const {
  std::uint64_t key = 0;
  for (Bitboard b = Occupied(); b;) {
    const int cell = PopLowestCell(b);
    key ^= ZobristKey(cell, ColourAt(cell), OwnerAt(cell));
  }
  return key;
}

TieBreakCounts Position::CountTieBreak() const {
  TieBreakCounts counts;
  for (Bitboard cities = Occupied() & kCityCells; cities;) {
    const int city = PopLowestCell(cities);
    const int owner = Index(OwnerAt(city));
    const int value = CityValue(city, ColourAt(city));
    if (value == kDivercitePoints) {
      ++counts.divercites[owner];
    } else {
      ++counts.own_colour_cities[value][owner];
    }
  }
  return counts;
}

// The course code's draw prevention, applied when the 40th move leaves the scores equal:
// more divercités, then more cities with 4, 3, 2 own-colour resources, each worth +1 to the
// player with more and ending the tie-break. Once the n = 2 count has been compared, the
// first player gets +1 regardless, so a second player who just won that comparison ends
// level: a draw (the course code's quirk, reproduced on purpose).
TieBreakSteps LastMoveTieBreakSteps(const TieBreakCounts& counts) {
  using Rule = TieBreakStep::Rule;
  TieBreakSteps result;
  auto compare = [&result](Rule rule, const std::array<int, kNumPlayers>& count) {
    TieBreakStep& step = result.steps[result.size++];
    step.rule = rule;
    step.counts = count;
    if (count[0] != count[1]) step.point = count[0] > count[1] ? Player::kFirst : Player::kSecond;
    return step.point.has_value();
  };
  if (compare(Rule::kDivercites, counts.divercites)) return result;
  if (compare(Rule::kOwnColour4, counts.own_colour_cities[4])) return result;
  if (compare(Rule::kOwnColour3, counts.own_colour_cities[3])) return result;
  compare(Rule::kOwnColour2, counts.own_colour_cities[2]);
  result.steps[result.size++] = {.rule = Rule::kFirstPlayer, .point = Player::kFirst};
  return result;
}

void Position::ApplyLastMoveTieBreak() {
  if (score_[0] != score_[1]) return;
  const TieBreakSteps taken = LastMoveTieBreakSteps(CountTieBreak());
  for (int i = 0; i < taken.size; ++i) {
    if (taken.steps[i].point) ++score_[Index(*taken.steps[i].point)];
  }
}

}  // namespace divercite
