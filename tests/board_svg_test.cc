// The board's SVG picture (tools/board_svg): its structure is a contract for the Python
// package's tests, the review page's script and its browser test.
#include "tools/board_svg/board_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/board.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

Move MoveOf(const char* text) { return *ParseMove(text); }

TEST(BoardSvgTest, CellsAndOnePieceElementPerPiece) {
  const std::vector<Position> line = testing::RandomGame(7);
  for (const Position& position : line) {
    const std::string svg = BoardSvg(position);
    ASSERT_TRUE(absl::StartsWith(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    ASSERT_TRUE(absl::EndsWith(svg, "</svg>"));
    EXPECT_EQ(testing::CountOccurrences(svg, "class=\"cell "), kNumCells);
    EXPECT_EQ(testing::CountOccurrences(svg, "class=\"cell city\""), 16);
    EXPECT_EQ(testing::CountOccurrences(svg, "class=\"piece "), position.Ply());
    EXPECT_EQ(testing::CountOccurrences(svg, "<g "), testing::CountOccurrences(svg, "</g>"));
    EXPECT_EQ(testing::CountOccurrences(svg, "class=\"last-move\""), 0);
    EXPECT_EQ(testing::CountOccurrences(svg, "class=\"arrow\""), 0);
    EXPECT_TRUE(absl::StrContains(svg, absl::StrCat("(scores ", position.Score(Player::kFirst), "-",
                                                    position.Score(Player::kSecond), ")</title>")));
  }
}

TEST(BoardSvgTest, PiecesNameTheirKindOwnerAndColour) {
  Position position = Position::Start();
  position.Play(MoveOf("RC14"));  // first player's red city
  position.Play(MoveOf("GR04"));  // second player's green resource
  const std::string svg = BoardSvg(position);
  EXPECT_EQ(testing::CountOccurrences(svg, "<g class=\"piece city W R\" transform="), 1);
  EXPECT_EQ(testing::CountOccurrences(svg, "<g class=\"piece resource B G\" transform="), 1);
  EXPECT_EQ(testing::CountOccurrences(svg, "<circle "), 1);  // the city's disc
}

TEST(BoardSvgTest, LastMoveArrowAndSize) {
  Position position = Position::Start();
  position.Play(MoveOf("RC14"));
  BoardSvgOptions options;
  options.last_move = MoveOf("RC14");
  options.arrow = MoveOf("GR13");
  options.size = 250;
  const std::string svg = BoardSvg(position, options);
  EXPECT_EQ(testing::CountOccurrences(svg, "<polygon class=\"last-move\" data-move=\"RC14\""), 1);
  EXPECT_EQ(testing::CountOccurrences(svg, "<g class=\"arrow\" data-move=\"GR13\">"), 1);
  EXPECT_TRUE(absl::StrContains(svg, " width=\"250\" height=\"250\" "));
  // The second player moves: the arrow starts at the right edge; told otherwise, the left.
  EXPECT_TRUE(absl::StrContains(svg, "<line x1=\"586.0\" y1=\"300.0\""));
  options.arrow_mover = Player::kFirst;
  EXPECT_TRUE(absl::StrContains(BoardSvg(position, options), "<line x1=\"14.0\" y1=\"300.0\""));
  options.size = 0;
  EXPECT_TRUE(absl::StrContains(BoardSvg(position, options),
                                "viewBox=\"0 0 600 600\" class=\"divercite-board\" "));
}

// The text between `open` (included) and the next `close` after it, from `from`.
std::string Between(const std::string& text, const std::string& open, const std::string& close,
                    size_t from = 0) {
  const size_t begin = text.find(open, from);
  if (begin == std::string::npos) return "";
  const size_t end = text.find(close, begin + open.size());
  return end == std::string::npos ? "" : text.substr(begin, end + close.size() - begin);
}

TEST(BoardSvgTest, SkeletonHasTheCellsAndTheTemplatesButNoPiece) {
  const std::string skeleton = BoardSkeletonSvg();
  ASSERT_TRUE(absl::StartsWith(skeleton, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  ASSERT_TRUE(absl::EndsWith(skeleton, "</svg>"));
  EXPECT_TRUE(absl::StrContains(skeleton, "viewBox=\"0 0 600 600\" class=\"divercite-board\""));
  EXPECT_EQ(testing::CountOccurrences(skeleton, "class=\"cell "), kNumCells);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "class=\"piece"), 0);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "class=\"arrow"), 0);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "class=\"last-move"), 0);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "<g data-piece=\""), 16);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "<g data-arrow=\""), 4);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "data-mark=\"last-move\""), 1);
  EXPECT_EQ(testing::CountOccurrences(skeleton, "<g "),
            testing::CountOccurrences(skeleton, "</g>"));
  EXPECT_TRUE(absl::StrContains(skeleton,
                                "data-arrow-first=\"14.0,300.0\" "
                                "data-arrow-second=\"586.0,300.0\""));
  // The cells' centres, to 0.1 unit.
  const SvgPoint centre = CellCentre(1, 4);
  EXPECT_TRUE(absl::StrContains(
      skeleton,
      absl::StrFormat("data-cell=\"14\" data-x=\"%.1f\" data-y=\"%.1f\"", centre.x, centre.y)));
  EXPECT_TRUE(
      absl::StrContains(BoardSkeletonSvg(300), "600 600\" width=\"300\" height=\"300\" class="));
}

