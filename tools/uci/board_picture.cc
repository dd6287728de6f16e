#include "tools/uci/board_picture.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace divercite {
namespace {

char PieceLetter(const std::optional<Piece>& piece) {
  if (!piece) return ' ';
  const char upper = ColourLetter(piece->colour);
  return piece->owner == Player::kFirst ? upper : static_cast<char>(upper - 'A' + 'a');
}

std::string Supply(const Position& position, Player player) {
  std::string text;
  for (const Kind kind : {Kind::kCity, Kind::kResource}) {
    absl::StrAppend(&text, kind == Kind::kCity ? " cities" : "  resources");
    for (int c = 0; c < kNumColours; ++c) {
      const Colour colour = static_cast<Colour>(c);
      absl::StrAppend(&text, " ", std::string(1, ColourLetter(colour)),
                      position.PiecesLeft(player, kind, colour));
    }
  }
  return text;
}

}  // namespace

std::string BoardPicture(const Position& position) {
  std::string picture = "      0   1   2   3   4   5   6   7   8\n";
  for (int row = 0; row < kGridSize; ++row) {
    absl::StrAppend(&picture, "  ", row, " ");
    for (int col = 0; col < kGridSize; ++col) {
      const int cell = CellAt(row, col);
      if (cell == kNoCell) {
        absl::StrAppend(&picture, "    ");
        continue;
      }
      const std::optional<Piece> piece = position.PieceAt(cell);
      const char letter =
          IsCityCell(cell) ? PieceLetter(piece) : (piece ? PieceLetter(piece) : '.');
      absl::StrAppend(&picture, IsCityCell(cell) ? " [" : "  ", std::string(1, letter),
                      IsCityCell(cell) ? "]" : " ");
    }
    absl::StripTrailingAsciiWhitespace(&picture);
    absl::StrAppend(&picture, "\n");
  }
  absl::StrAppend(&picture, "\n  ply ", position.Ply(), "/", kTotalPlies, ", ",
                  position.IsGameOver()                     ? "game over"
                  : position.SideToMove() == Player::kFirst ? "first player (w) to move"
                                                            : "second player (b) to move",
                  "\n");
  absl::StrAppend(&picture, "  first  (upper case) left:", Supply(position, Player::kFirst), "\n");
  absl::StrAppend(&picture, "  second (lower case) left:", Supply(position, Player::kSecond), "\n");
  return picture;
}

}  // namespace divercite
