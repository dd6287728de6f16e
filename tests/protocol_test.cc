// Drives the real `divercite` binary through a pipe: what a GUI or match runner sees.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "search/network.h"
#include "search/network_file.h"

namespace divercite {
namespace {

struct Session {
  std::vector<std::string> lines;  // stdout, line by line
  int exit_status = -1;
};

// Feeds `input` to the engine's stdin, lets it run to EOF, and collects stdout.
Session RunEngine(const std::string& input) {
  const std::string input_path = ::testing::TempDir() + "/protocol_input_" +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                                 ".txt";
  std::ofstream(input_path) << input;
  const std::string command = std::string(DIVERCITE_ENGINE_BINARY) + " < " + input_path;
  Session session;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return session;
  std::string output;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  session.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    session.lines.emplace_back(line);
  }
  if (!session.lines.empty() && session.lines.back().empty()) session.lines.pop_back();
  return session;
}

bool Contains(const Session& session, absl::string_view line) {
  return std::find(session.lines.begin(), session.lines.end(), line) != session.lines.end();
}

std::vector<std::string> LinesStartingWith(const Session& session, absl::string_view prefix) {
  std::vector<std::string> found;
  for (const std::string& line : session.lines) {
    if (absl::string_view(line).substr(0, prefix.size()) == prefix) found.push_back(line);
  }
  return found;
}

TEST(ProtocolTest, HandshakeInBothDialects) {
  const Session session = RunEngine("uci\nisready\nugi\nquit\n");
  ASSERT_EQ(session.exit_status, 0);
  ASSERT_GE(session.lines.size(), 4u);
  EXPECT_EQ(session.lines[0].rfind("id name ", 0), 0u);
  EXPECT_EQ(session.lines[1].rfind("id author ", 0), 0u);
  const std::vector<std::string> options = LinesStartingWith(session, "option name ");
  for (const char* name : {"Hash", "Threads", "MultiPV", "MoveOverhead", "Seed"}) {
    EXPECT_NE(std::find_if(options.begin(), options.end(),
                           [&](const std::string& line) {
                             return line.rfind(
                                        std::string("option name ") + name + " type spin default ",
                                        0) == 0;
                           }),
              options.end())
        << name;
  }
  const auto uciok = std::find(session.lines.begin(), session.lines.end(), "uciok");
  ASSERT_NE(uciok, session.lines.end());
  EXPECT_EQ(*(uciok + 1), "readyok");
  EXPECT_EQ(session.lines.back(), "ugiok");
}

TEST(ProtocolTest, PositionAndDisplay) {
  const Session session = RunEngine(
      "position startpos moves RC14 RR04 GR13 BR15 YR24\nd\nquery p1turn\n"
      "query gameover\nquery result\n");
  EXPECT_EQ(session.exit_status, 0) << "EOF exits cleanly";
  EXPECT_EQ(LinesStartingWith(session, "fen "),
            std::vector<std::string>{"fen r/GRb/2Y2/7/9/7/5/3/1 b"});
  EXPECT_TRUE(Contains(session, "scores 5 0"));
  EXPECT_TRUE(Contains(session, "result *"));
  EXPECT_EQ(LinesStartingWith(session, "response "),
            (std::vector<std::string>{"response false", "response false", "response none"}));
}

TEST(ProtocolTest, FinishedGameFromAPositionString) {
  // Reference game 1 of the course code, final position: 12-7 for the first player.
  const Session session = RunEngine(
      "position startpos moves BR57 YR37 BR04 GR46 BR55 YR22 YC54 YC65 RC74 YC23 YR64 BR66 "
      "GC14 RC45 BC36 GR73 RR53 YR33 BC25 RR35 GR51 RC56 YR42 BR48 YC43 BR13 RC63 BC32 GC34 "
      "BC41 YR26 RR84 GR15 GR62 GR44 RR31 RR75 GC47 RR24 GC52\nd\nquery gameover\n"
      "query result\n");
  EXPECT_TRUE(Contains(session, "scores 12 7"));
  EXPECT_TRUE(Contains(session, "result 1-0"));
  EXPECT_TRUE(Contains(session, "response true"));
  EXPECT_TRUE(Contains(session, "response p1win"));
  const std::vector<std::string> fen = LinesStartingWith(session, "fen ");
  ASSERT_EQ(fen.size(), 1u);
  // The same board loaded from its string gives the same scores and result.
  const Session again = RunEngine("position " + fen[0] + "\nd\n");
  EXPECT_TRUE(Contains(again, "scores 12 7"));
  EXPECT_TRUE(Contains(again, "result 1-0"));
}

TEST(ProtocolTest, GoPerftDividesLikeStockfish) {
  const Session session = RunEngine("position startpos moves RC14\ngo perft 2\n");
  ASSERT_EQ(session.exit_status, 0);
  // The second player has 160 moves (one city cell taken); after any of them the first
  // player has 156 (4 colours x 14 cities + 4 x 25 resources, or 4 x 15 + 4 x 24).
  ASSERT_EQ(session.lines.size(), 160u + 2u);
  EXPECT_EQ(session.lines[0], "RC23: 156");
  EXPECT_EQ(session.lines[159], "YR84: 156");
  EXPECT_EQ(session.lines[160], "");
  EXPECT_EQ(session.lines[161], "Nodes searched: 24960");
}

TEST(ProtocolTest, ErrorsAreReportedAndChangeNothing) {
  const Session session = RunEngine(
      "position startpos moves RC14\n"
      "position startpos moves GR04 XX99\n"  // malformed move: whole command rejected
      "position startpos moves RC14 BC14\n"  // illegal move (occupied)
      "position fen 1/3/5/7/9/7/5/3 w\n"     // bad string
      "position\n"                           // bare
      "position sideways\n"
      "position startpos RC14\n"  // missing 'moves'
      "go perft banana\n"
      "go perft 0\n"
      "go perft\n"
      "query\n"
      "query weather\n"
      "frobnicate now\n"
      "\n"
      "   \t  \n"
      "   isready   \n"
      "d\n");
  ASSERT_EQ(session.exit_status, 0);
  const std::vector<std::string> errors = LinesStartingWith(session, "info string error: ");
  ASSERT_EQ(errors.size(), 12u) << "one error per bad line";
  EXPECT_NE(errors[0].find("XX99"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("occupied"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find("rows"), std::string::npos) << errors[2];
  EXPECT_NE(errors[5].find("expected 'moves'"), std::string::npos) << errors[5];
  EXPECT_NE(errors[6].find("banana"), std::string::npos) << errors[6];
  EXPECT_EQ(errors[11], "info string error: unknown command 'frobnicate'");
  EXPECT_TRUE(Contains(session, "readyok"));
  // The position set by the first line survived every bad command.
  EXPECT_EQ(LinesStartingWith(session, "fen "),
            std::vector<std::string>{"fen 1/1R1/5/7/9/7/5/3/1 b"});
}

// A network file whose output is 150 centipoints on every position (its last layer's weights
// are zero), trained on `data`.
std::string ConstantNetworkFile(const std::string& data) {
  auto weights = std::make_shared<NetworkWeights>(*DefaultNetworkWeights());
  weights->data = data;
  weights->fit = "by hand";
  weights->output.fill(0);
  weights->output_shift = 1;
  weights->output_bias = 381;  // 381 x 100 / (127 x 2), rounded down: 150
  return FormatNetworkFile(*weights);
}

// EvalFile loads another network file; one that is corrupt, made for the pattern sum or
// missing is refused with its reason, and the weights in use stay.
TEST(ProtocolTest, EvalFileLoadsAWeightFileAndRefusesABadOne) {
  const std::string good = ::testing::TempDir() + "/protocol_good.net";
  const std::string corrupt = ::testing::TempDir() + "/protocol_corrupt.net";
  const std::string patterns = ::testing::TempDir() + "/protocol_patterns.eval";
  {
    std::ofstream(good) << ConstantNetworkFile("test data");
    std::string damaged = ConstantNetworkFile("test data");
    damaged[damaged.find("data test data") + 13] = 'e';
    std::ofstream(corrupt) << damaged;
    std::ofstream(patterns) << "divercite-eval 1\nlayout patterns-2\n";
  }
  const Session session = RunEngine(
      "setoption name EvalFile value " + corrupt + "\neval\nsetoption name EvalFile value " + good +
      "\neval\nsetoption name EvalFile value /nonexistent.net\nsetoption name EvalFile value " +
      patterns + "\neval\nsetoption name EvalFile value <built-in>\neval\n");
  ASSERT_EQ(session.exit_status, 0);
  const std::vector<std::string> errors = LinesStartingWith(session, "info string error: ");
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_NE(errors[0].find("checksum"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find(corrupt), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("cannot open"), std::string::npos) << errors[1];
  EXPECT_NE(errors[2].find(patterns + ":"), std::string::npos) << errors[2];
  EXPECT_NE(errors[2].find("a pattern weight file"), std::string::npos) << errors[2];
  const std::vector<std::string> data = LinesStartingWith(session, "weights: ");
  ASSERT_EQ(data.size(), 4u);
  const std::string built_in = "weights: " + DefaultNetworkWeights()->data;
  EXPECT_EQ(data[0], built_in) << "the corrupt file changed nothing";
  EXPECT_EQ(data[1], "weights: test data");
  EXPECT_EQ(data[2], "weights: test data") << "the missing and pattern files changed nothing";
  EXPECT_EQ(data[3], built_in);
  // With the file's weights, the start position is worth its one value.
  const std::vector<std::string> totals = LinesStartingWith(session, "total ");
  ASSERT_EQ(totals.size(), 4u);
  EXPECT_NE(totals[1].find(" 150"), std::string::npos) << totals[1];
}

// As in UCI, a value is the rest of the line: the weight file shipped with the engine, copied
// to a path with spaces (two in a row, kept as sent), loads.
TEST(ProtocolTest, AnOptionValueIsTheRestOfTheLine) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "a path";
  std::filesystem::create_directories(dir);
  const std::string spaced = (dir / "with  spaces.net").string();
  std::filesystem::copy_file(std::string(DIVERCITE_SOURCE_DIR) + "/search/network.net", spaced,
                             std::filesystem::copy_options::overwrite_existing);
  const std::string other = ::testing::TempDir() + "/protocol_other.net";
  std::ofstream(other) << ConstantNetworkFile("other weights");
  const std::string missing = (dir / "no such.net").string();
  const Session session = RunEngine("setoption name EvalFile value " + other +
                                    "\neval\nsetoption name EvalFile value " + spaced +
                                    "  \neval\nsetoption name EvalFile value " + missing +
                                    "\nsetoption name EvalFile value\nsetoption name value x\n"
                                    "setoption name Hash\nsetoption value 1\neval\n");
  ASSERT_EQ(session.exit_status, 0);
  EXPECT_EQ(LinesStartingWith(session, "weights: "),
            (std::vector<std::string>{"weights: other weights",
                                      "weights: " + DefaultNetworkWeights()->data,
                                      "weights: " + DefaultNetworkWeights()->data}));
  const std::vector<std::string> errors = LinesStartingWith(session, "info string error: ");
  ASSERT_EQ(errors.size(), 5u) << "the missing file, then a name or value missing";
  EXPECT_NE(errors[0].find(missing + ": cannot open"), std::string::npos) << errors[0];
  for (size_t i = 1; i < errors.size(); ++i) {
    EXPECT_EQ(errors[i],
              "info string error: setoption: expected 'setoption name <name> value <value>'");
  }
}

// One `info depth ... multipv k ...` line, and the exact/proven lines that follow it.
struct Line {
  int depth = 0;
  int multipv = 0;
  int score = 0;
  std::string bound;  // "", " lowerbound" or " upperbound"
  std::string move;   // the first of the pv
  bool exact = false;
};

// The numbered lines of a session, in order.
std::vector<Line> NumberedLines(const Session& session) {
  static const std::regex kLine(
      "info depth (\\d+) seldepth \\d+ multipv (\\d+) score cp (-?\\d+)( lowerbound| "
      "upperbound)? nodes \\d+ nps \\d+ hashfull \\d+ time \\d+ pv ([RGBY][CR]\\d\\d)( "
      "[RGBY][CR]\\d\\d)*");
  std::vector<Line> lines;
  for (const std::string& text : session.lines) {
    std::smatch match;
    if (std::regex_match(text, match, kLine)) {
      lines.push_back({.depth = std::stoi(match[1]),
                       .multipv = std::stoi(match[2]),
                       .score = std::stoi(match[3]),
                       .bound = match[4],
                       .move = match[5],
                       .exact = false});
    } else if (text == "info string exact" && !lines.empty()) {
      lines.back().exact = true;
    }
  }
  return lines;
}

// The final report: the last line numbered 1 and those after it.
std::vector<Line> FinalLines(const std::vector<Line>& lines) {
  auto first = lines.end();
  while (first != lines.begin() && (first == lines.end() || first->multipv != 1)) --first;
  return std::vector<Line>(first, lines.end());
}

std::string BestMove(const Session& session) {
  const std::vector<std::string> best = LinesStartingWith(session, "bestmove ");
  return best.size() == 1 ? best[0].substr(9) : "(" + std::to_string(best.size()) + " bestmoves)";
}

TEST(ProtocolTest, MultiPVReportsDistinctLegalMovesBestFirst) {
  const Position position = *PlayMoveTexts(Position::Start(), {"RC14", "RR04"});
  const Session session =
      RunEngine("setoption name MultiPV value 3\nposition startpos moves RC14 RR04\ngo depth 4\n");
  ASSERT_EQ(session.exit_status, 0);
  EXPECT_EQ(LinesStartingWith(session, "info depth").size(), 5u * 3u)
      << "every line numbered: 3 per iteration and 3 in the final report";
  const std::vector<Line> lines = NumberedLines(session);
  ASSERT_EQ(lines.size(), 15u);
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].multipv, static_cast<int>(i % 3) + 1);
    EXPECT_EQ(lines[i].depth, std::min(static_cast<int>(i / 3) + 1, 4));
    EXPECT_TRUE(position.IsLegal(*ParseMove(lines[i].move))) << lines[i].move;
    for (size_t j = i - i % 3; j < i; ++j) {
      EXPECT_NE(lines[j].move, lines[i].move) << "line " << i;
      EXPECT_GE(lines[j].score, lines[i].score) << "line " << i;
    }
  }
  EXPECT_EQ(BestMove(session), lines[12].move) << "bestmove is line 1's";
}

