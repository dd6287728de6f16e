// The board's SVG picture (tools/board_svg): its structure is a contract for the Python
// package's tests, the review page's script and its browser test.
#include "tools/board_svg/board_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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
  EXPECT_EQ(testing::CountOccurrences(svg, "<g class=\"piece city W R\">"), 1);
  EXPECT_EQ(testing::CountOccurrences(svg, "<g class=\"piece resource B G\">"), 1);
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
                                "viewBox=\"0 0 600 600\" class=\"divercite-board\">"));
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
