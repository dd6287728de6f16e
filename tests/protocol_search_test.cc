// The protocol while searching, spoken to a live `divercite` process line by line.
#include <chrono>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/common/child_process.h"

namespace divercite {
namespace {

using Clock = std::chrono::steady_clock;

class EngineSession : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<ChildProcess>> process =
        ChildProcess::Start({DIVERCITE_ENGINE_BINARY});
    ASSERT_TRUE(process.ok()) << process.status();
    engine_ = std::move(*process);
    Send("setoption name Hash value 4");
    // Timings below start once the engine has started up (slow under sanitizers).
    Send("isready");
    ReadUntil("readyok");
  }

  void Send(const std::string& line) { ASSERT_TRUE(engine_->WriteLine(line).ok()); }

  // Lines up to and including the first that starts with `prefix`.
  std::vector<std::string> ReadUntil(const std::string& prefix,
                                     absl::Duration timeout = absl::Seconds(30)) {
    std::vector<std::string> lines;
    const absl::Time deadline = absl::Now() + timeout;
    while (true) {
      absl::StatusOr<std::string> line = engine_->ReadLine(deadline - absl::Now());
      if (!line.ok()) {
        ADD_FAILURE() << "waiting for '" << prefix << "': " << line.status();
        return lines;
      }
      lines.push_back(*line);
      if (absl::StartsWith(*line, prefix)) return lines;
    }
  }

  std::unique_ptr<ChildProcess> engine_;
};

int CountStartingWith(const std::vector<std::string>& lines, absl::string_view prefix) {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
    return absl::StartsWith(l, prefix);
  }));
}

TEST_F(EngineSession, GoDepthReportsEachIterationThenOneBestmove) {
  Send("position startpos");
  Send("go depth 4");
  const std::vector<std::string> lines = ReadUntil("bestmove ");
  const std::regex info(
      "info depth \\d+ seldepth \\d+ score cp -?\\d+( lowerbound| upperbound)? nodes \\d+ "
      "nps \\d+ hashfull \\d+ time \\d+ pv( [RGBY][CR][0-8][0-8])+");
  int infos = 0;
  for (const std::string& line : lines) {
    if (absl::StartsWith(line, "info depth")) {
      EXPECT_TRUE(std::regex_match(line, info)) << line;
      ++infos;
    }
  }
  EXPECT_EQ(infos, 4 + 1) << "one per iteration plus the final one";
  EXPECT_TRUE(std::regex_match(lines.back(), std::regex("bestmove [RGBY][CR][0-8][0-8]")))
      << lines.back();
  EXPECT_TRUE(absl::StartsWith(lines[lines.size() - 2], "info depth"))
      << "the bestmove comes right after the final info line";
  // Nothing else follows: the next answer is to the next command.
  Send("isready");
  EXPECT_EQ(ReadUntil("readyok").size(), 1u);
}

