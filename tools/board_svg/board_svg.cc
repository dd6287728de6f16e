#include "tools/board_svg/board_svg.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "absl/strings/numbers.h"
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
// The arrow starts this far inside the mover's edge of the board, and stops this far before
// the centre of its cell.
constexpr double kArrowInset = 14.0;
constexpr double kArrowStop = kCell * 0.55;
// Arrows onto one cell (several lines' moves there) end this far apart, across their
// direction, and each line's rank is a numbered disc of this radius at its end: every line's
// arrow stays visible.
constexpr double kArrowSpread = kCell * 0.42;
constexpr double kArrowHeadRadius = kCell * 0.2;

// The colours of the course's piece pictures (GUI/assets/*.png), and of its owners' tiles.
constexpr absl::string_view kColours[kNumColours] = {"#cb284d", "#05a784", "#2ca6db", "#f0c933"};
constexpr absl::string_view kOwners[2] = {"#ffffff", "#1f2936"};
constexpr absl::string_view kOwnerLetters[2] = {"W", "B"};
constexpr absl::string_view kBoardColour = "#e9dcc3";
constexpr absl::string_view kEmptyCity = "#d8c7a6";
constexpr absl::string_view kEmptyResource = "#f4ead6";
constexpr absl::string_view kCellStroke = "#a08c6a";
constexpr absl::string_view kMarkColour = "#ff5722";
// Cells a player may play on (board.js's `legal`) and the cell picked (`selected`).
constexpr absl::string_view kLegalColour = "#2e7d32";

std::string Number(double value) { return absl::StrFormat("%.1f", value); }

// A value as printed to 0.1 unit, read back: what a reader of the picture (board.js) sees.
double Printed(double value) {
  double printed = 0;
  const bool ok = absl::SimpleAtod(Number(value), &printed);
  return ok ? printed : value;
}

std::string Pair(SvgPoint point) { return absl::StrCat(Number(point.x), ",", Number(point.y)); }

absl::string_view KindName(Kind kind) { return kind == Kind::kCity ? "city" : "resource"; }
absl::string_view KindName(int cell) { return KindName(KindOfCell(cell)); }

// A square of side 2*half turned by 45 degrees about `centre`, as polygon points.
std::string Diamond(SvgPoint centre, double half) {
  const double r = half * std::sqrt(2.0);
  return absl::StrCat(Pair({centre.x, centre.y - r}), " ", Pair({centre.x + r, centre.y}), " ",
                      Pair({centre.x, centre.y + r}), " ", Pair({centre.x - r, centre.y}));
}

SvgPoint Exact(int cell) { return CellCentre(CellRow(cell), CellColumn(cell)); }

// Where pieces, marks and arrows are placed: the cell's centre as the skeleton's data-x and
// data-y print it, so that board.js, which reads those, places them exactly where BoardSvg does.
SvgPoint Placed(int cell) {
  const SvgPoint centre = Exact(cell);
  return {Printed(centre.x), Printed(centre.y)};
}

std::string Translate(int cell) {
  const SvgPoint at = Placed(cell);
  return absl::StrCat("translate(", Number(at.x), ",", Number(at.y), ")");
}

SvgPoint ArrowStart(Player mover) {
  return {mover == Player::kFirst ? kArrowInset : kBoardSvgCanvas - kArrowInset, kCentre};
}

// Where an arrow from the mover's side onto `cell` ends (board.js computes the same from the
// skeleton's data-arrow-first, -second, -stop and the cell's data-x, data-y).
SvgPoint ArrowEnd(int cell, Player mover) {
  const SvgPoint start = ArrowStart(mover);
  const SvgPoint to = Placed(cell);
  double length = std::hypot(to.x - start.x, to.y - start.y);
  if (length == 0) length = 1.0;
  const double stop = std::max(0.0, length - kArrowStop) / length;
  return {start.x + (to.x - start.x) * stop, start.y + (to.y - start.y) * stop};
}

