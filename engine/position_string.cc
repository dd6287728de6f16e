#include "engine/position_string.h"

#include <array>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace divercite {
namespace {

constexpr int RowWidth(int row) { return 2 * (4 - board_internal::Abs(row - 4)) + 1; }
constexpr int RowFirstColumn(int row) { return board_internal::Abs(row - 4); }

char PieceLetter(Piece piece) {
  const char upper = ColourLetter(piece.colour);
  return piece.owner == Player::kFirst ? upper : static_cast<char>(upper - 'A' + 'a');
}

std::optional<Piece> PieceFromLetter(char letter) {
  switch (letter) {
    case 'R':
      return Piece{Colour::kRed, Player::kFirst};
    case 'G':
      return Piece{Colour::kGreen, Player::kFirst};
    case 'B':
      return Piece{Colour::kBlue, Player::kFirst};
    case 'Y':
      return Piece{Colour::kYellow, Player::kFirst};
    case 'r':
      return Piece{Colour::kRed, Player::kSecond};
    case 'g':
      return Piece{Colour::kGreen, Player::kSecond};
    case 'b':
      return Piece{Colour::kBlue, Player::kSecond};
    case 'y':
      return Piece{Colour::kYellow, Player::kSecond};
    default:
      return std::nullopt;
  }
}

}  // namespace

std::string ToPositionString(const Position& position) {
  std::string text;
  for (int row = 0; row < kGridSize; ++row) {
    if (row > 0) text += '/';
    int empty_run = 0;
    for (int k = 0; k < RowWidth(row); ++k) {
      const std::optional<Piece> piece = position.PieceAt(CellAt(row, RowFirstColumn(row) + k));
      if (!piece) {
        ++empty_run;
        continue;
      }
      if (empty_run > 0) text += static_cast<char>('0' + empty_run);
      empty_run = 0;
      text += PieceLetter(*piece);
    }
    if (empty_run > 0) text += static_cast<char>('0' + empty_run);
  }
  text += position.SideToMove() == Player::kFirst ? " w" : " b";
  return text;
}

absl::StatusOr<Position> ParsePositionString(absl::string_view text) {
  const std::vector<absl::string_view> fields = absl::StrSplit(text, ' ', absl::SkipWhitespace());
  if (fields.size() != 2) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "position string '%s' must have 2 fields, '<rows> <side>', not %d", text, fields.size()));
  }
  const std::vector<absl::string_view> rows = absl::StrSplit(fields[0], '/');
  if (rows.size() != kGridSize) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "position string: %d rows separated by '/', expected %d", rows.size(), kGridSize));
  }
  std::array<std::optional<Piece>, kNumCells> cells;
  for (int row = 0; row < kGridSize; ++row) {
    int filled = 0;  // cells of this row described so far
    for (size_t i = 0; i < rows[row].size(); ++i) {
      const char ch = rows[row][i];
      if (filled >= RowWidth(row)) {
        return absl::InvalidArgumentError(
            absl::StrFormat("position string: row %d '%s' describes more than its %d cells", row,
                            rows[row], RowWidth(row)));
      }
      if (ch >= '1' && ch <= '9') {
        filled += ch - '0';
        continue;
      }
      const std::optional<Piece> piece = PieceFromLetter(ch);
      if (!piece) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "position string: row %d, character %d: unknown character '%c' (expected RGBY, "
            "rgby or a digit 1-9)",
            row, i + 1, ch));
      }
      cells[CellAt(row, RowFirstColumn(row) + filled)] = piece;
      ++filled;
    }
    if (filled != RowWidth(row)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("position string: row %d '%s' describes %d cells, expected %d", row,
                          rows[row], filled, RowWidth(row)));
    }
  }
  const absl::string_view side = fields[1];
  if (side != "w" && side != "b") {
    return absl::InvalidArgumentError(
        absl::StrFormat("position string: side to move '%s' must be 'w' or 'b'", side));
  }
  absl::StatusOr<Position> position = Position::FromBoard(cells);
  if (!position.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("position string: ", position.status().message()));
  }
  const char expected = position->SideToMove() == Player::kFirst ? 'w' : 'b';
  if (side[0] != expected) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "position string: side to move is '%s' but with %d pieces on the board it must be '%c'",
        side, position->Ply(), expected));
  }
  return position;
}

absl::StatusOr<Position> PlayMoveTexts(const Position& start,
                                       absl::Span<const absl::string_view> moves) {
  Position position = start;
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StatusOr<Move> move = ParseMove(moves[i]);
    absl::Status status = move.ok() ? position.CheckLegal(*move) : move.status();
    if (!status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("move %d of %d: %s", i + 1, moves.size(), status.message()));
    }
    position.Play(*move);
  }
  return position;
}

}  // namespace divercite
