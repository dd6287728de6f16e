#include "engine/move.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace divercite {
namespace {

// Returns the colour for a letter of "RGBY", or -1.
int ColourFromLetter(char letter) {
  switch (letter) {
    case 'R':
      return 0;
    case 'G':
      return 1;
    case 'B':
      return 2;
    case 'Y':
      return 3;
    default:
      return -1;
  }
}

}  // namespace

std::string MoveToString(Move move) {
  if (move.IsNone()) return "(none)";
  const int cell = move.cell();
  std::string text(4, ' ');
  text[0] = ColourLetter(move.colour());
  text[1] = KindLetter(move.kind());
  text[2] = static_cast<char>('0' + CellRow(cell));
  text[3] = static_cast<char>('0' + CellColumn(cell));
  return text;
}

absl::StatusOr<Move> ParseMove(absl::string_view text) {
  if (text.size() != 4) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "move '%s' must be 4 characters <colour><kind><row><col>, like GR04", text));
  }
  const int colour = ColourFromLetter(text[0]);
  if (colour < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("move '%s': unknown colour '%c' (expected R, G, B or Y)", text, text[0]));
  }
  if (text[1] != 'C' && text[1] != 'R') {
    return absl::InvalidArgumentError(absl::StrFormat(
        "move '%s': unknown kind '%c' (expected C for city or R for resource)", text, text[1]));
  }
  if (text[2] < '0' || text[2] > '8' || text[3] < '0' || text[3] > '8') {
    return absl::InvalidArgumentError(
        absl::StrFormat("move '%s': row and column must be digits 0-8", text));
  }
  const int row = text[2] - '0';
  const int col = text[3] - '0';
  const int cell = CellAt(row, col);
  if (cell == kNoCell) {
    return absl::InvalidArgumentError(
        absl::StrFormat("move '%s': (%d,%d) is not a cell of the board", text, row, col));
  }
  const Kind kind = text[1] == 'C' ? Kind::kCity : Kind::kResource;
  if (kind != KindOfCell(cell)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "move '%s': (%d,%d) is a %s cell, not a %s cell", text, row, col,
        IsCityCell(cell) ? "city" : "resource", kind == Kind::kCity ? "city" : "resource"));
  }
  return Move(cell, static_cast<Colour>(colour));
}

}  // namespace divercite