// The piece's look about the origin: the elements inside its group, template and piece alike.
std::string PieceLook(Kind kind, Player owner, Colour colour) {
  const absl::string_view fill = kColours[Index(colour)];
  if (kind == Kind::kResource) {
    return absl::StrCat("<polygon points=\"", Diamond({}, kCell / 2), "\" fill=\"", fill,
                        "\" stroke=\"#00000055\" stroke-width=\"2\"/>");
  }
  return absl::StrCat("<polygon points=\"", Diamond({}, kCell / 2), "\" fill=\"",
                      kOwners[Index(owner)],
                      "\" stroke=\"#00000088\" stroke-width=\"2\"/><circle r=\"",
                      Number(kCell * 0.3), "\" fill=\"", fill, "\"/>");
}

// "city W R": a piece's look, the words after `piece` in its class.
std::string LookName(Kind kind, Player owner, Colour colour) {
  return absl::StrCat(KindName(kind), " ", kOwnerLetters[Index(owner)], " ",
                      std::string(1, ColourLetter(colour)));
}

std::string PieceElement(int cell, Piece piece) {
  const Kind kind = KindOfCell(cell);
  return absl::StrCat("<g class=\"piece ", LookName(kind, piece.owner, piece.colour),
                      "\" transform=\"", Translate(cell), "\">",
                      PieceLook(kind, piece.owner, piece.colour), "</g>");
}

// The last move's outline about the origin, after its class and data-move (or template name).
std::string LastMoveLook() {
  return absl::StrCat("points=\"", Diamond({}, kCell / 2 + 4), "\" fill=\"none\" stroke=\"",
                      kMarkColour, "\" stroke-width=\"5\"/>");
}

// An arrow's two elements; `outline` and `line` are their placing attributes (a translate,
// the line's ends), empty in a template.
std::string ArrowLook(Colour colour, absl::string_view outline, absl::string_view line) {
  const absl::string_view stroke = kColours[Index(colour)];
  return absl::StrCat(
      "\n<polygon ", outline, "points=\"", Diamond({}, kCell / 2), "\" fill=\"none\" stroke=\"",
      stroke, "\" stroke-width=\"4\" stroke-dasharray=\"8 4\"/>\n<line ", line, "stroke=\"", stroke,
      "\" stroke-width=\"7\" stroke-linecap=\"round\" opacity=\"0.8\" "
      "marker-end=\"url(#arrowhead)\"/>\n");
}

// What board.js places, in <defs>: a template per piece look, the last move's outline and an
// arrow per colour, none with the class of what they draw (only placed ones count).
std::string Templates() {
  std::string defs;
  for (const Kind kind : {Kind::kCity, Kind::kResource}) {
    for (const Player owner : {Player::kFirst, Player::kSecond}) {
      for (int c = 0; c < kNumColours; ++c) {
        const Colour colour = static_cast<Colour>(c);
        absl::StrAppend(&defs, "\n<g data-piece=\"", LookName(kind, owner, colour), "\">",
                        PieceLook(kind, owner, colour), "</g>");
      }
    }
  }
  absl::StrAppend(&defs, "\n<polygon data-mark=\"last-move\" ", LastMoveLook());
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    absl::StrAppend(&defs, "\n<g data-arrow=\"", std::string(1, ColourLetter(colour)), "\">",
                    ArrowLook(colour, "", ""), "</g>");
  }
  // A line's rank at its arrow's end (board.js writes the number into the text).
  absl::StrAppend(&defs, "\n<g data-mark=\"arrow-head\"><circle r=\"", Number(kArrowHeadRadius),
                  "\" fill=\"#ffffff\" stroke=\"", kOwners[1],
                  "\" stroke-width=\"2\"/><text text-anchor=\"middle\" dy=\"0.35em\" "
                  "font-family=\"sans-serif\" font-weight=\"bold\" font-size=\"",
                  Number(kArrowHeadRadius * 1.3), "\" fill=\"", kOwners[1], "\"></text></g>");
  // The alternatives' arrows thinner and fainter than the best line's (the template's).
  absl::StrAppend(&defs, "\n<style>.divercite-board .cell.legal { stroke: ", kLegalColour,
                  "; stroke-width: 4; cursor: pointer; } .divercite-board .cell.selected { "
                  "stroke: ",
                  kMarkColour,
                  "; stroke-width: 5; } .divercite-board .arrow.alt line { stroke-width: 4; "
                  "opacity: 0.6; } .divercite-board .arrow.alt polygon { stroke-width: 2; "
                  "}</style>\n");
  return defs;
}

