// libFuzzer target for the text front end: the input is a script of protocol lines fed to the
// command handler, and the same bytes are thrown at the position-string and move parsers.
//
// One Protocol serves every input, brought back to the state of a fresh one before each: a
// new Protocol per input would cost two 16 MiB tables, and under ASan every large block is
// freshly mapped, so faulting in its pages took ~100 ms an input (9 runs a second). The reset
// is `ucinewgame` (table, position, agent) plus, after an input that sent `setoption`, every
// option back to the default the handler announces for it after `uci` (so an option added
// later is reset too). Nothing of the previous input is left behind, so a crash reproduces
// from its input file alone. The table stays at 1 MiB rather than the default 16 to make
// `ucinewgame` cheap (see kMaxHashMegabytes).
//
// Bounding the expensive commands, so that every input runs in milliseconds:
// - a valid `bench` (no depth, or 1 to 40) is skipped: it searches fixed positions whatever
//   the input, with a fresh 16 MiB table (~150 ms under ASan); its malformed forms run;
// - `go perft N` with a valid N above kMaxPerftDepth runs at kMaxPerftDepth;
// - every other `go` gets ` depth <kMaxSearchDepth>` appended (before its `searchmoves`, which
//   take the rest of the line), or the plies left when they are at most kMaxSolvePlies (a
//   later limit overrides an earlier one; a malformed line stays malformed), and its `movetime` is
//   capped at kMaxMoveTimeMs; `stop` follows it when it holds `infinite` (which otherwise waits for
//   `stop` after the last depth); then the harness waits for its `bestmove`. Searches thus never
//   overlap the following commands, and with one thread an input runs the same way every time. The
//   concurrent paths (commands during a search) are the TSan build's and protocol_search_test's
//   job;
// - the course agents (`setoption name Agent`) ignore the depth, and all but random and greedy
//   search deep from the middle game: with one of them selected, a `go` runs only when at
//   most kMaxAgentPlies plies are left;
// - `setoption` Hash and Threads values in range but above a cap are lowered to the cap;
// - at most kMaxCostlyCommands `go` lines run per input, later ones are skipped.
// Malformed forms of these commands are passed through untouched, so their error paths are
// fuzzed too. After every command the handler's position must survive a round trip through
// its position string and keep its Zobrist key and scores consistent.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/move.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "tools/uci/protocol.h"

