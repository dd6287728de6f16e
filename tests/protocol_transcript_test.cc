// The protocol's answers, byte for byte: tests/data/protocol_transcript.in is sent to a live
// `divercite` one line at a time, and what it answers must be tests/data/protocol_transcript.out
// (handshakes, options, positions, searches, d, eval, queries, perft, bench and errors).
//
// Each command's answer is collected before the next is sent (up to `bestmove` after a go,
// else up to the `readyok` of an `isready` sent behind it, which is left out), so the
// transcript does not depend on timing. Timings are masked: `nps N`, `time N` and bench's
// rate and total become `*`; so does the version on the `id name` line (it names the commit). After
// a deliberate change of output, regenerate the file with DIVERCITE_UPDATE_TRANSCRIPT=1 and review
// the diff.
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tools/common/child_process.h"

namespace divercite {
namespace {

const std::string kInputPath = std::string(DIVERCITE_TEST_DATA_DIR) + "/protocol_transcript.in";
const std::string kOutputPath = std::string(DIVERCITE_TEST_DATA_DIR) + "/protocol_transcript.out";

std::string Masked(const std::string& line) {
  static const std::regex kTimings(R"(\b(nps|time) \d+)");
  static const std::regex kBenchTimings(R"(^(Nodes/second|Total time \(ms\)): \d+$)");
  static const std::regex kVersion(R"(^id name Divercite .+$)");
  std::string masked = std::regex_replace(line, kTimings, "$1 *");
  masked = std::regex_replace(masked, kVersion, "id name Divercite *");
  return std::regex_replace(masked, kBenchTimings, "$1: *");
}

bool IsSearch(const std::string& command) {
  return absl::StartsWith(command, "go") && !absl::StartsWith(command, "go perft");
}

TEST(ProtocolTranscript, AnswersAreByteIdentical) {
  std::ifstream input(kInputPath);
  ASSERT_TRUE(input) << kInputPath;
  absl::StatusOr<std::unique_ptr<ChildProcess>> engine =
      ChildProcess::Start({DIVERCITE_ENGINE_BINARY});
  ASSERT_TRUE(engine.ok()) << engine.status();

  std::ostringstream transcript;
  std::string command;
  while (std::getline(input, command)) {
    transcript << "> " << command << "\n";
    ASSERT_TRUE((*engine)->WriteLine(command).ok());
    if (command == "quit") break;
    // The isready behind the command bounds its answer; a search also ends with its
    // bestmove, unless it was refused with an error line.
    // (An isready command is its own bound, and its readyok is kept.)
    const bool sentinel = command != "isready";
    if (sentinel) {
      ASSERT_TRUE((*engine)->WriteLine("isready").ok());
    }
    std::vector<std::string> answer;
    bool ready = false, refused = false, searched = !IsSearch(command);
    while (!ready || !(searched || refused)) {
      absl::StatusOr<std::string> line = (*engine)->ReadLine(absl::Seconds(60));
      ASSERT_TRUE(line.ok()) << "after '" << command << "': " << line.status();
      if (*line == "readyok" && !ready) {
        ready = true;
        if (sentinel) continue;
      }
      searched = searched || absl::StartsWith(*line, "bestmove");
      refused = refused || absl::StartsWith(*line, "info string error:");
      answer.push_back(Masked(*line));
    }
    for (const std::string& line : answer) transcript << line << "\n";
  }
  const std::optional<int> exit_code = (*engine)->WaitForExit(absl::Seconds(10));
  EXPECT_EQ(exit_code, 0);

  if (std::getenv("DIVERCITE_UPDATE_TRANSCRIPT") != nullptr) {
    std::ofstream(kOutputPath) << transcript.str();
    GTEST_SKIP() << "wrote " << kOutputPath;
  }
  std::ifstream expected_file(kOutputPath);
  ASSERT_TRUE(expected_file) << kOutputPath << " (DIVERCITE_UPDATE_TRANSCRIPT=1 writes it)";
  std::stringstream expected;
  expected << expected_file.rdbuf();
  EXPECT_EQ(transcript.str(), expected.str());
}

}  // namespace
}  // namespace divercite
