// The one writer of the standings and cross tables (tools/common/standings_table.h): the
// arena's markup, every text escaped, the column groups, the numbers' forms; and the pages of
// tables carrying the arena's style sheet as the file holds it.
#include "tools/common/standings_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tests/test_util.h"
#include "tools/common/html.h"

namespace divercite {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A rated row with every group's values.
StandingsRow Rated() {
  return StandingsRow{.name = "alpha",
                      .link = "/teams/alpha/",
                      .mark = "",
                      .row_class = "team",
                      .rank = 1,
                      .elo = 1512.5,
                      .elo_low = 1440.2,
                      .elo_high = 1584.8,
                      .games = 8,
                      .wins = 5,
                      .draws = 1,
                      .losses = 2,
                      .points = 5.5,
                      .version = 4,
                      .divercites = 3,
                      .points_for = 120,
                      .points_against = 96,
                      .ms_per_move = 41.25,
                      .time_losses = 1};
}

// The contents of each `tag` ("<td", "<th ") of `html` from `from` to `to`.
std::vector<std::string> Contents(const std::string& html, const std::string& tag, size_t from,
                                  size_t to = std::string::npos) {
  std::vector<std::string> contents;
  for (size_t at = html.find(tag, from); at < to; at = html.find(tag, at + 1)) {
    const size_t open = html.find('>', at) + 1;
    contents.push_back(html.substr(open, html.find("</t", open) - open));
  }
  return contents;
}

// The cells of the table's first body row, as text.
std::vector<std::string> FirstRowCells(const std::string& html) {
  const size_t body = html.find("<tbody>");
  return Contents(html, "<td", body, html.find("</tr>", body));
}

// A table's options showing `columns` (GCC warns of the fields a designated initializer leaves
// out).
StandingsTableOptions Showing(const StandingsColumns& columns) {
  StandingsTableOptions options;
  options.columns = columns;
  return options;
}

StandingsColumns Only(bool StandingsColumns::*group) {
  StandingsColumns columns;
  columns.*group = true;
  return columns;
}

TEST(StandingsTableTest, TheArenasMarkup) {
  const std::string html = StandingsTableHtml({Rated()}, {});
  EXPECT_TRUE(absl::StartsWith(
      html,
      "<div class=\"scroll\">\n<table class=\"standings sortable\">\n<thead><tr><th "
      "data-sort=\"number\">#</th><th data-sort=\"text\">Team</th><th data-sort=\"number\" "
      "title=\"Bradley-Terry Elo over the games\">Elo</th><th data-sort=\"number\" title=\"The "
      "Elo&#39;s 95 % interval (– where unbounded)\">95 %</th>"));
  EXPECT_THAT(html, HasSubstr("<tbody>\n<tr class=\"team\"><td>1</td><td><a "
                              "href=\"/teams/alpha/\">alpha</a></td>"));
  EXPECT_TRUE(absl::EndsWith(html, "</tbody>\n</table>\n</div>\n"));
  // Elo to the unit, halves away from zero; the interval's ends; W, D, L.
  EXPECT_EQ(FirstRowCells(html).size(), 8u);
  EXPECT_THAT(FirstRowCells(html), ElementsAre("1", _, "1513", "1440 … 1585", "8", "5", "1", "2"));
  EXPECT_EQ(testing::CountOccurrences(html, "<th "), 8);
}

TEST(StandingsTableTest, HostileNamesAreEscaped) {
  StandingsRow row = Rated();
  row.name = "<script>alert(\"x\")</script>";
  row.link = "/teams/\"><script>/";
  row.mark = "<b>";
  row.row_class = "team\" onclick=\"x";
  StandingsTableOptions options;
  options.id = "a\"b";
  options.name_heading = "<i>";
  options.empty = "<none>";
  const std::string html = StandingsTableHtml({row}, options);
  for (const char* raw : {"<script", "<b>", "<i>", "\" onclick"}) {
    EXPECT_THAT(html, Not(HasSubstr(raw)));
  }
  for (const char* escaped :
       {"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;",
        "href=\"/teams/&quot;&gt;&lt;script&gt;/\"",
        "<span class=\"&lt;b&gt;-mark\">&lt;b&gt;</span>", "id=\"a&quot;b\"", "&lt;i&gt;</th>"}) {
    EXPECT_THAT(html, HasSubstr(escaped));
  }
  EXPECT_THAT(StandingsTableHtml({}, options),
              HasSubstr("<tr><td colspan=\"8\">&lt;none&gt;</td></tr>"));

  const std::string cross = CrossTableHtml(
      {"<script>", "b'"}, {{std::nullopt, CrossCell{"1/2", "<n>", "p?a=1&b=\"2\""}}}, {});
  EXPECT_THAT(cross, Not(HasSubstr("<script")));
  EXPECT_THAT(cross, Not(HasSubstr("<n>")));
  EXPECT_THAT(cross, HasSubstr("<th title=\"&lt;script&gt;\">1</th><th title=\"b&#39;\">2</th>"));
  EXPECT_THAT(cross, HasSubstr("<a href=\"p?a=1&amp;b=&quot;2&quot;\">1/2</a><br><span "
                               "class=\"note\">&lt;n&gt;</span>"));
}

TEST(StandingsTableTest, ARowWithoutEloOrLink) {
  StandingsRow row;
  row.name = "newcomer";
  row.rank = 3;
  row.mark = "house";
  row.row_class = "house";
  const std::string html = StandingsTableHtml({row}, Showing(Only(&StandingsColumns::win_ratio)));
  EXPECT_THAT(html, HasSubstr("<tr class=\"house\"><td>3</td><td>newcomer <span "
                              "class=\"house-mark\">house</span></td><td>–</td><td>–</td>"));
  EXPECT_THAT(FirstRowCells(html).back(), "–");  // W/L without a game
  // Rated, without a bounded interval.
  row.elo = -0.4;
  EXPECT_THAT(FirstRowCells(StandingsTableHtml({row}, {}))[2], "0");
  EXPECT_THAT(FirstRowCells(StandingsTableHtml({row}, {}))[3], "–");
  // A row without a class, a table without a script: plain <tr>, no "sortable".
  row.row_class.clear();
  StandingsTableOptions fixed;
  fixed.id = "standings";
  fixed.sortable = false;
  const std::string plain = StandingsTableHtml({row}, fixed);
  EXPECT_THAT(plain, HasSubstr("<table class=\"standings\" id=\"standings\">"));
  EXPECT_THAT(plain, HasSubstr("<tbody>\n<tr><td>3</td>"));
}

TEST(StandingsTableTest, ColumnGroups) {
  StandingsRow row = Rated();
  const std::string none = StandingsTableHtml({row}, {});
  for (const char* heading : {"Version", "Points", "W/L", "Score", "Divercités", "ms/move"}) {
    EXPECT_THAT(none, Not(HasSubstr(absl::StrCat(">", heading, "</th>")))) << heading;
  }
  StandingsTableOptions every = Showing({true, true, true, true, true, true});
  every.name_heading = "Engine";
  const std::string all = StandingsTableHtml({row}, every);
  EXPECT_THAT(Contents(all, "<th ", 0),
              ElementsAre("#", "Engine", "Version", "Points", "Elo", "95 %", "Games", "Wins",
                          "Draws", "Losses", "W/L", "Score", "Divercités", "Divercités a game",
                          "Points scored", "Points conceded", "Scored / conceded", "Scored a game",
                          "Conceded a game", "ms/move", "Losses on time"));
  // The seeds' forms: W/L 5/2, divercités 3/8 a game, points 120/96 and 120/8, 96/8 a game.
  EXPECT_THAT(FirstRowCells(all), ElementsAre("1", _, "4", "5.5", "1513", "1440 … 1585", "8", "5",
                                              "1", "2", "2.50", "68.8%", "3", "0.38", "120", "96",
                                              "1.25", "15.00", "12.00", "41.2", "1"));
  // Every heading but the rank's and the name's says what it counts.
  EXPECT_EQ(testing::CountOccurrences(all, " title=\""), 19);
  // Whole points without a decimal.
  row.points = 6;
  EXPECT_EQ(FirstRowCells(StandingsTableHtml({row}, Showing(Only(&StandingsColumns::points))))[2],
            "6");
  // The seeds' Skypiea v5: 10 wins, 3 losses, 259 points scored, 201 conceded, 30
  // divercités in 13 games (3,333333333; 1,288557214; 2,307692308; 19,92307692; 15,46153846).
  const auto seeds = [&row](int wins, int losses, int games, int divercites, int scored,
                            int conceded) {
    row.wins = wins;
    row.draws = 0;
    row.losses = losses;
    row.games = games;
    row.divercites = divercites;
    row.points_for = scored;
    row.points_against = conceded;
    StandingsColumns columns = Only(&StandingsColumns::win_ratio);
    columns.divercites = true;
    const std::vector<std::string> cells =
        FirstRowCells(StandingsTableHtml({row}, Showing(columns)));
    return std::vector<std::string>(cells.begin() + 8, cells.end());
  };
  EXPECT_THAT(seeds(10, 3, 13, 30, 259, 201),
              ElementsAre("3.33", "30", "2.31", "259", "201", "1.29", "19.92", "15.46"));
  // 1 win in 8 (0.125, rounded half to even); no loss: infinite; none conceded: infinite.
  EXPECT_THAT(seeds(1, 8, 9, 0, 100, 0),
              ElementsAre("0.12", "0", "0.00", "100", "0", "∞", "11.11", "0.00"));
  EXPECT_THAT(seeds(1, 0, 1, 5, 29, 16),
              ElementsAre("∞", "5", "5.00", "29", "16", "1.81", "29.00", "16.00"));
  // The same forms outside the table.
  EXPECT_EQ(RatioText(10, 3), "3.33");
  EXPECT_EQ(RatioText(2, 0), "∞");
  EXPECT_EQ(RatioText(0, 0), "–");
  // Neither a win nor a loss, nor a game: none.
  EXPECT_THAT(seeds(0, 0, 0, 0, 0, 0), ElementsAre("–", "0", "–", "0", "0", "–", "–", "–"));
  // The empty row spans every column shown.
  StandingsTableOptions empty = Showing(Only(&StandingsColumns::version));
  empty.columns.divercites = true;
  empty.empty = "No entry.";
  EXPECT_THAT(StandingsTableHtml({}, empty), HasSubstr("<td colspan=\"16\">No entry.</td>"));
}

TEST(StandingsTableTest, CrossTable) {
  std::vector<std::vector<std::optional<CrossCell>>> cells(
      3, {std::nullopt, std::nullopt, std::nullopt});
  cells[0][1] = CrossCell{"1.5/2", "", "pairs/a--b/index.html"};
  cells[1][0] = CrossCell{"0-1-1", "-35 ± 80", ""};
  CrossTableOptions options;
  options.id = "cross-table";
  const std::string html = CrossTableHtml({"a", "b", "c"}, cells, options);
  EXPECT_THAT(html, HasSubstr("<table class=\"cross\" id=\"cross-table\">\n<thead><tr><th>#</th>"
                              "<th>Team</th><th title=\"a\">1</th><th title=\"b\">2</th>"
                              "<th title=\"c\">3</th></tr></thead>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>1</td><td>a</td><td class=\"self\"></td><td><a "
                              "href=\"pairs/a--b/index.html\">1.5/2</a></td><td>–</td></tr>"));
  EXPECT_THAT(html, HasSubstr("<tr><td>2</td><td>b</td><td>0-1-1<br><span class=\"note\">-35 "
                              "± 80</span></td><td class=\"self\"></td><td>–</td></tr>"));
  EXPECT_EQ(testing::CountOccurrences(html, "class=\"self\""), 3);
  // Missing rows of cells are none.
  EXPECT_EQ(testing::CountOccurrences(CrossTableHtml({"a", "b"}, {}, {}), "<td>–</td>"), 2);
}

TEST(StandingsTableTest, PagesCarryTheArenasStyleSheet) {
  std::ifstream file(DIVERCITE_ARENA_CSS);
  ASSERT_TRUE(file) << DIVERCITE_ARENA_CSS;
  const std::string css((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_THAT(css, HasSubstr("table.sortable th"));
  const std::string page = absl::StrCat(TablePageStart("A <title>", "td.x { }\n"), kTablePageEnd);
  EXPECT_THAT(page, HasSubstr(absl::StrCat("<style>\n", css, "td.x { }\n</style>")));
  EXPECT_THAT(page, HasSubstr("<main>\n<h1>A &lt;title&gt;</h1>\n</main>\n</body>\n</html>\n"));
}

}  // namespace
}  // namespace divercite