// 10 plies from the end: each line's score is its move's exact value, found by solving the
// child on its own (`go depth 40`, negated); with MultiPV above the moves there are, every
// move (up to symmetry) is ranked. Two threads give the same values.
TEST(ProtocolTest, MultiPVLinesNearTheEndAreEachMovesExactValue) {
  const std::string position =
      "position fen B/bG1/yy1B1/1by1rBy/2YY1rg1b/G1RYBrB/1RYyb/gR1/1 w moves GR44 BC47";
  std::map<std::string, int> child_values;
  for (const int threads : {1, 2}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    const Session session = RunEngine(absl::StrCat("setoption name Threads value ", threads,
                                                   "\nsetoption name MultiPV value 164\n", position,
                                                   "\ngo depth 40\n"));
    const std::vector<Line> lines = FinalLines(NumberedLines(session));
    ASSERT_EQ(lines.size(), 27u) << "the moves of the position, none symmetric";
    EXPECT_EQ(BestMove(session), lines[0].move);
    for (size_t i = 0; i < lines.size(); ++i) {
      const Line& line = lines[i];
      EXPECT_EQ(line.multipv, static_cast<int>(i) + 1);
      EXPECT_EQ(line.depth, 10);
      EXPECT_TRUE(line.exact && line.bound.empty()) << line.move;
      if (i > 0) {
        EXPECT_LE(line.score, lines[i - 1].score);
      }
      if (!child_values.contains(line.move)) {
        const Session child = RunEngine(absl::StrCat(position, " ", line.move, "\ngo depth 40\n"));
        const std::vector<std::string> infos = LinesStartingWith(child, "info depth");
        ASSERT_FALSE(infos.empty());
        const std::string& last = infos.back();
        const size_t at = last.find("score cp ") + 9;
        child_values[line.move] = -std::stoi(last.substr(at));
        EXPECT_EQ(child.lines[child.lines.size() - 2], "info string exact");
      }
      EXPECT_EQ(line.score, child_values[line.move]) << line.move;
    }
  }
  EXPECT_EQ(child_values.size(), 27u);
}