TEST(BoardSvgTest, PiecesAreTheSkeletonsTemplatesPlacedOnTheirCells) {
  // One drawing: each piece of BoardSvg holds its template's elements, translated to its
  // cell's data-x, data-y; the last move's outline and an arrow's too.
  const std::string skeleton = BoardSkeletonSvg();
  Position position = Position::Start();
  for (const char* move : {"RC14", "GR04", "YR13", "BC23"}) position.Play(MoveOf(move));
  BoardSvgOptions options;
  options.last_move = MoveOf("BC23");
  options.arrow = MoveOf("YR22");
  const std::string svg = BoardSvg(position, options);
  for (const auto& [cell, look] : {std::pair{"14", "city W R"},
                                   {"04", "resource B G"},
                                   {"13", "resource W Y"},
                                   {"23", "city B B"}}) {
    const std::string cell_element =
        Between(skeleton, absl::StrCat("data-cell=\"", cell, "\""), "\" points");
    ASSERT_FALSE(cell_element.empty()) << cell;
    const std::string x = Between(cell_element, "data-x=\"", "\"");
    const std::string y = Between(cell_element, "data-y=\"", "\"");
    const std::string at = absl::StrCat(x.substr(8, x.size() - 9), ",", y.substr(8, y.size() - 9));
    const std::string piece = Between(
        svg, absl::StrCat("<g class=\"piece ", look, "\" transform=\"translate(", at, ")\">"),
        "</g>");
    ASSERT_FALSE(piece.empty()) << look << " at " << at << " in " << svg;
    const std::string inside = piece.substr(piece.find('>') + 1);
    const std::string template_element =
        Between(skeleton, absl::StrCat("<g data-piece=\"", look, "\">"), "</g>");
    EXPECT_EQ(inside, template_element.substr(template_element.find('>') + 1)) << look;
  }
  const std::string last_move = Between(svg, "<polygon class=\"last-move\"", "/>");
  const std::string mark = Between(skeleton, "<polygon data-mark=\"last-move\"", "/>");
  EXPECT_EQ(last_move.substr(last_move.find(" points=")), mark.substr(mark.find(" points=")));
  const std::string arrow = Between(svg, "<g class=\"arrow\" data-move=\"YR22\">", "</g>");
  const std::string yellow = Between(skeleton, "<g data-arrow=\"Y\">", "</g>");
  EXPECT_TRUE(absl::StrContains(yellow, "stroke=\"#f0c933\""));
  EXPECT_EQ(testing::CountOccurrences(arrow, "stroke=\"#f0c933\""), 2);
  EXPECT_EQ(Between(arrow, "points=", "/>"), Between(yellow, "points=", "/>"));
}

TEST(BoardSvgTest, CellsWhereTheCourseGuiDrawsThem) {
  // main.js: the centre at (300, 300); (0, 4) up and to the right, (4, 0) up and to the left,
  // both along the diagonals.
  const SvgPoint centre = CellCentre(4, 4);
  EXPECT_NEAR(centre.x, 300, 1e-9);
  EXPECT_NEAR(centre.y, 300, 1e-9);
  const SvgPoint top_right = CellCentre(0, 4);
  EXPECT_GT(top_right.x, 300);
  EXPECT_LT(top_right.y, 300);
  EXPECT_NEAR(top_right.x - 300, 300 - top_right.y, 1e-9);
  const SvgPoint top_left = CellCentre(4, 0);
  EXPECT_LT(top_left.x, 300);
  EXPECT_LT(top_left.y, 300);
  // Every cell inside the frame.
  for (int cell = 0; cell < kNumCells; ++cell) {
    const SvgPoint p = CellCentre(CellRow(cell), CellColumn(cell));
    EXPECT_GT(p.x, 0);
    EXPECT_LT(p.x, kBoardSvgCanvas);
    EXPECT_GT(p.y, 0);
    EXPECT_LT(p.y, kBoardSvgCanvas);
  }
}

}  // namespace
}  // namespace divercite