TEST_F(EngineSession, IsReadyAnswersAtOnceAndStopEndsTheSearch) {
  Send("position startpos");
  Send("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto ready_sent = Clock::now();
  Send("isready");
  const std::vector<std::string> before_ready = ReadUntil("readyok", absl::Seconds(2));
  EXPECT_LT(Clock::now() - ready_sent, std::chrono::milliseconds(500));
  EXPECT_EQ(CountStartingWith(before_ready, "bestmove"), 0) << "still searching";
  const auto stop_sent = Clock::now();
  Send("stop");
  const std::vector<std::string> lines = ReadUntil("bestmove ", absl::Seconds(2));
  EXPECT_LT(Clock::now() - stop_sent, std::chrono::milliseconds(500));
  EXPECT_EQ(CountStartingWith(lines, "bestmove"), 1);
  // A second stop has nothing to stop and prints nothing.
  Send("stop");
  Send("isready");
  EXPECT_EQ(ReadUntil("readyok"), std::vector<std::string>{"readyok"});
}

TEST_F(EngineSession, CommandsThatWouldChangeTheSearchAreRefusedWhileItRuns) {
  Send("position startpos moves RC14");
  Send("go infinite");
  Send("position startpos");
  Send("setoption name Hash value 8");
  Send("go depth 1");
  Send("isready");
  const std::vector<std::string> lines = ReadUntil("readyok");
  EXPECT_EQ(CountStartingWith(lines, "info string error: position: a search is running"), 1);
  EXPECT_EQ(CountStartingWith(lines, "info string error: setoption: a search is running"), 1);
  EXPECT_EQ(CountStartingWith(lines, "info string error: go: a search is running"), 1);
  Send("stop");
  ReadUntil("bestmove ");
  Send("d");
  const std::vector<std::string> board = ReadUntil("result ");
  EXPECT_EQ(CountStartingWith(board, "fen 1/1R1/5/7/9/7/5/3/1 b"), 1) << "position kept";
}

TEST_F(EngineSession, QuitDuringASearchExits) {
  Send("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Send("quit");
  const std::optional<int> code = engine_->WaitForExit(absl::Seconds(2));
  ASSERT_TRUE(code.has_value()) << "still running after quit";
  EXPECT_EQ(*code, 0);
}

TEST_F(EngineSession, EndOfInputAfterGoStillGetsTheBestmove) {
  Send("go depth 3");
  engine_->CloseInput();
  const std::vector<std::string> lines = ReadUntil("bestmove ");
  EXPECT_EQ(CountStartingWith(lines, "bestmove"), 1);
  EXPECT_EQ(engine_->WaitForExit(absl::Seconds(5)), 0);
}

TEST_F(EngineSession, MovetimeIsKept) {
  Send("position startpos moves RC14 GR04");
  const auto start = Clock::now();
  Send("go movetime 300");
  ReadUntil("bestmove ");
  const auto elapsed = Clock::now() - start;
  // Generous on the upper side: a busy test machine delays processes; an engine that ignored
  // movetime would search for many seconds.
  EXPECT_GE(elapsed, std::chrono::milliseconds(150));
  EXPECT_LT(elapsed, std::chrono::milliseconds(2000));
}

TEST_F(EngineSession, ClockSearchFromTheStartKeepsWithinItsShare) {
  Send("position startpos");
  const auto start = Clock::now();
  Send("go wtime 10000 btime 10000");
  ReadUntil("bestmove ");
  // 20 moves to make from 10 s: one move may not take a third of the clock.
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(3333));
  Send("position startpos moves RC14");
  Send("go p1time 10000 p2time 50");  // UGI form, the second player nearly flagged
  const auto start2 = Clock::now();
  ReadUntil("bestmove ");
  EXPECT_LT(Clock::now() - start2, std::chrono::milliseconds(200));
}

TEST_F(EngineSession, SolvedScoresAreMarkedExact) {
  // Reference game 1 with 6 plies left.
  Send(
      "position startpos moves BR57 YR37 BR04 GR46 BR55 YR22 YC54 YC65 RC74 YC23 YR64 BR66 "
      "GC14 RC45 BC36 GR73 RR53 YR33 BC25 RR35 GR51 RC56 YR42 BR48 YC43 BR13 RC63 BC32 "
      "GC34 BC41 YR26 RR84 GR15 GR62");
  Send("go depth 40");
  const std::vector<std::string> lines = ReadUntil("bestmove ");
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[lines.size() - 2], "info string exact");
  EXPECT_TRUE(absl::StartsWith(lines[lines.size() - 3], "info string proven "))
      << lines[lines.size() - 3];
  const std::string& final_info = lines[lines.size() - 4];
  EXPECT_TRUE(absl::StartsWith(final_info, "info depth 6 ")) << final_info;
  const std::vector<absl::string_view> words = absl::StrSplit(final_info, ' ');
  const auto cp = std::find(words.begin(), words.end(), "cp");
  ASSERT_NE(cp, words.end());
  int value = 0;
  ASSERT_TRUE(absl::SimpleAtoi(*(cp + 1), &value));
  EXPECT_EQ(value % 100, 0) << "an exact value is a whole final margin";
}

