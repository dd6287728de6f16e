// A game's analysis as one self-contained HTML page (no network, no server), and an index of
// several such pages.
//
// The page holds its game as JSON in <script type="application/json" id="game">, a contract
// for tests and other programs:
//   {"analysis": <AnalysisJson, analysis_report.h>,
//    "review": {"replay": false,                // true: recorded scores, no analysis
//               "first_ply": 0,                 // the start's (a position string's may be more)
//               "thresholds": {"inaccuracy": 50, "mistake": 100, "blunder": 200},
//               "positions": ["1/3/5/7/9/7/5/3/1 w", ...],  // the position string at every
//                                                          // ply, first_ply to the last
//               "margins": [cp, ...],           // each ply's value, the first player's view
//               "exact": [bool, ...],           // each ply's value is exact
//               "scores": [[p1, p2], ...],      // the board's scores at each ply
//               "clocks": [[ms|null, ms|null], ...],  // each side's clock at each ply
//               "moves": [{"label": "inaccuracy"|"mistake"|"blunder"|null,
//                          "ms": ms|null, "clock": ms|null,         // one per move
//                          "arrow": "GR44"|null,    // the engine's best, if not the move played
//                          "arrows": ["GR13", ...]},   // its top 3 lines' moves (--multipv)
//                         ...],
//               "players": {"p1": {"accuracy": 0-100|null, "inaccuracies": n,
//                                  "mistakes": n, "blunders": n}, "p2": {...}},
//               "app": "https://.../index.html"|null}}  // the web app each ply links to
//                                                    // (its game to that ply, to play on)
// Every '<' in it is written as \u003c, so that no text inside it ("</script>") can end the
// script element. The board is drawn once: the skeleton (BoardSkeletonSvg, tools/board_svg) in
// <template id="board-skeleton">, and the page's one script, web/board.js then
// review_page.js, inlined, places each ply's pieces from its position string (a page weighs
// about 50 kB, a tenth of what 41 drawn boards made). The script renders from the JSON: the
// board of the current ply (only that ply's pieces are in the document, each an SVG element of
// class `piece`), the margin graph (an SVG circle of class `point` per move) and the move list;
// the ply is in the URL (FILE#ply=N: the board with N pieces, as the analysis counts plies).
// The arrays are indexed from first_ply: positions[i] is ply first_ply + i.
//
// The board at ply N is the position after N moves, the move played outlined, and, when the
// engine preferred another ("arrow"), the engine's best move drawn as an arrow from the mover's
// side. Where the analysis kept the engine's lines (--multipv), move N's top 3 are listed beside
// the board (move, value, exact / proven: analysis.moves[N - 1].lines) and each draws its
// arrow on the board, from the mover's side, when pointed at or clicked: "arrows" holds their
// moves, only for the moves that have lines.
#ifndef DIVERCITE_TOOLS_REVIEW_REVIEW_PAGE_H_
#define DIVERCITE_TOOLS_REVIEW_REVIEW_PAGE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "tools/common/html.h"  // WriteTextFile, for the writer's callers
#include "tools/common/json.h"
#include "tools/review/analysed_game.h"

namespace divercite {

// A move's label by the points it lost (centipoints of final margin): at least half a point
// an inaccuracy, a point a mistake, two points a blunder (engine games are often won by two
// or three points). Opening moves (not the players' choices) get none.
inline constexpr int kInaccuracyLoss = 50;
inline constexpr int kMistakeLoss = 100;
inline constexpr int kBlunderLoss = 200;
enum class MoveLabel { kNone, kInaccuracy, kMistake, kBlunder };
MoveLabel LabelOfLoss(int loss);
absl::string_view MoveLabelText(MoveLabel label);  // "", "inaccuracy", "mistake", "blunder"

// A move's accuracy, 100 * 2^(-points lost): 100 for a best move, 50 for a point lost, 25
// for two. A player's accuracy is the mean over its own moves (the opening's excluded); none
// without any.
double MoveAccuracy(int loss);
std::optional<double> PlayerAccuracy(const GameAnalysis& analysis, Player player);

// A game clock's base and increment (ms) from a time control as records write it
// ("tc=10+0.1"); none for the others (per-move times, depths, nodes, tc=inf).
struct ClockControl {
  std::int64_t base_ms = 0, increment_ms = 0;
};
std::optional<ClockControl> ClockOf(absl::string_view time_control);
// The runner's clock (tools/match/time_control.h) after a move of `ms`: the time taken, then
// the increment unless the clock ran out. None stays none.
std::optional<std::int64_t> ClockAfterMove(std::optional<std::int64_t> clock,
                                           const ClockControl& control, std::int64_t ms);

// The page's JSON (above), before its '<' are escaped; `app_url`, when not empty, the web
// app's address, where the page's "Play from here" link opens the game at the ply shown.
Json ReviewJson(const GameAnalysis& analysis, absl::string_view app_url = "");

// The whole page.
std::string ReviewPageHtml(const GameAnalysis& analysis, absl::string_view app_url = "");

// One line of the index: a game's page (its file name, relative to the index) and its
// analysis, or the error that stopped it.
struct ReviewIndexEntry {
  std::string page;
  std::optional<GameAnalysis> analysis;
  std::string error;      // when there is no analysis
  std::string game_name;  // "Game 3" when there is no analysis to name it
};

// An HTML page linking `entries`: each game's players, result, scores, and each player's
// points lost, accuracy and labelled moves.
std::string ReviewIndexHtml(const std::vector<ReviewIndexEntry>& entries, absl::string_view title);

// The file name of a game's page in a folder of pages: game-<N>.html (its number in the
// records file), game.html without one.
std::string ReviewPageName(const GameToAnalyze& game);

// What --html writes as the games are analysed: one page at `path`, or in the folder `path`
// (created) a page per game and the index, rewritten after every game so that a long run
// shows the games done so far.
class ReviewPageWriter {
 public:
  // `app_url`: as ReviewPageHtml's.
  ReviewPageWriter(std::string path, bool folder, std::string app_url = "")
      : path_(std::move(path)), folder_(folder), app_url_(std::move(app_url)) {}

  absl::Status Prepare();
  // The page of `game` if its analysis succeeded, and the index in a folder.
  absl::Status Add(const GameToAnalyze& game, const absl::StatusOr<GameAnalysis>& analysis);
  // "N review pages written in S s: PATH" (the index's path for a folder).
  std::string Summary() const;

 private:
  std::string path_;
  bool folder_;
  std::string app_url_;
  std::vector<ReviewIndexEntry> entries_;
  int pages_ = 0;
  absl::Duration writing_;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_REVIEW_REVIEW_PAGE_H_