// The picture up to its cells (the <g class="view"> left open): BoardSvg's and the skeleton's.
std::string Head(absl::string_view title, int size, bool templates) {
  const std::string canvas = absl::StrFormat("%g", kBoardSvgCanvas);
  const std::string dimensions =
      size > 0 ? absl::StrCat(" width=\"", size, "\" height=\"", size, "\"") : "";
  std::string svg =
      absl::StrCat("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ", canvas, " ", canvas,
                   "\"", dimensions, " class=\"divercite-board\" data-arrow-first=\"",
                   Pair(ArrowStart(Player::kFirst)), "\" data-arrow-second=\"",
                   Pair(ArrowStart(Player::kSecond)), "\" data-arrow-stop=\"",
                   absl::StrFormat("%.17g", kArrowStop), "\" data-arrow-spread=\"",
                   absl::StrFormat("%.17g", kArrowSpread), "\">\n<title>", title,
                   "</title>\n"
                   "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" "
                   "markerWidth=\"3\" markerHeight=\"3\" orient=\"auto-start-reverse\">"
                   "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker>",
                   templates ? Templates() : "",
                   "</defs>\n<g class=\"view\">\n<rect class=\"frame\" x=\"0\" y=\"0\" width=\"",
                   canvas, "\" height=\"", canvas, "\" fill=\"", kBoardColour,
                   "\" stroke=\"#000\" stroke-width=\"15\"/>\n<g class=\"cells\" stroke=\"",
                   kCellStroke, "\" stroke-width=\"1.5\">");
  for (int cell = 0; cell < kNumCells; ++cell) {
    const SvgPoint at = Placed(cell);
    absl::StrAppend(&svg, "\n<polygon class=\"cell ", KindName(cell), "\" data-cell=\"",
                    CellRow(cell), CellColumn(cell), "\" data-x=\"", Number(at.x), "\" data-y=\"",
                    Number(at.y), "\" points=\"", Diamond(Exact(cell), kCell / 2), "\" fill=\"",
                    IsCityCell(cell) ? kEmptyCity : kEmptyResource, "\"/>");
  }
  absl::StrAppend(&svg, "\n</g>");
  return svg;
}

constexpr absl::string_view kTail = "\n</g>\n</svg>";

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
  const SvgPoint start = ArrowStart(mover);
  const SvgPoint end = ArrowEnd(cell, mover);
  return absl::StrCat(
      "<g class=\"arrow\" data-move=\"", MoveToString(move), "\">",
      ArrowLook(move.colour(), absl::StrCat("transform=\"", Translate(cell), "\" "),
                absl::StrCat("x1=\"", Number(start.x), "\" y1=\"", Number(start.y), "\" x2=\"",
                             Number(end.x), "\" y2=\"", Number(end.y), "\" ")),
      "</g>");
}

std::string BoardSkeletonSvg(int size) {
  return absl::StrCat(Head("Divercit\u00e9 board", size, /*templates=*/true), kTail);
}

std::string BoardSvg(const Position& position, const BoardSvgOptions& options) {
  std::string svg =
      Head(absl::StrCat(ToPositionString(position), " (scores ", position.Score(Player::kFirst),
                        "-", position.Score(Player::kSecond), ")"),
           options.size, /*templates=*/false);
  for (int cell = 0; cell < kNumCells; ++cell) {  // by cell: by row, then column
    if (const std::optional<Piece> piece = position.PieceAt(cell)) {
      absl::StrAppend(&svg, "\n", PieceElement(cell, *piece));
    }
  }
  if (!options.last_move.IsNone()) {
    absl::StrAppend(&svg, "\n<polygon class=\"last-move\" data-move=\"",
                    MoveToString(options.last_move), "\" transform=\"",
                    Translate(options.last_move.cell()), "\" ", LastMoveLook());
  }
  if (!options.arrow.IsNone()) {
    absl::StrAppend(
        &svg, "\n",
        BoardArrowSvg(options.arrow, options.arrow_mover.value_or(position.SideToMove())));
  }
  absl::StrAppend(&svg, kTail);
  return svg;
}

}  // namespace divercite
