#include "tools/protocol.h"

#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/position_string.h"
#include "perft/perft.h"
#include "tools/board_picture.h"

namespace divercite {
namespace {

constexpr absl::string_view kEngineName = "Divercite 0.1";
constexpr absl::string_view kEngineAuthor = "the Divercite engine developers";

absl::string_view ResultText(GameResult result) {
  switch (result) {
    case GameResult::kFirstWins: return "1-0";
    case GameResult::kSecondWins: return "0-1";
    case GameResult::kDraw: return "1/2-1/2";
    case GameResult::kOngoing: break;
  }
  return "*";
}

absl::string_view UgiResultText(GameResult result) {
  switch (result) {
    case GameResult::kFirstWins: return "p1win";
    case GameResult::kSecondWins: return "p2win";
    case GameResult::kDraw: return "draw";
    case GameResult::kOngoing: break;
  }
  return "none";
}

}  // namespace

Protocol::Protocol(std::ostream& out) : out_(out) {}

void Protocol::Loop(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    if (!HandleLine(line)) return;
  }
}

bool Protocol::HandleLine(absl::string_view line) {
  const Arguments tokens = absl::StrSplit(line, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  if (tokens.empty()) return true;
  const absl::string_view command = tokens[0];
  const Arguments args(tokens.begin() + 1, tokens.end());
  if (command == "quit") return false;
  if (command == "uci" || command == "ugi") {
    Identify(command);
  } else if (command == "isready") {
    Send("readyok");
  } else if (command == "ucinewgame" || command == "uginewgame") {
    position_ = Position::Start();
  } else if (command == "position") {
    SetPosition(args);
  } else if (command == "go") {
    Go(args);
  } else if (command == "d") {
    Display();
  } else if (command == "query") {
    Query(args);
  } else {
    SendError(absl::StrCat("unknown command '", command, "'"));
  }
  return true;
}

void Protocol::Identify(absl::string_view dialect) {
  Send(absl::StrCat("id name ", kEngineName));
  Send(absl::StrCat("id author ", kEngineAuthor));
  Send(absl::StrCat(dialect, "ok"));
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
    return SendError(absl::StrCat("position: unknown kind '", args[0],
                                  "', expected 'startpos' or 'fen'"));
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
  position_ = *position;
}

void Protocol::Go(const Arguments& args) {
  if (!args.empty() && args[0] == "perft") return GoPerft(args);
  SendError("go: only 'go perft <depth>' is available in this build");
}

// Stockfish's shape: "<move>: <count>" per legal move, a blank line, "Nodes searched: N".
void Protocol::GoPerft(const Arguments& args) {
  int depth = 0;
  if (args.size() != 2 || !absl::SimpleAtoi(args[1], &depth) || depth < 1 ||
      depth > kTotalPlies) {
    return SendError(absl::StrCat("go perft: expected a depth from 1 to 40, got '",
                                  absl::StrJoin(args.begin() + 1, args.end(), " "), "'"));
  }
  std::uint64_t total = 0;
  for (const DivideEntry& entry : Divide(position_, depth)) {
    Send(absl::StrCat(MoveToString(entry.move), ": ", entry.nodes));
    total += entry.nodes;
  }
  Send("");
  Send(absl::StrCat("Nodes searched: ", total));
}

void Protocol::Display() {
  for (const absl::string_view line : absl::StrSplit(BoardPicture(position_), '\n')) {
    if (!line.empty()) Send(line);
  }
  Send(absl::StrCat("fen ", ToPositionString(position_)));
  Send(absl::StrCat("scores ", position_.Score(Player::kFirst), " ",
                    position_.Score(Player::kSecond)));
  Send(absl::StrCat("result ", ResultText(position_.Result())));
}

// UGI queries: gameover, p1turn, result.
void Protocol::Query(const Arguments& args) {
  if (args.size() != 1) return SendError("query: expected one of gameover, p1turn, result");
  if (args[0] == "gameover") {
    Send(absl::StrCat("response ", position_.IsGameOver() ? "true" : "false"));
  } else if (args[0] == "p1turn") {
    Send(absl::StrCat("response ",
                      position_.SideToMove() == Player::kFirst ? "true" : "false"));
  } else if (args[0] == "result") {
    Send(absl::StrCat("response ", UgiResultText(position_.Result())));
  } else {
    SendError(absl::StrCat("query: unknown query '", args[0],
                           "', expected gameover, p1turn or result"));
  }
}

void Protocol::Send(absl::string_view line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

void Protocol::SendError(absl::string_view reason) {
  Send(absl::StrCat("info string error: ", reason));
}

}  // namespace divercite
