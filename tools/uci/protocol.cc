#include "tools/uci/protocol.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/enum_names.h"
#include "engine/game_result.h"
#include "engine/position_string.h"
#include "perft/perft.h"
#include "search/bench_signature.h"
#include "search/network.h"
#include "tools/uci/board_picture.h"
#include "tools/uci/build_info.h"

namespace divercite {
namespace {

constexpr absl::string_view kEngineAuthor = "the Divercite engine developers";

// The result as UGI's `query result` answers it.
constexpr EnumName<GameResult> kUgiResultNames[] = {{GameResult::kFirstWins, "p1win"},
                                                    {GameResult::kSecondWins, "p2win"},
                                                    {GameResult::kDraw, "draw"},
                                                    {GameResult::kOngoing, "none"}};
static_assert(NamesAreDistinct(kUgiResultNames));

// The words [first, last) of one line and what lies between them, as sent.
absl::string_view Words(std::vector<absl::string_view>::const_iterator first,
                        std::vector<absl::string_view>::const_iterator last) {
  const char* end = (last - 1)->data() + (last - 1)->size();
  return absl::string_view(first->data(), end - first->data());
}

std::string PvText(const std::vector<Move>& pv) {
  return absl::StrJoin(pv, " ",
                       [](std::string* out, Move m) { absl::StrAppend(out, MoveToString(m)); });
}

}  // namespace

Protocol::Protocol(std::ostream& out, EngineHost host)
    : out_(out),
      session_({.on_iteration = [this](const IterationInfo& info) { SendInfo(info); },
                .on_choice = [this](const MoveChoice& choice) { SendChoice(choice); },
                .on_bestmove =
                    [this](Move move) { Send(absl::StrCat("bestmove ", MoveToString(move))); }},
               std::move(host)) {}

Protocol::~Protocol() {
  session_.Stop();
  session_.WaitForSearch();
}

void Protocol::Loop(std::istream& in) {
  // std::cin is tied to std::cout: every read would flush the output from this thread,
  // outside out_mutex_, racing the search thread's lines. Send() flushes each line anyway.
  in.tie(nullptr);
  std::string line;
  while (std::getline(in, line)) {
    if (!HandleLine(line)) return;
  }
  WaitForSearch();
}

bool Protocol::HandleLine(absl::string_view line) {
  const Arguments tokens = absl::StrSplit(line, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  if (tokens.empty()) return true;
  const absl::string_view command = tokens[0];
  const Arguments args(tokens.begin() + 1, tokens.end());
  if (command == "quit") {
    session_.Stop();
    session_.WaitForSearch();
    return false;
  }
  if (command == "uci" || command == "ugi") {
    Identify(command);
  } else if (command == "isready") {
    Send("readyok");
  } else if (command == "stop") {
    session_.Stop();
  } else if (command == "ucinewgame" || command == "uginewgame") {
    if (RefuseWhileSearching(command)) return true;
    session_.NewGame();
  } else if (command == "setoption") {
    if (RefuseWhileSearching(command)) return true;
    SetOption(args);
  } else if (command == "position") {
    if (RefuseWhileSearching(command)) return true;
    SetPosition(args);
  } else if (command == "go") {
    if (RefuseWhileSearching(command)) return true;
    Go(args);
  } else if (command == "bench") {
    if (RefuseWhileSearching(command)) return true;
    Bench(args);
  } else if (command == "d") {
    Display();
  } else if (command == "eval") {
    ShowEvaluation();
  } else if (command == "query") {
    Query(args);
  } else {
    SendError(absl::StrCat("unknown command '", command, "'"));
  }
  return true;
}

void Protocol::Identify(absl::string_view dialect) {
  Send(absl::StrCat("id name Divercite ", EngineVersion()));
  Send(absl::StrCat("id author ", kEngineAuthor));
  for (const EngineOption& option : session_.options().options()) {
    if (option.type == EngineOption::Type::kSpin) {
      Send(absl::StrFormat("option name %s type spin default %d min %d max %d", option.name,
                           option.default_value, option.min, option.max));
    } else if (option.type == EngineOption::Type::kString) {
      Send(absl::StrCat("option name ", option.name, " type string default ",
                        option.default_choice));
    } else {
      Send(absl::StrCat("option name ", option.name, " type combo default ", option.default_choice,
                        " var ", absl::StrJoin(option.choices, " var ")));
    }
  }
  Send(absl::StrCat(dialect, "ok"));
}

bool Protocol::RefuseWhileSearching(absl::string_view command) {
  if (!session_.Searching()) return false;
  SendError(absl::StrCat(command, ": a search is running; send 'stop' first"));
  return true;
}

// setoption name <name> value <value>. As in UCI, the name runs up to `value` and the value
// is the rest of the line, so that a file path may hold spaces.
void Protocol::SetOption(const Arguments& args) {
  const auto value = std::find(args.begin(), args.end(), "value");
  if (value == args.end() || value + 1 == args.end() || value - args.begin() < 2 ||
      args[0] != "name") {
    return SendError("setoption: expected 'setoption name <name> value <value>'");
  }
  const absl::string_view name = Words(args.begin() + 1, value);
  if (const absl::Status status = session_.options().Set(name, Words(value + 1, args.end()));
      !status.ok()) {
    SendError(status.message());
  }
}

// position startpos [moves m1 m2 ...] | position fen <rows> <side> [moves m1 m2 ...]
// All or nothing: any error leaves the previous position in place.
void Protocol::SetPosition(const Arguments& args) {
  if (args.empty()) {
    return SendError("position: expected 'startpos' or 'fen <rows> <side>', then 'moves ...'");
  }
  size_t next = 1;
  absl::StatusOr<Position> position;
  if (args[0] == "startpos") {
    position = Position::Start();
  } else if (args[0] == "fen") {
    if (args.size() < 3) return SendError("position fen: expected '<rows> <side>'");
    position = ParsePositionString(absl::StrCat(args[1], " ", args[2]));
    next = 3;
  } else {
    return SendError(
        absl::StrCat("position: unknown kind '", args[0], "', expected 'startpos' or 'fen'"));
  }
  if (!position.ok()) return SendError(position.status().message());
  if (next < args.size()) {
    if (args[next] != "moves") {
      return SendError(absl::StrCat("position: expected 'moves' but got '", args[next], "'"));
    }
    const Arguments moves(args.begin() + next + 1, args.end());
    position = PlayMoveTexts(*position, moves);
    if (!position.ok()) return SendError(position.status().message());
  }
  session_.SetPosition(*position);
}

// go [wtime|p1time <ms>] [btime|p2time <ms>] [winc|p1inc <ms>] [binc|p2inc <ms>]
//    [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [infinite] [prove]
//    [searchmoves <move> ...] | go perft <n>
// As in UCI, searchmoves takes the rest of the line: the root's moves to search, each legal.
void Protocol::Go(const Arguments& args) {
  if (!args.empty() && args[0] == "perft") return GoPerft(args);
  SearchLimits limits;
  for (size_t i = 0; i < args.size(); ++i) {
    const absl::string_view key = args[i];
    if (key == "searchmoves") {
      if (i + 1 == args.size()) return SendError("go: 'searchmoves' needs at least one move");
      for (const absl::string_view text : Arguments(args.begin() + i + 1, args.end())) {
        absl::StatusOr<Move> move = ParseMove(text);
        const absl::Status status =
            move.ok() ? session_.position().CheckLegal(*move) : move.status();
        if (!status.ok()) {
          return SendError(absl::StrCat("go: searchmoves: ", status.message()));
        }
        limits.searchmoves.push_back(*move);
      }
      break;
    }
    if (key == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (key == "prove") {
      limits.prove = true;
      continue;
    }
    std::int64_t value = 0;
    if (i + 1 >= args.size() || !absl::SimpleAtoi(args[i + 1], &value)) {
      return SendError(absl::StrCat("go: '", key, "' needs an integer value"));
    }
    ++i;
    if (key == "wtime" || key == "p1time") {
      limits.time_ms[0] = std::max<std::int64_t>(value, 0);
    } else if (key == "btime" || key == "p2time") {
      limits.time_ms[1] = std::max<std::int64_t>(value, 0);
    } else if (key == "winc" || key == "p1inc") {
      limits.increment_ms[0] = std::max<std::int64_t>(value, 0);
    } else if (key == "binc" || key == "p2inc") {
      limits.increment_ms[1] = std::max<std::int64_t>(value, 0);
    } else if (key == "movestogo" && value > 0) {
      limits.movestogo = static_cast<int>(value);
    } else if (key == "movetime" && value > 0) {
      limits.movetime_ms = value;
    } else if (key == "depth" && value > 0) {
      limits.depth = static_cast<int>(std::min<std::int64_t>(value, kTotalPlies));
    } else if (key == "nodes" && value > 0) {
      limits.nodes = static_cast<std::uint64_t>(value);
    } else {
      return SendError(absl::StrCat("go: unknown or out-of-range limit '", key, " ", args[i], "'"));
    }
  }
  if (session_.position().IsGameOver()) {
    Send("info string the game is over");
    Send("bestmove (none)");
    return;
  }
  session_.Go(limits);
}

// The final report of a move choice: our search's last iteration, or what the agent did.
void Protocol::SendChoice(const MoveChoice& choice) {
  if (!choice.search) {
    Send(absl::StrFormat("info string agent %s nodes %d time %d", choice.agent, choice.agent_nodes,
                         choice.agent_ms));
    return;
  }
  const SearchResult& result = *choice.search;
  if (result.lines.empty())
    return SendInfo(IterationInfoOf(result, result.best.depth, choice.hashfull));
  // Several lines: each, best first, as the iterations reported them.
  for (int line = 1; line <= static_cast<int>(result.lines.size()); ++line) {
    SendInfo(LineInfoOf(result, line, result.lines[line - 1].depth, choice.hashfull));
  }
}

void Protocol::SendInfo(const IterationInfo& info) {
  const std::int64_t nps =
      info.time_ms > 0 ? static_cast<std::int64_t>(info.nodes * 1000 / info.time_ms) : 0;
  absl::string_view bound = info.bound == Bound::kLower   ? " lowerbound"
                            : info.bound == Bound::kUpper ? " upperbound"
                                                          : "";
  // Stockfish's place for the line's rank, said only when there are several lines.
  const std::string multipv = info.multipv > 0 ? absl::StrCat(" multipv ", info.multipv) : "";
  Send(
      absl::StrFormat("info depth %d seldepth %d%s score cp %d%s nodes %d nps %d hashfull %d "
                      "time %d pv %s",
                      info.depth, info.seldepth, multipv, info.score, bound, info.nodes, nps,
                      info.hashfull, info.time_ms, PvText(info.pv)));
  // The result first, then whether the score is the exact value: clients that read only the
  // last line before `bestmove` still find `info string exact` there.
  if (info.proven != ProvenResult::kUnknown) {
    Send(absl::StrCat("info string proven ", ProvenResultText(info.proven)));
  }
  if (info.exact) Send("info string exact");
}

// Stockfish's shape: "<move>: <count>" per legal move, a blank line, "Nodes searched: N".
void Protocol::GoPerft(const Arguments& args) {
  int depth = 0;
  if (args.size() != 2 || !absl::SimpleAtoi(args[1], &depth) || depth < 1 || depth > kTotalPlies) {
    return SendError(absl::StrCat("go perft: expected a depth from 1 to 40, got '",
                                  absl::StrJoin(args.begin() + 1, args.end(), " "), "'"));
  }
  std::uint64_t total = 0;
  for (const DivideEntry& entry : Divide(session_.position(), depth)) {
    Send(absl::StrCat(MoveToString(entry.move), ": ", entry.nodes));
    total += entry.nodes;
  }
  Send("");
  Send(absl::StrCat("Nodes searched: ", total));
}

// bench [depth]: the fixed positions, each searched to `depth` with a fresh table and one
// thread. The node count is the search's signature.
void Protocol::Bench(const Arguments& args) {
  int depth = kDefaultBenchDepth;
  if (args.size() > 1 || (args.size() == 1 && (!absl::SimpleAtoi(args[0], &depth) || depth < 1 ||
                                               depth > kTotalPlies))) {
    return SendError("bench: expected an optional depth from 1 to 40");
  }
  const BenchTotals totals =
      RunBench(depth, [this](absl::string_view text, const SearchResult& result) {
        Send(absl::StrFormat("info string bench %s depth %d bestmove %s score cp %d nodes %d", text,
                             result.best.depth, MoveToString(result.best.move), result.best.score,
                             result.nodes));
      });
  const std::uint64_t nodes = totals.nodes;
  const std::int64_t ms = std::max<std::int64_t>(
      1, std::chrono::duration_cast<std::chrono::milliseconds>(totals.searching).count());
  Send(absl::StrCat("Nodes searched: ", nodes));
  Send(absl::StrCat("Nodes/second: ", nodes * 1000 / ms));
  Send(absl::StrCat("Total time (ms): ", ms));
}

void Protocol::Display() {
  for (const absl::string_view line : absl::StrSplit(BoardPicture(session_.position()), '\n')) {
    if (!line.empty()) Send(line);
  }
  Send(absl::StrCat("fen ", ToPositionString(session_.position())));
  Send(absl::StrCat("scores ", session_.position().Score(Player::kFirst), " ",
                    session_.position().Score(Player::kSecond)));
  Send(absl::StrCat("result ", GameResultText(session_.position().Result())));
}

void Protocol::ShowEvaluation() {
  if (session_.position().IsGameOver()) {
    Send(absl::StrCat("final value ", FinalValue(session_.position()), " (side to move's view)"));
    return;
  }
  const Position& position = session_.position();
  const NetworkWeights& weights = session_.eval_weights();
  const int score_difference = ScoreDifference(position);
  const int total = EvaluateNetwork(position, weights);
  Send(absl::StrFormat("%-96s %s", "term", "cp (side to move's view)"));
  Send(absl::StrFormat("%-96s %6d", "score difference", score_difference));
  Send(absl::StrFormat("%-96s %6d", "network", total - score_difference));
  Send(absl::StrFormat("%-96s %6d", "total", total));
  Send(absl::StrCat("weights: ", weights.data));
  Send(absl::StrCat("fit: ", weights.fit));
}

// UGI queries: gameover, p1turn, result.
void Protocol::Query(const Arguments& args) {
  if (args.size() != 1) return SendError("query: expected one of gameover, p1turn, result");
  if (args[0] == "gameover") {
    Send(absl::StrCat("response ", session_.position().IsGameOver() ? "true" : "false"));
  } else if (args[0] == "p1turn") {
    Send(absl::StrCat("response ",
                      session_.position().SideToMove() == Player::kFirst ? "true" : "false"));
  } else if (args[0] == "result") {
    Send(absl::StrCat("response ", NameOf(kUgiResultNames, session_.position().Result())));
  } else {
    SendError(
        absl::StrCat("query: unknown query '", args[0], "', expected gameover, p1turn or result"));
  }
}

void Protocol::Send(absl::string_view line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

void Protocol::SendError(absl::string_view reason) {
  ++errors_sent_;
  Send(absl::StrCat("info string error: ", reason));
}

}  // namespace divercite
