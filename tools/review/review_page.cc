#include "tools/review/review_page.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "engine/enum_names.h"
#include "engine/position_string.h"
#include "tools/board_svg/board_svg.h"
#include "tools/common/html.h"
#include "tools/review/analysis_report.h"
#include "tools/review/review_page_template.h"

namespace divercite {
namespace {

// The engine's lines (--multipv) the page shows at a move: the top 3.
constexpr size_t kAlternativesShown = 3;

constexpr EnumName<MoveLabel> kMoveLabelNames[] = {{MoveLabel::kNone, ""},
                                                   {MoveLabel::kInaccuracy, "inaccuracy"},
                                                   {MoveLabel::kMistake, "mistake"},
                                                   {MoveLabel::kBlunder, "blunder"}};
static_assert(NamesAreDistinct(kMoveLabelNames));

Json OptionalJson(const std::optional<std::int64_t>& value) {
  return value ? Json(*value) : Json(nullptr);
}

std::string GameTitle(const GameToAnalyze& game) {
  return absl::StrCat(game.game ? absl::StrCat("Game ", *game.game, ": ") : "", game.p1, " vs ",
                      game.p2);
}

// The board without pieces (BoardSkeletonSvg), drawn once for every page.
const std::string& BoardSkeleton() {
  static const std::string* const skeleton = new std::string(BoardSkeletonSvg());
  return *skeleton;
}

std::string AccuracyText(const std::optional<double>& accuracy) {
  return accuracy ? absl::StrFormat("%.1f", *accuracy) : "-";
}

}  // namespace

std::optional<ClockControl> ClockOf(absl::string_view time_control) {
  if (!absl::ConsumePrefix(&time_control, "tc=") || time_control == "inf") return std::nullopt;
  const std::vector<absl::string_view> parts = absl::StrSplit(time_control, '+');
  double base = 0, increment = 0;
  if (parts.size() > 2 || !absl::SimpleAtod(parts[0], &base) || base <= 0 ||
      (parts.size() == 2 && !absl::SimpleAtod(parts[1], &increment))) {
    return std::nullopt;
  }
  return ClockControl{std::llround(base * 1000), std::llround(increment * 1000)};
}

std::optional<std::int64_t> ClockAfterMove(std::optional<std::int64_t> clock,
                                           const ClockControl& control, std::int64_t ms) {
  if (!clock) return clock;
  *clock -= ms;
  if (*clock >= 0) *clock += control.increment_ms;
  return clock;
}

MoveLabel LabelOfLoss(int loss) {
  if (loss >= kBlunderLoss) return MoveLabel::kBlunder;
  if (loss >= kMistakeLoss) return MoveLabel::kMistake;
  if (loss >= kInaccuracyLoss) return MoveLabel::kInaccuracy;
  return MoveLabel::kNone;
}

absl::string_view MoveLabelText(MoveLabel label) { return NameOf(kMoveLabelNames, label); }

double MoveAccuracy(int loss) { return 100.0 * std::exp2(-loss / 100.0); }

std::optional<double> PlayerAccuracy(const GameAnalysis& analysis, Player player) {
  double sum = 0;
  int moves = 0;
  for (const MoveAnalysis& move : analysis.moves) {
    if (move.opening || move.side != player) continue;
    sum += MoveAccuracy(move.loss);
    ++moves;
  }
  if (moves == 0) return std::nullopt;
  return sum / moves;
}

Json ReviewJson(const GameAnalysis& analysis, absl::string_view app_url) {
  const GameToAnalyze& game = analysis.game;
  Json positions = Json::array(), margins = Json::array(), exact = Json::array();
  Json scores = Json::array(), clocks = Json::array(), moves = Json::array();

  std::array<std::optional<ClockControl>, 2> controls = {ClockOf(game.time_controls[0]),
                                                         ClockOf(game.time_controls[1])};
  std::array<std::optional<std::int64_t>, 2> clock;
  for (int side = 0; side < 2; ++side) {
    if (controls[side]) clock[side] = controls[side]->base_ms;
  }
  Position position = game.start;
  for (size_t k = 0;; ++k) {
    positions.push_back(ToPositionString(position));
    const bool last = k == analysis.moves.size();
    const int value = last ? analysis.last_value : analysis.moves[k].value;
    margins.push_back(position.SideToMove() == Player::kFirst ? value : -value);
    exact.push_back(last ? analysis.last_exact : analysis.moves[k].exact);
    scores.push_back(
        Json::array({position.Score(Player::kFirst), position.Score(Player::kSecond)}));
    // Lost on time: the move it did not make in time took the rest of its clock.
    if (last && game.out_of_time && clock[*game.out_of_time]) clock[*game.out_of_time] = 0;
    clocks.push_back(Json::array({OptionalJson(clock[0]), OptionalJson(clock[1])}));
    if (last) break;

    const MoveAnalysis& move = analysis.moves[k];
    const int side = Index(move.side);
    const std::optional<std::int64_t> ms =
        k < game.move_ms.size() ? game.move_ms[k] : std::optional<std::int64_t>();
    if (ms && clock[side]) clock[side] = ClockAfterMove(clock[side], *controls[side], *ms);
    Json entry = Json::object();
    const MoveLabel label = move.opening ? MoveLabel::kNone : LabelOfLoss(move.loss);
    entry["label"] =
        label == MoveLabel::kNone ? Json(nullptr) : Json(std::string(MoveLabelText(label)));
    entry["ms"] = OptionalJson(ms);
    entry["clock"] = ms ? OptionalJson(clock[side]) : Json(nullptr);
    entry["arrow"] = !move.best.IsNone() && move.best != move.move ? Json(MoveToString(move.best))
                                                                   : Json(nullptr);
    if (!move.lines.empty()) {
      Json arrows = Json::array();
      for (size_t i = 0; i < std::min(move.lines.size(), kAlternativesShown); ++i) {
        arrows.push_back(MoveToString(move.lines[i].move));
      }
      entry["arrows"] = std::move(arrows);
    }
    moves.push_back(std::move(entry));
    position.Play(move.move);
  }

  Json players = Json::object();
  for (const Player player : {Player::kFirst, Player::kSecond}) {
    int counts[4] = {};
    for (const MoveAnalysis& move : analysis.moves) {
      if (move.side == player && !move.opening) ++counts[static_cast<int>(LabelOfLoss(move.loss))];
    }
    // A replay has no losses to judge by.
    const std::optional<double> accuracy =
        analysis.replay ? std::nullopt : PlayerAccuracy(analysis, player);
    Json entry = Json::object();
    entry["accuracy"] = accuracy ? Json(std::round(*accuracy * 10) / 10) : Json(nullptr);
    entry["inaccuracies"] = counts[static_cast<int>(MoveLabel::kInaccuracy)];
    entry["mistakes"] = counts[static_cast<int>(MoveLabel::kMistake)];
    entry["blunders"] = counts[static_cast<int>(MoveLabel::kBlunder)];
    players[std::string(kPlayerKeys[Index(player)])] = std::move(entry);
  }

  Json review = Json::object();
  review["replay"] = analysis.replay;
  review["first_ply"] = game.start.Ply();
  review["thresholds"] = Json::object(
      {{"inaccuracy", kInaccuracyLoss}, {"mistake", kMistakeLoss}, {"blunder", kBlunderLoss}});
  review["positions"] = std::move(positions);
  review["margins"] = std::move(margins);
  review["exact"] = std::move(exact);
  review["scores"] = std::move(scores);
  review["clocks"] = std::move(clocks);
  review["moves"] = std::move(moves);
  review["players"] = std::move(players);
  review["app"] = app_url.empty() ? Json(nullptr) : Json(std::string(app_url));
  Json json = Json::object();
  json["analysis"] = AnalysisJson(analysis);
  json["review"] = std::move(review);
  return json;
}

std::string ReviewPageHtml(const GameAnalysis& analysis, absl::string_view app_url) {
  // '<' only ever appears inside JSON strings, where \u003c reads back as the same text.
  const std::string json =
      absl::StrReplaceAll(DumpJson(ReviewJson(analysis, app_url)), {{"<", "\\u003c"}});
  // One pass: no text put in (a player's name) is read again for a {{...}}.
  return absl::StrReplaceAll(kReviewPageTemplate,
                             {{"{{TITLE}}", HtmlEscape(GameTitle(analysis.game))},
                              {"{{BOARD_SKELETON}}", BoardSkeleton()},
                              {"{{SCRIPT}}", kReviewPageScript},
                              {"{{GAME_JSON}}", json}});
}

std::string ReviewIndexHtml(const std::vector<ReviewIndexEntry>& entries, absl::string_view title) {
  std::string rows;
  for (const ReviewIndexEntry& entry : entries) {
    if (!entry.analysis) {
      absl::StrAppend(&rows, "<tr><td>", HtmlEscape(entry.game_name),
                      "</td><td colspan=\"10\" class=\"error\">analysis failed: ",
                      HtmlEscape(entry.error), "</td></tr>\n");
      continue;
    }
    const GameAnalysis& analysis = *entry.analysis;
    const GameToAnalyze& game = analysis.game;
    std::string cells;
    for (const Player player : {Player::kFirst, Player::kSecond}) {
      const PlayerSummary& summary = analysis.players[Index(player)];
      int labelled = 0;
      for (const MoveAnalysis& move : analysis.moves) {
        if (move.side == player && !move.opening && LabelOfLoss(move.loss) != MoveLabel::kNone) {
          ++labelled;
        }
      }
      absl::StrAppend(&cells,
                      absl::StrFormat("<td>%.2f</td><td>%s</td><td>%d</td>", summary.loss / 100.0,
                                      AccuracyText(PlayerAccuracy(analysis, player)), labelled));
    }
    absl::StrAppend(&rows, "<tr><td><a href=\"", HtmlEscape(entry.page), "\">",
                    game.game ? absl::StrCat("Game ", *game.game) : "Game", "</a></td><td>",
                    HtmlEscape(game.p1), "</td><td>", HtmlEscape(game.p2), "</td><td>",
                    GameResultText(analysis.result), "</td><td>", analysis.final_scores[0], "-",
                    analysis.final_scores[1], "</td>", cells, "</tr>\n");
  }
  return absl::StrCat(
      TablePageStart(title),
      "<p>Points lost, accuracy (100 &times; 2<sup>&minus;points lost</sup>, averaged "
      "over a player's moves) and labelled moves (inaccuracy, mistake or blunder: at least ",
      absl::StrFormat("%g, %g or %g", kInaccuracyLoss / 100.0, kMistakeLoss / 100.0,
                      kBlunderLoss / 100.0),
      " points lost) of each player; each game's page replays it.</p>\n"
      "<div class=\"scroll\"><table class=\"games\">\n<tr><th>game</th><th>first "
      "player</th><th>second player</th><th>result</th>"
      "<th>scores</th><th>first: lost</th><th>accuracy</th><th>labelled</th>"
      "<th>second: lost</th><th>accuracy</th><th>labelled</th></tr>\n",
      rows, "</table></div>\n", kTablePageEnd);
}

std::string ReviewPageName(const GameToAnalyze& game) {
  return game.game ? absl::StrCat("game-", *game.game, ".html") : "game.html";
}

absl::Status ReviewPageWriter::Prepare() {
  if (!folder_) return absl::OkStatus();
  std::error_code error;
  std::filesystem::create_directories(path_, error);
  if (error) return absl::PermissionDeniedError(absl::StrCat(path_, ": ", error.message()));
  return absl::OkStatus();
}

absl::Status ReviewPageWriter::Add(const GameToAnalyze& game,
                                   const absl::StatusOr<GameAnalysis>& analysis) {
  const absl::Time began = absl::Now();
  ReviewIndexEntry entry;
  entry.page = ReviewPageName(game);
  entry.game_name = game.game ? absl::StrCat("Game ", *game.game) : "Game";
  if (analysis.ok()) {
    entry.analysis = *analysis;
    const std::string page = folder_ ? (std::filesystem::path(path_) / entry.page).string() : path_;
    if (absl::Status status = WriteTextFile(page, ReviewPageHtml(*analysis, app_url_));
        !status.ok()) {
      return status;
    }
    ++pages_;
  } else {
    entry.error = std::string(analysis.status().message());
  }
  if (folder_) {
    entries_.push_back(std::move(entry));
    const std::string index = (std::filesystem::path(path_) / "index.html").string();
    if (absl::Status status = WriteTextFile(index, ReviewIndexHtml(entries_, "Game reviews"));
        !status.ok()) {
      return status;
    }
  }
  writing_ += absl::Now() - began;
  return absl::OkStatus();
}

std::string ReviewPageWriter::Summary() const {
  return absl::StrFormat("%d review page%s written in %.2f s: %s", pages_, pages_ == 1 ? "" : "s",
                         absl::ToDoubleSeconds(writing_),
                         folder_ ? (std::filesystem::path(path_) / "index.html").string() : path_);
}

}  // namespace divercite