TEST_F(EngineSession, GoProveReportsTheProvenResultAsABound) {
  // Reference game 0 with 12 plies left: the first player wins (by 3 points).
  const std::string moves =
      "BR57 YR37 BR04 GR46 BR55 YR22 YC54 YC65 RC74 YC23 YR64 BR66 GC14 RC45 BC36 GR73 RR53 "
      "YR33 BC25 RR35 GR51 RC56 YR42 BR48 YC43 BR13 RC63 BC32";
  Send("position startpos moves " + moves);
  Send("go prove");
  std::vector<std::string> lines = ReadUntil("bestmove ");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[lines.size() - 2], "info string proven win");
  EXPECT_TRUE(std::regex_match(lines[lines.size() - 3],
                               std::regex("info depth 12 .* score cp \\d+00 lowerbound .*")))
      << lines[lines.size() - 3];
  // The other side, one move later (the winner's move played): a proven loss.
  Send("position startpos moves " + moves + " " + lines.back().substr(9));
  Send("go prove");
  lines = ReadUntil("bestmove ");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[lines.size() - 2], "info string proven loss");
  EXPECT_TRUE(std::regex_match(lines[lines.size() - 3],
                               std::regex("info depth 11 .* score cp -\\d+00 upperbound .*")))
      << lines[lines.size() - 3];
  // Without a depth, a lost side solves the exact value directly (its proof would cost as
  // much and gain nothing): its report, then the final one.
  Send("go movetime 20000");
  lines = ReadUntil("bestmove ");
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[lines.size() - 2], "info string exact");
  EXPECT_EQ(lines[lines.size() - 3], "info string proven loss");
  EXPECT_EQ(CountStartingWith(lines, "info string proven loss"), 2);
}

TEST_F(EngineSession, FinishedGameGetsBestmoveNone) {
  Send(
      "position startpos moves BR57 YR37 BR04 GR46 BR55 YR22 YC54 YC65 RC74 YC23 YR64 BR66 "
      "GC14 RC45 BC36 GR73 RR53 YR33 BC25 RR35 GR51 RC56 YR42 BR48 YC43 BR13 RC63 BC32 "
      "GC34 BC41 YR26 RR84 GR15 GR62 GR44 RR31 RR75 GC47 RR24 GC52");
  Send("go wtime 1000 btime 1000");
  const std::vector<std::string> lines = ReadUntil("bestmove ");
  EXPECT_EQ(lines.back(), "bestmove (none)");
}

TEST_F(EngineSession, SetOptionChecksNamesAndValues) {
  Send("setoption name Threads value 2");
  Send("setoption name threads value 0");
  Send("setoption name Hash value banana");
  Send("setoption name Colour value red");
  Send("setoption name MoveOverhead");
  Send("isready");
  const std::vector<std::string> lines = ReadUntil("readyok");
  ASSERT_EQ(lines.size(), 5u) << "four errors, then readyok";
  EXPECT_EQ(lines[0],
            "info string error: setoption: Threads must be an integer from 1 to 256, "
            "not '0'");
  EXPECT_TRUE(absl::StrContains(lines[1], "Hash must be an integer")) << lines[1];
  EXPECT_EQ(lines[2], "info string error: setoption: no option named 'Colour'");
  EXPECT_TRUE(absl::StrContains(lines[3], "expected 'setoption name")) << lines[3];
  // Two threads search and agree with the protocol.
  Send("go depth 5");
  const std::vector<std::string> search = ReadUntil("bestmove ");
  EXPECT_EQ(CountStartingWith(search, "bestmove "), 1);
}

TEST_F(EngineSession, BenchIsDeterministic) {
  std::vector<std::string> signatures;
  for (int run = 0; run < 2; ++run) {
    Send("bench 4");
    const std::vector<std::string> lines = ReadUntil("Total time (ms): ");
    ASSERT_GE(lines.size(), 3u);
    EXPECT_TRUE(absl::StartsWith(lines[lines.size() - 2], "Nodes/second: "));
    signatures.push_back(lines[lines.size() - 3]);
    EXPECT_TRUE(absl::StartsWith(signatures.back(), "Nodes searched: "));
  }
  EXPECT_EQ(signatures[0], signatures[1]);
}

TEST_F(EngineSession, EvalPrintsItsTerms) {
  Send("position startpos moves RC14 RR04 GR13 BR15");
  Send("eval");
  const std::vector<std::string> lines = ReadUntil("total ");
  // The header, the score difference, the network's term, the total.
  ASSERT_GE(lines.size(), 4u);
  EXPECT_TRUE(absl::StartsWith(lines[lines.size() - 2], "network"));
  EXPECT_TRUE(absl::StartsWith(lines.back(), "total"));
}

}  // namespace
}  // namespace divercite
