// divercite-match -compliance (tools/match/compliance.h), run as a user runs it: our engine
// passes every check, alone and as a course agent's replica; a course agent through the bridge
// passes every check; each misbehaving fake engine (tests/fake_engine.cc) fails its own check
// and no other; a bad command line is a usage error.
#include <cstdlib>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tools/common/child_process.h"

namespace divercite {
namespace {

// What a run printed: each check's status word and detail, by check, in order.
struct ComplianceRun {
  int exit_code = -1;
  std::vector<std::string> lines;
  std::vector<std::string> checks;
  std::map<std::string, std::string> status;  // "ok", "FAIL: <detail>", "skip: <detail>"
  std::string stderr_tail;
};

ComplianceRun Compliance(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {DIVERCITE_MATCH_BINARY, "-compliance"};
  argv.insert(argv.end(), args.begin(), args.end());
  ComplianceRun run;
  absl::StatusOr<std::unique_ptr<ChildProcess>> process = ChildProcess::Start(argv);
  EXPECT_TRUE(process.ok()) << process.status();
  if (!process.ok()) return run;
  while (true) {
    absl::StatusOr<std::string> line = (*process)->ReadLine(absl::Seconds(120));
    if (!line.ok()) break;
    run.lines.push_back(*line);
    for (const absl::string_view word : {"ok ", "FAIL ", "skip "}) {
      if (!absl::StartsWith(*line, word)) continue;
      const std::string rest = line->substr(word.size());
      const size_t colon = word == "ok " ? std::string::npos : rest.find(": ");
      const std::string check = rest.substr(0, colon);
      run.checks.push_back(check);
      run.status[check] = absl::StrCat(word.substr(0, word.size() - 1),
                                       colon == std::string::npos ? "" : rest.substr(colon));
    }
  }
  run.exit_code = (*process)->WaitForExit(absl::Seconds(30)).value_or(-1);
  run.stderr_tail = (*process)->StderrTail();
  return run;
}

std::string Printed(const ComplianceRun& run) { return absl::StrJoin(run.lines, "\n"); }

const std::vector<std::string> kChecksAfterOptions = {
    "ucinewgame",     "position startpos", "position fen", "position moves",        "go depth",
    "go nodes",       "go movetime",       "go clock",     "isready during search", "stop",
    "legal bestmove", "protocol lines",    "quit"};

// The checks of an engine with these options, in the order they are printed.
std::vector<std::string> ChecksOf(const std::vector<std::string>& options, bool given = false) {
  std::vector<std::string> checks = {"handshake", "isready"};
  for (const std::string& option : options) checks.push_back("option " + option);
  if (given) checks.push_back("options given");
  checks.insert(checks.end(), kChecksAfterOptions.begin(), kChecksAfterOptions.end());
  return checks;
}

void ExpectAllOk(const ComplianceRun& run, const std::vector<std::string>& checks) {
  EXPECT_EQ(run.exit_code, 0) << Printed(run) << "\n" << run.stderr_tail;
  EXPECT_EQ(run.checks, checks) << Printed(run);
  for (const auto& [check, status] : run.status) EXPECT_EQ(status, "ok") << check;
}

TEST(Compliance, OurEnginePassesEveryCheck) {
  ExpectAllOk(
      Compliance({DIVERCITE_ENGINE_BINARY}),
      ChecksOf({"Hash", "Threads", "MultiPV", "MoveOverhead", "Seed", "EvalFile", "Agent"}));
}

TEST(Compliance, OurEngineAsACourseAgentsReplicaPassesEveryCheck) {
  ExpectAllOk(Compliance({DIVERCITE_ENGINE_BINARY, "option.Agent=greedy", "option.Seed=3"}),
              ChecksOf({"Hash", "Threads", "MultiPV", "MoveOverhead", "Seed", "EvalFile", "Agent"},
                       /*given=*/true));
}

TEST(Compliance, ACourseAgentThroughTheBridgePassesEveryCheck) {
  setenv("DIVERCITE_COURSE_DIR", DIVERCITE_COURSE_DIR, 1);
  ExpectAllOk(
      Compliance({DIVERCITE_PYTHON, "arg=" DIVERCITE_SOURCE_DIR "/tools/seahorse/course_engine.py",
                  "arg=" DIVERCITE_COURSE_DIR "/divercite/greedy_player_divercite.py"}),
      ChecksOf({"Seed"}));
}

const std::vector<std::string> kFakeOptions = {"Width", "Ponder", "Style", "Notes", "Clear Hash"};

TEST(Compliance, AWellBehavedFakePassesEveryCheck) {
  ExpectAllOk(Compliance({DIVERCITE_FAKE_ENGINE, "arg=--mode=good"}), ChecksOf(kFakeOptions));
}

struct Fault {
  std::string mode;
  std::string check;  // the one it fails
};

void PrintTo(const Fault& fault, std::ostream* out) { *out << fault.mode; }

class ComplianceFault : public ::testing::TestWithParam<Fault> {};

TEST_P(ComplianceFault, FailsItsOwnCheckAndNoOther) {
  const Fault& fault = GetParam();
  // A short patience: the fake that never finishes its handshake is waited for that long.
  const ComplianceRun run =
      Compliance({DIVERCITE_FAKE_ENGINE, "arg=--mode=" + fault.mode, "timeout=3"});
  EXPECT_EQ(run.exit_code, 1) << Printed(run);
  EXPECT_EQ(run.checks, ChecksOf(kFakeOptions)) << Printed(run);
  ASSERT_TRUE(run.status.count(fault.check)) << Printed(run);
  EXPECT_TRUE(absl::StartsWith(run.status.at(fault.check), "FAIL: ")) << Printed(run);
  for (const auto& [check, status] : run.status) {
    if (check == fault.check) continue;
    // Without a handshake the checks that need one are skipped; the others pass.
    const bool needs_handshake =
        fault.check == "handshake" && check != "protocol lines" && check != "quit";
    if (needs_handshake) {
      EXPECT_EQ(status, "skip: no handshake (no uciok)") << check;
    } else {
      EXPECT_EQ(status, "ok") << check << "\n" << Printed(run);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EachCheck, ComplianceFault,
    ::testing::Values(
        Fault{"no-uciok", "handshake"}, Fault{"slow-isready", "isready"},
        Fault{"rejects-option-max", "option Width"}, Fault{"rejects-ucinewgame", "ucinewgame"},
        Fault{"rejects-startpos", "position startpos"}, Fault{"rejects-fen", "position fen"},
        Fault{"rejects-moves", "position moves"}, Fault{"no-move-depth", "go depth"},
        Fault{"no-move-nodes", "go nodes"}, Fault{"over-movetime", "go movetime"},
        Fault{"over-clock", "go clock"}, Fault{"busy-isready", "isready during search"},
        Fault{"slow-stop", "stop"}, Fault{"illegal-bestmove", "legal bestmove"},
        Fault{"chatters", "protocol lines"}, Fault{"ignores-quit", "quit"}),
    [](const ::testing::TestParamInfo<Fault>& info) {
      std::string name;
      for (const char c : info.param.mode) name += c == '-' ? '_' : c;
      return name;
    });

TEST(Compliance, ABadCommandLineIsAUsageError) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               {DIVERCITE_ENGINE_BINARY, "tc=10"},
                                               {DIVERCITE_ENGINE_BINARY, "timeout=never"}}) {
    const ComplianceRun run = Compliance(args);
    EXPECT_EQ(run.exit_code, 2) << absl::StrJoin(args, " ");
    EXPECT_TRUE(run.lines.empty()) << Printed(run);
    EXPECT_NE(run.stderr_tail.find("-compliance"), std::string::npos) << run.stderr_tail;
  }
}

}  // namespace
}  // namespace divercite