namespace divercite {
namespace {

// perft counts the last ply in bulk: perft 3 from the start (4,093,440 leaves) takes a few
// ms under ASan, perft 4 (622 million) far too long.
constexpr int kMaxPerftDepth = 3;
// A search goes to kMaxSearchDepth, or solves to the end when at most kMaxSolvePlies plies
// are left, so that the solver (root solve, last-move solve, margin bounds, evaluation
// ordering from 5 plies) is fuzzed too: 7 plies is a few thousand nodes, 10 some 100,000.
constexpr int kMaxSearchDepth = 2;
constexpr int kMaxSolvePlies = 7;
constexpr std::int64_t kMaxMoveTimeMs = 20;  // mcts runs for its movetime
// With 8 plies left every agent moves in ~10 ms under ASan; earlier, most take 50-350 ms
// (little_garden's depth-3 minimax 333 ms at ply 2, impel_down 300 ms, mcts 60 ms).
constexpr int kMaxAgentPlies = 8;
constexpr absl::string_view kCheapAgents[] = {"engine", "random", "greedy"};
// The protocol allows 1 to 65536. With every valid value lowered to 1, the table the reset
// leaves (1 MiB) is the one any input leaves: no resize between inputs, which would map and
// fault in a fresh block each time.
constexpr int kMaxHashMegabytes = 1;
constexpr int kMaxThreads = 4;  // the protocol allows 1 to 256
constexpr int kProtocolMaxHash = 65536;
constexpr int kProtocolMaxThreads = 256;
constexpr int kMaxCostlyCommands = 8;  // `go` lines run per input
constexpr int kMaxMoveTokens = 64;     // words of the input tried as moves

// Stops the run with a message: libFuzzer reports the abort as a crash with this input.
[[noreturn]] void Fail(absl::string_view what, absl::string_view detail) {
  std::fprintf(stderr, "protocol_fuzzer invariant failed: %.*s: %.*s\n",
               static_cast<int>(what.size()), what.data(), static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

// The protocol's own tokenisation (tools/protocol.cc), so that the harness sees a line the
// way the handler will.
std::vector<absl::string_view> Tokens(absl::string_view line) {
  return absl::StrSplit(line, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
}

// If `token` is a valid integer above `cap` (and at most `max`, the protocol's own bound),
// returns the cap as text; otherwise the token unchanged, so errors stay errors.
std::string Capped(absl::string_view token, std::int64_t cap, std::int64_t max) {
  std::int64_t value = 0;
  if (absl::SimpleAtoi(token, &value) && value > cap && value <= max) {
    return std::to_string(cap);
  }
  return std::string(token);
}

// The incremental state agrees with the board, and the position string says it all.
void CheckPosition(const Position& position, absl::string_view context) {
  if (position.Key() != position.KeyFromScratch()) Fail("incremental key", context);
  if (!position.IsGameOver() && position.ScoresFromScratch() !=
                                    std::array<int, kNumPlayers>{position.Score(Player::kFirst),
                                                                 position.Score(Player::kSecond)}) {
    Fail("incremental scores", context);
  }
  const std::string text = ToPositionString(position);
  const absl::StatusOr<Position> again = ParsePositionString(text);
  if (!again.ok()) Fail(absl::StrCat("printed position does not parse: ", text), context);
  if (!(*again == position)) Fail(absl::StrCat("position string round trip: ", text), context);
  if (ToPositionString(*again) != text) Fail("position string printed twice", context);
}

void FuzzPositionString(absl::string_view text) {
  const absl::StatusOr<Position> position = ParsePositionString(text);
  if (position.ok()) CheckPosition(*position, text);
}

void FuzzMove(absl::string_view text) {
  const absl::StatusOr<Move> move = ParseMove(text);
  if (!move.ok()) return;
  if (move->IsNone()) Fail("ParseMove returned the null move", text);
  const std::string printed = MoveToString(*move);
  if (printed != text) Fail(absl::StrCat("move printed as ", printed), text);
  const absl::StatusOr<Move> again = ParseMove(printed);
  if (!again.ok() || *again != *move) Fail("move round trip", text);
}

void FuzzParsers(absl::string_view input, const std::vector<absl::string_view>& lines) {
  FuzzPositionString(input);
  for (const absl::string_view line : lines) FuzzPositionString(line);
  std::vector<absl::string_view> words =
      absl::StrSplit(input, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  if (words.size() > kMaxMoveTokens) words.resize(kMaxMoveTokens);
  for (const absl::string_view word : words) FuzzMove(word);
  // The same words as a move list from the start, all or nothing.
  const absl::StatusOr<Position> played = PlayMoveTexts(Position::Start(), words);
  if (played.ok()) CheckPosition(*played, input);
}

// A line as the harness sends it.
struct Command {
  std::string text;
  bool skip = false;           // not sent at all
  bool costly = false;         // a `go`: counts against kMaxCostlyCommands
  bool starts_search = false;  // a `go` that may start the search thread
  bool needs_stop = false;     // `go ... infinite`: send `stop` after it
};

// The handler shared by all inputs, and what the harness knows of its state.
class Harness {
 public:
  Harness() {
    // Learn the defaults and the agents from the handler's own announcement.
    protocol_.HandleLine("uci");
    for (const absl::string_view line : absl::StrSplit(out_.str(), '\n')) ReadOption(line);
    protocol_.HandleLine(absl::StrCat("setoption name Hash value ", kMaxHashMegabytes));
  }

  void Run(const std::vector<absl::string_view>& lines) {
    Reset();
    int costly = 0;
    for (const absl::string_view line : lines) {
      const Command command = Bound(line);
      if (command.skip || (command.costly && ++costly > kMaxCostlyCommands)) continue;
      const bool more = protocol_.HandleLine(command.text);
      if (command.needs_stop) protocol_.HandleLine("stop");
      if (command.starts_search) protocol_.WaitForSearch();
      CheckPosition(protocol_.position(), command.text);
      if (!more) break;  // quit
    }
    protocol_.WaitForSearch();
  }

 private:
  // "option name <name> type <type> default <value> ...", "... var <agent> var <agent>".
  void ReadOption(absl::string_view line) {
    const std::vector<absl::string_view> tokens = Tokens(line);
    if (tokens.size() < 7 || tokens[0] != "option" || tokens[1] != "name" || tokens[3] != "type" ||
        tokens[5] != "default") {
      return;
    }
    if (absl::EqualsIgnoreCase(tokens[2], "Hash")) return;  // stays at kMaxHashMegabytes
    default_options_.push_back(absl::StrCat("setoption name ", tokens[2], " value ", tokens[6]));
    if (absl::EqualsIgnoreCase(tokens[2], "Agent")) {
      default_agent_ = std::string(tokens[6]);
      for (size_t i = 7; i + 1 < tokens.size(); i += 2) {
        if (tokens[i] == "var") agent_names_.emplace_back(tokens[i + 1]);
      }
    }
  }

  void Reset() {
    if (options_changed_) {
      for (const std::string& line : default_options_) protocol_.HandleLine(line);
      agent_ = default_agent_;
      options_changed_ = false;
    }
    protocol_.HandleLine("ucinewgame");
    out_.str("");
  }

  bool CheapAgent() const {
    return std::find(std::begin(kCheapAgents), std::end(kCheapAgents), agent_) !=
           std::end(kCheapAgents);
  }

  Command Bound(absl::string_view line) {
    Command result{std::string(line)};
    const std::vector<absl::string_view> tokens = Tokens(line);
    if (tokens.empty()) return result;
    const absl::string_view command = tokens[0];
    std::vector<std::string> rewritten(tokens.begin(), tokens.end());
    if (command == "bench") {
      // A valid bench searches fixed positions, whatever the input: nothing to fuzz but its
      // fresh 16 MiB table, ~150 ms under ASan. Only the malformed forms run.
      int depth = 0;
      if (tokens.size() == 1 || (tokens.size() == 2 && absl::SimpleAtoi(tokens[1], &depth) &&
                                 depth >= 1 && depth <= kTotalPlies)) {
        result.skip = true;
      }
      return result;
    }
    if (command == "go") {
      result.costly = true;
      if (tokens.size() >= 2 && tokens[1] == "perft") {
        if (tokens.size() == 3) rewritten[2] = Capped(tokens[2], kMaxPerftDepth, kTotalPlies);
      } else {
        const int plies_left = protocol_.position().PliesLeft();
        if (!CheapAgent() && plies_left > kMaxAgentPlies) result.skip = true;
        // The protocol's reading: `infinite` alone, `searchmoves` and the rest of the line,
        // every other key with a value.
        size_t limits_end = tokens.size();
        for (size_t i = 1; i < tokens.size(); ++i) {
          if (tokens[i] == "searchmoves") {
            limits_end = i;
            break;
          }
          if (tokens[i] == "infinite") {
            result.needs_stop = true;
          } else if (++i < tokens.size() && tokens[i - 1] == "movetime") {
            rewritten[i] =
                Capped(tokens[i], kMaxMoveTimeMs, std::numeric_limits<std::int64_t>::max());
          }
        }
        // The depth before any `searchmoves`, which takes the rest of the line.
        const std::string depth = std::to_string(
            plies_left <= kMaxSolvePlies ? std::max(plies_left, 1) : kMaxSearchDepth);
        rewritten.insert(rewritten.begin() + static_cast<std::ptrdiff_t>(limits_end),
                         {"depth", depth});
        result.starts_search = true;
      }
    } else if (command == "setoption") {
      options_changed_ = true;
      if (tokens.size() != 5 || tokens[1] != "name" || tokens[3] != "value") return result;
      if (absl::EqualsIgnoreCase(tokens[2], "Hash")) {
        rewritten[4] = Capped(tokens[4], kMaxHashMegabytes, kProtocolMaxHash);
      } else if (absl::EqualsIgnoreCase(tokens[2], "Threads")) {
        rewritten[4] = Capped(tokens[4], kMaxThreads, kProtocolMaxThreads);
      } else if (absl::EqualsIgnoreCase(tokens[2], "Agent") &&
                 std::find(agent_names_.begin(), agent_names_.end(), tokens[4]) !=
                     agent_names_.end()) {
        agent_ = std::string(tokens[4]);  // never refused: no search runs between lines
      }
    } else {
      return result;
    }
    result.text = absl::StrJoin(rewritten, " ");
    return result;
  }

  std::ostringstream out_;
  Protocol protocol_{out_};
  std::vector<std::string> default_options_;  // "setoption name <name> value <default>"
  std::vector<std::string> agent_names_;      // the values `setoption name Agent` takes
  std::string default_agent_ = "engine";
  std::string agent_ = "engine";
  bool options_changed_ = false;
};

}  // namespace
}  // namespace divercite

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Never destroyed (Google style for statics); still reachable, so no leak report.
  static divercite::Harness& harness = *new divercite::Harness;
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const std::vector<absl::string_view> lines = absl::StrSplit(input, '\n');
  divercite::FuzzParsers(input, lines);
  harness.Run(lines);
  return 0;
}
