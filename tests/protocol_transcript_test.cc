// The protocol's specification holds for our engine: every transcript of docs/protocol.md
// tagged `engine` is replayed against a fresh `divercite`, as the file's "Replaying a
// transcript" says, and each answer must match its `<` lines (wildcards allowed).
//
// After a deliberate change of output (a search that visits other nodes, a new option), run
// the test with DIVERCITE_UPDATE_TRANSCRIPT=1: it rewrites the `<` lines of each answer that
// no longer matches, timings and the version masked as `*`, and fails; review the diff. An
// answer with a `...` line is not rewritten (the test names it): edit it by hand.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/transcripts.h"
#include "tools/common/child_process.h"

namespace divercite::testing {
namespace {

constexpr absl::Duration kTimeout = absl::Seconds(60);

// The answer's lines as the file would hold them: timings, the version and the weights' names
// masked.
std::string Masked(const std::string& line) {
  static const std::regex kTimings(R"(\b(nps|time) \d+)");
  static const std::regex kBenchTimings(R"(^(Nodes/second|Total time \(ms\)): \d+$)");
  static const std::regex kVersion(R"(^id name Divercite .+$)");
  static const std::regex kWeights(R"(^(weights|fit): .*$)");
  std::string masked = std::regex_replace(line, kTimings, "$1 *");
  masked = std::regex_replace(masked, kVersion, "id name Divercite *");
  masked = std::regex_replace(masked, kWeights, "$1: ...");
  return std::regex_replace(masked, kBenchTimings, "$1: *");
}

// The answer to `command`, read as the file says: after `quit` up to the end of the output;
// else up to the readyok of an isready sent behind it (left out; an isready is its own bound)
// and, when a bestmove is expected, up to the bestmove too. Empty with a failure on timeout.
std::vector<std::string> Collect(ChildProcess& engine, const std::string& command,
                                 const std::vector<std::string>& expected) {
  std::vector<std::string> answer;
  if (command == "quit") {
    while (true) {
      absl::StatusOr<std::string> line = engine.ReadLine(kTimeout);
      if (absl::IsUnavailable(line.status())) return answer;
      if (!line.ok()) {
        ADD_FAILURE() << "the output did not end after 'quit'";
        return answer;
      }
      answer.push_back(*line);
    }
  }
  const bool sentinel = command != "isready";
  if (sentinel) {
    EXPECT_TRUE(engine.WriteLine("isready").ok());
  }
  bool ready = false;
  bool done = !AwaitsBestmove(expected);
  while (!ready || !done) {
    absl::StatusOr<std::string> line = engine.ReadLine(kTimeout);
    if (!line.ok()) {
      ADD_FAILURE() << "after '" << command << "': " << line.status() << "; answered so far:\n"
                    << absl::StrJoin(answer, "\n");
      return answer;
    }
    if (*line == "readyok" && !ready) {
      ready = true;
      if (sentinel) continue;
    }
    done = done || absl::StartsWith(*line, "bestmove");
    answer.push_back(*line);
  }
  return answer;
}

// The new `<` lines of an answer, to replace those from `first_line` (the line after its `>`).
struct Rewrite {
  int first_line;
  size_t old_count;
  std::vector<std::string> lines;
};

// Replays `transcript`; each answer that does not match and can be rewritten is added to
// `rewrites`.
void Replay(const Transcript& transcript, std::vector<Rewrite>& rewrites) {
  absl::StatusOr<std::unique_ptr<ChildProcess>> engine =
      ChildProcess::Start({DIVERCITE_ENGINE_BINARY});
  ASSERT_TRUE(engine.ok()) << engine.status();
  std::vector<std::string> carried;  // the expected lines of open answers
  bool quit_sent = false;
  for (const TranscriptExchange& exchange : transcript.exchanges) {
    SCOPED_TRACE("docs/protocol.md:" + std::to_string(exchange.line) + ": > " + exchange.command);
    std::vector<std::string> expected = carried;
    expected.insert(expected.end(), exchange.expected.begin(), exchange.expected.end());
    ASSERT_TRUE((*engine)->WriteLine(exchange.command).ok());
    quit_sent = exchange.command == "quit";
    if (!quit_sent && IsOpen(exchange.expected)) {
      carried = std::move(expected);
      continue;
    }
    const bool rewritable =
        carried.empty() && std::find(expected.begin(), expected.end(), kAnyLines) == expected.end();
    carried.clear();
    const std::vector<std::string> answer = Collect(**engine, exchange.command, expected);
    if (LinesMatch(expected, answer)) continue;
    ADD_FAILURE() << "expected\n  " << absl::StrJoin(expected, "\n  ")
                  << "\nbut the engine answered\n  " << absl::StrJoin(answer, "\n  ")
                  << (rewritable ? "" : "\n(not rewritten by DIVERCITE_UPDATE_TRANSCRIPT)");
    if (rewritable) {
      Rewrite rewrite{exchange.line + 1, exchange.expected.size(), {}};
      for (const std::string& line : answer) rewrite.lines.push_back(Masked(line));
      rewrites.push_back(std::move(rewrite));
    }
  }
  if (!quit_sent) {
    ASSERT_TRUE((*engine)->WriteLine("quit").ok());
    Collect(**engine, "quit", {});
  }
  EXPECT_EQ((*engine)->WaitForExit(kTimeout), 0) << "the engine's exit status";
}

void RewriteDocument(const std::vector<Rewrite>& rewrites) {
  std::ifstream in(DIVERCITE_PROTOCOL_DOC);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::map<int, const Rewrite*> by_line;
  for (const Rewrite& rewrite : rewrites) by_line[rewrite.first_line] = &rewrite;
  std::ostringstream out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto found = by_line.find(static_cast<int>(i) + 1);
    if (found == by_line.end()) {
      out << lines[i] << "\n";
      continue;
    }
    for (const std::string& line : found->second->lines) {
      out << (line.empty() ? "<" : "< " + line) << "\n";
    }
    // The old answer's lines are left out; without any, this line is the next one's.
    const size_t old_count = found->second->old_count;
    if (old_count == 0) {
      out << lines[i] << "\n";
    } else {
      i += old_count - 1;
    }
  }
  std::ofstream(DIVERCITE_PROTOCOL_DOC) << out.str();
}

TEST(ProtocolTranscript, EveryEngineTranscriptOfTheSpecificationHolds) {
  absl::StatusOr<std::vector<Transcript>> transcripts = ReadTranscripts(DIVERCITE_PROTOCOL_DOC);
  ASSERT_TRUE(transcripts.ok()) << transcripts.status();
  std::vector<Rewrite> rewrites;
  int replayed = 0;
  for (const Transcript& transcript : *transcripts) {
    if (!transcript.HasTag("engine")) continue;
    SCOPED_TRACE("transcript " + transcript.name);
    Replay(transcript, rewrites);
    ++replayed;
  }
  EXPECT_GE(replayed, 15) << "the engine's transcripts in " << DIVERCITE_PROTOCOL_DOC;
  if (std::getenv("DIVERCITE_UPDATE_TRANSCRIPT") != nullptr && !rewrites.empty()) {
    RewriteDocument(rewrites);
    ADD_FAILURE() << "rewrote " << rewrites.size() << " answers in " << DIVERCITE_PROTOCOL_DOC
                  << ": review the diff";
  }
}

TEST(Transcripts, WildcardsMatchAsTheSpecificationSays) {
  EXPECT_TRUE(
      LineMatches("info depth 1 nps * time * pv RC14", "info depth 1 nps 9 time 0 pv RC14"));
  EXPECT_FALSE(LineMatches("info depth 1 nps *", "info depth 1 nps 9 time 0"));
  EXPECT_TRUE(LineMatches("id author ...", "id author a course agent, run by course_engine.py"));
  EXPECT_TRUE(LineMatches("id author ...", "id author"));
  EXPECT_FALSE(LineMatches("id author ...", "id name x"));
  EXPECT_TRUE(LineMatches("", ""));
  EXPECT_FALSE(LineMatches("a  b", "a b")) << "spacing counts";
  const std::vector<std::string> patterns = {"...", "readyok", "...", "bestmove *"};
  EXPECT_TRUE(LinesMatch(patterns, std::vector<std::string>{"readyok", "bestmove RC14"}));
  EXPECT_TRUE(LinesMatch(patterns, std::vector<std::string>{"info a", "readyok", "info b", "info c",
                                                            "bestmove RC14"}));
  EXPECT_FALSE(LinesMatch(patterns, std::vector<std::string>{"info a", "bestmove RC14"}));
  EXPECT_FALSE(LinesMatch(patterns, std::vector<std::string>{"readyok", "bestmove RC14", "x"}));
}

}  // namespace
}  // namespace divercite::testing
