// `divercite` given arguments: one protocol command, run to its end, then the engine exits
// (as Stockfish and OpenBench expect of `stockfish bench`); --version and --help.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "search/bench_signature.h"
#include "tools/common/child_process.h"

namespace divercite {
namespace {

struct EngineRun {
  std::vector<std::string> lines;
  std::optional<int> exit_code;
};

// Runs the engine with `arguments` and no input, and collects what it prints until it exits.
EngineRun RunEngine(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), DIVERCITE_ENGINE_BINARY);
  absl::StatusOr<std::unique_ptr<ChildProcess>> engine = ChildProcess::Start(arguments);
  EXPECT_TRUE(engine.ok()) << engine.status();
  EngineRun run;
  if (!engine.ok()) return run;
  (*engine)->CloseInput();
  while (true) {
    absl::StatusOr<std::string> line = (*engine)->ReadLine(absl::Seconds(60));
    if (!line.ok()) break;  // the end of its output
    run.lines.push_back(*line);
  }
  run.exit_code = (*engine)->WaitForExit(absl::Seconds(10));
  return run;
}

bool HasLine(const EngineRun& run, const std::string& line) {
  for (const std::string& printed : run.lines) {
    if (printed == line) return true;
  }
  return false;
}

TEST(CommandLine, BenchPrintsTheSignatureAndExits) {
  const EngineRun run = RunEngine({"bench"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(HasLine(run, absl::StrCat("Nodes searched: ", kBenchSignature)));
}

TEST(CommandLine, ArgumentsFormOneCommand) {
  const EngineRun run = RunEngine({"go", "perft", "2"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(HasLine(run, "Nodes searched: 26240"));

  const EngineRun search = RunEngine({"go", "depth", "3"});
  EXPECT_EQ(search.exit_code, 0);
  ASSERT_FALSE(search.lines.empty());
  EXPECT_TRUE(absl::StartsWith(search.lines.back(), "bestmove ")) << search.lines.back();
}

TEST(CommandLine, ARefusedCommandExitsWithFailure) {
  const EngineRun run = RunEngine({"bench", "forty"});
  EXPECT_EQ(run.exit_code, 1);
  ASSERT_FALSE(run.lines.empty());
  EXPECT_TRUE(absl::StartsWith(run.lines[0], "info string error: bench:")) << run.lines[0];

  EXPECT_EQ(RunEngine({"frobnicate"}).exit_code, 1);
  EXPECT_EQ(RunEngine({"--frobnicate"}).exit_code, 2);
}

TEST(CommandLine, VersionNamesTheBuild) {
  const EngineRun run = RunEngine({"--version"});
  EXPECT_EQ(run.exit_code, 0);
  ASSERT_EQ(run.lines.size(), 3u);
  EXPECT_TRUE(absl::StartsWith(run.lines[0], "divercite ")) << run.lines[0];
  EXPECT_TRUE(absl::StartsWith(run.lines[1], "built by GCC ") ||
              absl::StartsWith(run.lines[1], "built by Clang "))
      << run.lines[1];
  EXPECT_TRUE(absl::StrContains(run.lines[1], " for native") ||
              absl::StrContains(run.lines[1], " for x86-64"))
      << run.lines[1];
  EXPECT_TRUE(absl::StartsWith(run.lines[2], "network kernels: ")) << run.lines[2];

  // The protocol's `id name` names the same version.
  const std::string version = run.lines[0].substr(std::string("divercite ").size());
  const EngineRun uci = RunEngine({"uci"});
  EXPECT_TRUE(HasLine(uci, absl::StrCat("id name Divercite ", version)));
}

TEST(CommandLine, HelpListsTheCommandLineUse) {
  const EngineRun run = RunEngine({"--help"});
  EXPECT_EQ(run.exit_code, 0);
  bool mentions_bench = false;
  for (const std::string& line : run.lines) {
    mentions_bench = mentions_bench || absl::StrContains(line, "divercite bench 8");
  }
  EXPECT_TRUE(mentions_bench);
}

}  // namespace
}  // namespace divercite
