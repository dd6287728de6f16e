#include "tools/board_svg/board_svg.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/board.h"
#include "engine/position_string.h"

namespace divercite {
namespace {

// main.js: a 600-pixel canvas, margins of 12 % and 3.2 % of it between pieces. Each value
// is computed as the Python drawing computed it, so that the coordinates round alike.
constexpr double kMargin = 0.12 * kBoardSvgCanvas;
constexpr double kGap = 0.032 * kBoardSvgCanvas;
constexpr double kCell = (kBoardSvgCanvas - 2 * kMargin) / 9;
constexpr double kPitch = kCell + kGap;
constexpr double kCentre = kBoardSvgCanvas / 2;
// The arrow starts this far inside the mover's edge of the board.
constexpr double kArrowInset = 14.0;

// The colours of the course's piece pictures (GUI/assets/*.png), and of its owners' tiles.
constexpr absl::string_view kColours[kNumColours] = {"#cb284d", "#05a784", "#2ca6db", "#f0c933"};
constexpr absl::string_view kOwners[2] = {"#ffffff", "#1f2936"};
constexpr absl::string_view kBoardColour = "#e9dcc3";
constexpr absl::string_view kEmptyCity = "#d8c7a6";
constexpr absl::string_view kEmptyResource = "#f4ead6";
constexpr absl::string_view kMarkColour = "#ff5722";

std::string Number(double value) { return absl::StrFormat("%.1f", value); }

absl::string_view KindName(int cell) { return IsCityCell(cell) ? "city" : "resource"; }

// A square of side 2*half turned by 45 degrees about the cell's centre, as polygon points.
std::string Diamond(int cell, double half) {
  const SvgPoint centre = CellCentre(CellRow(cell), CellColumn(cell));
  const double r = half * std::sqrt(2.0);
  return absl::StrCat(Number(centre.x), ",", Number(centre.y - r), " ", Number(centre.x + r), ",",
                      Number(centre.y), " ", Number(centre.x), ",", Number(centre.y + r), " ",
                      Number(centre.x - r), ",", Number(centre.y));
}

std::string PieceElement(int cell, Piece piece) {
  const char owner = piece.owner == Player::kFirst ? 'W' : 'B';
  const std::string classes = absl::StrCat("piece ", KindName(cell), " ", std::string(1, owner),
                                           " ", std::string(1, ColourLetter(piece.colour)));
  const absl::string_view colour = kColours[Index(piece.colour)];
  if (!IsCityCell(cell)) {
    return absl::StrCat("<g class=\"", classes, "\"><polygon points=\"", Diamond(cell, kCell / 2),
                        "\" fill=\"", colour, "\" stroke=\"#00000055\" stroke-width=\"2\"/></g>");
  }
  const SvgPoint centre = CellCentre(CellRow(cell), CellColumn(cell));
  return absl::StrCat("<g class=\"", classes, "\"><polygon points=\"", Diamond(cell, kCell / 2),
                      "\" fill=\"", kOwners[Index(piece.owner)],
                      "\" stroke=\"#00000088\" stroke-width=\"2\"/><circle cx=\"", Number(centre.x),
                      "\" cy=\"", Number(centre.y), "\" r=\"", Number(kCell * 0.3), "\" fill=\"",
                      colour, "\"/></g>");
}

}  // namespace

SvgPoint CellCentre(int row, int col) {
  const double x = (col - 4) * kPitch;
  const double y = (row - 4) * kPitch;
  const double turn = std::numbers::pi / 4;
  return {kCentre + x * std::cos(turn) - y * std::sin(turn),
          kCentre + x * std::sin(turn) + y * std::cos(turn)};
}

// From the mover's side of the GUI to the cell, and the piece's outline on the cell.
std::string BoardArrowSvg(Move move, Player mover) {
  const int cell = move.cell();
  const SvgPoint to = CellCentre(CellRow(cell), CellColumn(cell));
  const double start = mover == Player::kFirst ? kArrowInset : kBoardSvgCanvas - kArrowInset;
  double length = std::hypot(to.x - start, to.y - kCentre);
  if (length == 0) length = 1.0;
  const double stop = std::max(0.0, length - kCell * 0.55) / length;
  const double end_x = start + (to.x - start) * stop;
  const double end_y = kCentre + (to.y - kCentre) * stop;
  const absl::string_view colour = kColours[Index(move.colour())];
  return absl::StrCat(
      "<g class=\"arrow\" data-move=\"", MoveToString(move), "\">\n<polygon points=\"",
      Diamond(cell, kCell / 2), "\" fill=\"none\" stroke=\"", colour,
      "\" stroke-width=\"4\" stroke-dasharray=\"8 4\"/>\n<line x1=\"", Number(start), "\" y1=\"",
      Number(kCentre), "\" x2=\"", Number(end_x), "\" y2=\"", Number(end_y), "\" stroke=\"", colour,
      "\" stroke-width=\"7\" stroke-linecap=\"round\" opacity=\"0.8\" "
      "marker-end=\"url(#arrowhead)\"/>\n</g>");
}

std::string BoardSvg(const Position& position, const BoardSvgOptions& options) {
  const std::string canvas = absl::StrFormat("%g", kBoardSvgCanvas);
  const std::string dimensions =
      options.size > 0 ? absl::StrCat(" width=\"", options.size, "\" height=\"", options.size, "\"")
                       : "";
  std::string svg = absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ", canvas, " ", canvas, "\"",
      dimensions, " class=\"divercite-board\">\n<title>", ToPositionString(position), " (scores ",
      position.Score(Player::kFirst), "-", position.Score(Player::kSecond),
      ")</title>\n"
      "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" "
      "markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">"
      "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker></defs>\n"
      "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"",
      canvas, "\" height=\"", canvas, "\" fill=\"", kBoardColour,
      "\" stroke=\"#000\" stroke-width=\"15\"/>");
  for (int cell = 0; cell < kNumCells; ++cell) {
    absl::StrAppend(&svg, "\n<polygon class=\"cell ", KindName(cell), "\" data-cell=\"",
                    CellRow(cell), CellColumn(cell), "\" points=\"", Diamond(cell, kCell / 2),
                    "\" fill=\"", IsCityCell(cell) ? kEmptyCity : kEmptyResource,
                    "\" stroke=\"#a08c6a\" stroke-width=\"1.5\"/>");
  }
  for (int cell = 0; cell < kNumCells; ++cell) {  // by cell: by row, then column
    if (const std::optional<Piece> piece = position.PieceAt(cell)) {
      absl::StrAppend(&svg, "\n", PieceElement(cell, *piece));
    }
  }
  if (!options.last_move.IsNone()) {
    absl::StrAppend(&svg, "\n<polygon class=\"last-move\" data-move=\"",
                    MoveToString(options.last_move), "\" points=\"",
                    Diamond(options.last_move.cell(), kCell / 2 + 4), "\" fill=\"none\" stroke=\"",
                    kMarkColour, "\" stroke-width=\"5\"/>");
  }
  if (!options.arrow.IsNone()) {
    absl::StrAppend(
        &svg, "\n",
        BoardArrowSvg(options.arrow, options.arrow_mover.value_or(position.SideToMove())));
  }
  absl::StrAppend(&svg, "\n</svg>");
  return svg;
}

}  // namespace divercite