TEST(ProtocolTest, SearchmovesRestrictsTheRoot) {
  const std::string position = "position startpos moves RC14 RR04\n";
  // One move, whatever it is worth; and any other limit before it.
  EXPECT_EQ(BestMove(RunEngine(position + "go depth 3 searchmoves YR84\n")), "YR84");
  EXPECT_EQ(BestMove(RunEngine(position + "go nodes 5000 depth 3 searchmoves BC23\n")), "BC23");
  // Three, with three lines: those moves only.
  const Session three = RunEngine("setoption name MultiPV value 3\n" + position +
                                  "go depth 3 searchmoves YR84 GR13 BC36\n");
  const std::vector<Line> lines = FinalLines(NumberedLines(three));
  ASSERT_EQ(lines.size(), 3u);
  std::vector<std::string> moves;
  for (const Line& line : lines) moves.push_back(line.move);
  std::sort(moves.begin(), moves.end());
  EXPECT_EQ(moves, (std::vector<std::string>{"BC36", "GR13", "YR84"}));
  EXPECT_EQ(BestMove(three), lines[0].move);
}

TEST(ProtocolTest, BadMultiPVAndSearchmovesAreRefusedAndChangeNothing) {
  const Session session = RunEngine(
      "position startpos moves RC14\n"
      "setoption name MultiPV value 0\n"
      "setoption name MultiPV value 165\n"
      "setoption name MultiPV value three\n"
      "go depth 2 searchmoves\n"            // no move
      "go depth 2 searchmoves GC23 XX99\n"  // malformed
      "go depth 2 searchmoves GC23 RC14\n"  // occupied
      "go searchmoves GC23 depth 2\n"       // searchmoves takes the rest of the line
      "isready\n"
      "d\n"
      "go depth 2\n");
  ASSERT_EQ(session.exit_status, 0);
  const std::vector<std::string> errors = LinesStartingWith(session, "info string error: ");
  ASSERT_EQ(errors.size(), 7u) << "one error per bad line";
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(absl::StartsWith(
        errors[i], "info string error: setoption: MultiPV must be an integer from 1 to 164"))
        << errors[i];
  }
  EXPECT_EQ(errors[3], "info string error: go: 'searchmoves' needs at least one move");
  EXPECT_NE(errors[4].find("go: searchmoves: move 'XX99'"), std::string::npos) << errors[4];
  EXPECT_NE(errors[5].find("go: searchmoves: illegal move RC14"), std::string::npos) << errors[5];
  EXPECT_NE(errors[6].find("go: searchmoves: move 'depth'"), std::string::npos) << errors[6];
  EXPECT_TRUE(Contains(session, "readyok"));
  EXPECT_EQ(LinesStartingWith(session, "fen "),
            std::vector<std::string>{"fen 1/1R1/5/7/9/7/5/3/1 b"});
  // The one search that ran is a plain one: MultiPV stayed 1.
  EXPECT_EQ(LinesStartingWith(session, "bestmove ").size(), 1u);
  EXPECT_EQ(LinesStartingWith(session, "info depth").size(), 3u);
  EXPECT_TRUE(NumberedLines(session).empty());
}

TEST(ProtocolTest, EndOfInputWithoutQuitExitsCleanly) {
  const Session session = RunEngine("isready");  // no newline either
  EXPECT_EQ(session.exit_status, 0);
  EXPECT_TRUE(Contains(session, "readyok"));
}

}  // namespace
}  // namespace divercite
