// The review page's data (tools/review/review_page.h), from analyses made by hand: labels,
// accuracy, boards, margins, clocks, and the JSON that no text can break out of.
#include "tools/review/review_page.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "tests/test_util.h"
#include "tools/analysis/game_sources.h"

namespace divercite {
namespace {

// Six moves from the start, the first two an opening; each move lost `losses[k]`, its value
// 100 * k (mover's view), the engine's best another move where it lost points.
GameAnalysis MadeAnalysis(const std::array<int, 6>& losses) {
  GameAnalysis analysis;
  analysis.game = *GameFromMoveList("RC14 GR04 BC23 YR13 RR33 GC32");
  analysis.game.game = 3;
  analysis.game.p1 = "one";
  analysis.game.p2 = "two";
  analysis.game.opening_plies = 2;
  analysis.game.move_ms = {std::nullopt, std::nullopt, 1500, 2500, 500, 4000};
  analysis.game.time_controls = {"tc=10+1", "st=1"};
  Position position = analysis.game.start;
  for (int k = 0; k < 6; ++k) {
    MoveAnalysis move;
    move.ply = k;
    move.side = position.SideToMove();
    move.move = analysis.game.moves[k];
    move.best = losses[k] > 0 ? *ParseMove("YR44") : move.move;
    move.value = 100 * k;
    move.played = move.value - losses[k];
    move.loss = losses[k];
    move.opening = k < 2;
    analysis.moves.push_back(move);
    position.Play(move.move);
  }
  analysis.last_value = 250;
  return analysis;
}

TEST(ReviewPageTest, LabelsByPointsLost) {
  EXPECT_EQ(LabelOfLoss(0), MoveLabel::kNone);
  EXPECT_EQ(LabelOfLoss(kInaccuracyLoss - 1), MoveLabel::kNone);
  EXPECT_EQ(LabelOfLoss(kInaccuracyLoss), MoveLabel::kInaccuracy);
  EXPECT_EQ(LabelOfLoss(kMistakeLoss - 1), MoveLabel::kInaccuracy);
  EXPECT_EQ(LabelOfLoss(kMistakeLoss), MoveLabel::kMistake);
  EXPECT_EQ(LabelOfLoss(kBlunderLoss - 1), MoveLabel::kMistake);
  EXPECT_EQ(LabelOfLoss(kBlunderLoss), MoveLabel::kBlunder);
  EXPECT_EQ(MoveLabelText(MoveLabel::kMistake), "mistake");
}

TEST(ReviewPageTest, AccuracyHalvesWithEveryPointLost) {
  EXPECT_DOUBLE_EQ(MoveAccuracy(0), 100);
  EXPECT_DOUBLE_EQ(MoveAccuracy(100), 50);
  EXPECT_DOUBLE_EQ(MoveAccuracy(300), 12.5);
  // The first player's own moves are plies 2 and 4 (0 is the opening's).
  const GameAnalysis analysis = MadeAnalysis({900, 0, 100, 0, 0, 200});
  EXPECT_DOUBLE_EQ(*PlayerAccuracy(analysis, Player::kFirst), 75);
  EXPECT_DOUBLE_EQ(*PlayerAccuracy(analysis, Player::kSecond), 62.5);
  GameAnalysis opening_only = analysis;
  for (MoveAnalysis& move : opening_only.moves) move.opening = true;
  EXPECT_FALSE(PlayerAccuracy(opening_only, Player::kFirst));
}

TEST(ReviewPageTest, BoardsMarginsLabelsAndClocks) {
  const Json json = ReviewJson(MadeAnalysis({900, 0, kInaccuracyLoss, 0, 0, kBlunderLoss}));
  const Json& review = json["review"];
  // The board at every ply is its position string; the page's script draws it with
  // web/board.js.
  ASSERT_EQ(review["positions"].size(), 7u);
  EXPECT_EQ(review["positions"][0], "1/3/5/7/9/7/5/3/1 w");
  EXPECT_EQ(review["positions"][1], "1/1R1/5/7/9/7/5/3/1 b");
  // The arrow: the engine's best where the move played lost points (the page draws it from
  // the mover's side); none where it did not.
  EXPECT_EQ(review["moves"][0]["arrow"], "YR44");
  EXPECT_EQ(review["moves"][1]["arrow"], nullptr);
  EXPECT_EQ(review["moves"][5]["arrow"], "YR44");
  EXPECT_FALSE(review["moves"][0].contains("arrows"));  // no engine lines kept
  // Margins are the first player's view: ply k's value is 100 k for its mover.
  EXPECT_EQ(review["margins"], Json::parse("[0, -100, 200, -300, 400, -500, 250]"));
  // Labels: none for the opening's blunder.
  EXPECT_EQ(review["moves"][0]["label"], nullptr);
  EXPECT_EQ(review["moves"][2]["label"], "inaccuracy");
  EXPECT_EQ(review["moves"][5]["label"], "blunder");
  EXPECT_EQ(review["players"]["p2"]["blunders"], 1);
  // tc=10+1 for the first player: 10 s, less 1.5 s plus 1, less 0.5 s plus 1. The second
  // player's st=1 has no clock, only move times.
  EXPECT_EQ(review["clocks"][0], Json::parse("[10000, null]"));
  EXPECT_EQ(review["clocks"][3], Json::parse("[9500, null]"));
  EXPECT_EQ(review["clocks"][6], Json::parse("[10000, null]"));
  EXPECT_EQ(review["moves"][4]["clock"], 10000);
  EXPECT_EQ(review["moves"][5]["ms"], 4000);
  EXPECT_EQ(review["moves"][5]["clock"], nullptr);
  EXPECT_EQ(review["moves"][0]["ms"], nullptr);
  EXPECT_EQ(json["analysis"]["p1"], "one");
}

TEST(ReviewPageTest, PliesCountFromTheStart) {
  // A game from a position string: its boards start with the start's pieces.
  GameAnalysis analysis = MadeAnalysis({0, 0, 0, 0, 0, 0});
  analysis.game = *GameFromMoveList("RR33 GC32", "fen g/yR1/1B3/7/9/7/5/3/1 w");
  analysis.moves.resize(2);
  for (int k = 0; k < 2; ++k) {
    analysis.moves[k].ply = 4 + k;
    analysis.moves[k].move = analysis.game.moves[k];
  }
  const Json review = ReviewJson(analysis)["review"];
  EXPECT_EQ(review["first_ply"], 4);
  ASSERT_EQ(review["positions"].size(), 3u);
  EXPECT_EQ(review["positions"][0], "g/yR1/1B3/7/9/7/5/3/1 w");
  EXPECT_EQ(review["positions"][2], "g/yR1/1B3/1gR4/9/7/5/3/1 w");
  EXPECT_EQ(ReviewJson(MadeAnalysis({0, 0, 0, 0, 0, 0}))["review"]["first_ply"], 0);
  // The app the page links to (--app), or none.
  EXPECT_TRUE(review["app"].is_null());
  EXPECT_EQ(ReviewJson(analysis, "https://example.org/divercite/")["review"]["app"],
            "https://example.org/divercite/");
}

TEST(ReviewPageTest, NoTextEndsTheScriptElement) {
  GameAnalysis analysis = MadeAnalysis({0, 0, 0, 0, 0, 0});
  analysis.game.p1 = "a</script><script>alert(1)</script><!--";
  const std::string page = ReviewPageHtml(analysis);
  const std::string open = "<script type=\"application/json\" id=\"game\">";
  ASSERT_EQ(testing::CountOccurrences(page, open), 1);
  const size_t begin = page.find(open) + open.size();
  const size_t end = page.find("</script>", begin);
  absl::StatusOr<Json> json = ParseJson(page.substr(begin, end - begin));
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ((*json)["analysis"]["p1"], analysis.game.p1);
  EXPECT_EQ(testing::CountOccurrences(page, "</script>"),
            2);  // the JSON's and the page's own script's
  EXPECT_FALSE(absl::StrContains(page, "<!--\""));
  EXPECT_TRUE(absl::StrContains(page, "<title>Game 3: a&lt;/script&gt;"));
  EXPECT_EQ(ReviewPageName(analysis.game), "game-3.html");
}

TEST(ReviewPageTest, TheBoardIsDrawnOnceAndItsModuleInlined) {
  // The skeleton once, the script bundled with web/board.js once, and no board drawn in the
  // JSON: the page is small.
  const std::string page = ReviewPageHtml(MadeAnalysis({0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(testing::CountOccurrences(page, "<template id=\"board-skeleton\"><svg "), 1);
  EXPECT_EQ(testing::CountOccurrences(page, "class=\"cell "), kNumCells);
  EXPECT_EQ(testing::CountOccurrences(page, "<g data-piece="), 16);
  EXPECT_EQ(testing::CountOccurrences(page, "class=\"piece"), 0);
  EXPECT_EQ(testing::CountOccurrences(page, "Made by scripts/bundle-pages.sh"), 1);
  // web/board.js's mount() (the bundle is minified: its words, not its names, are kept).
  EXPECT_EQ(testing::CountOccurrences(page, "DiverciteBoard.mount: not a board skeleton"), 1);
  EXPECT_EQ(testing::CountOccurrences(page, "Object.freeze({mount:"), 1);
  EXPECT_FALSE(absl::StrContains(page, "{{"));
  EXPECT_LT(page.size(), 60000u);
}

TEST(ReviewPageTest, IndexLinksEveryGame) {
  std::vector<ReviewIndexEntry> entries(2);
  entries[0].page = "game-3.html";
  entries[0].analysis = MadeAnalysis({0, 0, 100, 0, 0, 0});
  entries[1].page = "game-4.html";
  entries[1].game_name = "Game 4";
  entries[1].error = "ply 3: the engine <crashed>";
  const std::string index = ReviewIndexHtml(entries, "Reviews");
  EXPECT_EQ(testing::CountOccurrences(index, "<a href=\"game-3.html\">Game 3</a>"), 1);
  EXPECT_EQ(testing::CountOccurrences(index, "<a href="), 1);
  EXPECT_TRUE(absl::StrContains(index, "analysis failed: ply 3: the engine &lt;crashed&gt;"));
}

TEST(ReviewPageTest, WriterFillsAFolder) {
  const std::filesystem::path folder =
      std::filesystem::path(::testing::TempDir()) / "review_page_test_folder";
  std::filesystem::remove_all(folder);
  ReviewPageWriter writer(folder.string(), /*folder=*/true);
  ASSERT_TRUE(writer.Prepare().ok());
  const GameAnalysis analysis = MadeAnalysis({0, 0, 0, 0, 0, 0});
  ASSERT_TRUE(writer.Add(analysis.game, analysis).ok());
  GameToAnalyze failed = analysis.game;
  failed.game = 4;
  ASSERT_TRUE(writer.Add(failed, absl::InternalError("the engine crashed")).ok());
  EXPECT_TRUE(std::filesystem::exists(folder / "game-3.html"));
  EXPECT_FALSE(std::filesystem::exists(folder / "game-4.html"));
  std::ifstream in(folder / "index.html");
  const std::string index((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(absl::StrContains(index, "<a href=\"game-3.html\">"));
  EXPECT_TRUE(absl::StrContains(index, "Game 4</td><td colspan=\"10\" class=\"error\">"));
  EXPECT_TRUE(absl::StartsWith(writer.Summary(), "1 review page written in "));
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace divercite
