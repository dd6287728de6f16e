// Options never fail silently: the options an engine advertises after `uci` are read, every
// option a tool sets is checked against them, and one the engine does not have, a value it
// does not take, or one it answers with an error stops `divercite-match` before its first
// game (nothing recorded) and `divercite-analyze` before its first position, with one line
// naming the engine, the option and why. And every option the README, the manual's pages
// (docs/) and the tools' --help name is one the real engine advertises, with a value it takes.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/client/engine_client.h"
#include "tools/client/engine_options.h"

namespace divercite {
namespace {

using Type = AdvertisedOption::Type;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file of this test's own in the temporary directory (ctest runs tests side by side).
std::string TestFile(absl::string_view name) {
  return absl::StrCat(::testing::TempDir(), "/",
                      ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_", name);
}

std::string Quoted(absl::string_view word) {
  return absl::StrCat("'", absl::StrReplaceAll(word, {{"'", "'\\''"}}), "'");
}

struct ToolRun {
  int exit_status = -1;
  std::string out, err;
};

// Runs a program with `args` (each passed as one argument, spaces and all).
ToolRun RunTool(const std::string& program, const std::vector<std::string>& args,
                const std::string& input = "") {
  const std::string in = TestFile("stdin"), out = TestFile("stdout"), err = TestFile("stderr");
  std::ofstream(in) << input;
  std::string command = Quoted(program);
  for (const std::string& arg : args) absl::StrAppend(&command, " ", Quoted(arg));
  absl::StrAppend(&command, " < ", Quoted(in), " > ", Quoted(out), " 2> ", Quoted(err));
  const int status = std::system(command.c_str());
  ToolRun run;
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadFile(out);
  run.err = ReadFile(err);
  return run;
}

// The options `divercite` advertises, as the client reads them.
std::vector<AdvertisedOption> EngineOptions() {
  std::vector<AdvertisedOption> options;
  for (absl::string_view line :
       absl::StrSplit(RunTool(DIVERCITE_ENGINE_BINARY, {}, "uci\nquit\n").out, '\n')) {
    if (std::optional<AdvertisedOption> option = ParseOptionLine(line)) {
      options.push_back(*option);
    }
  }
  return options;
}

TEST(EngineOptionsTest, EveryOptionLineOfTheEngineIsRead) {
  const std::vector<AdvertisedOption> options = EngineOptions();
  ASSERT_EQ(options.size(), 7u);
  EXPECT_EQ(options[0].name, "Hash");
  EXPECT_EQ(options[0].type, Type::kSpin);
  EXPECT_EQ(options[0].default_value, "16");
  EXPECT_EQ(options[0].min, 1);
  EXPECT_EQ(options[0].max, 65536);
  EXPECT_EQ(options[2].name, "MultiPV");
  EXPECT_EQ(options[2].default_value, "1");
  EXPECT_EQ(options[2].max, 164);
  EXPECT_EQ(options[5].name, "EvalFile");
  EXPECT_EQ(options[5].type, Type::kString);
  EXPECT_EQ(options[5].default_value, "<built-in>");
  EXPECT_EQ(options[6].name, "Agent");
  EXPECT_EQ(options[6].type, Type::kCombo);
  EXPECT_EQ(options[6].default_value, "engine");
  EXPECT_EQ(options[6].vars.size(), 9u);
  EXPECT_EQ(options[6].vars[6], "skypiea_v5");
}

TEST(EngineOptionsTest, OtherEnginesLinesAndLinesThatAreNoOption) {
  std::optional<AdvertisedOption> option = ParseOptionLine("option name Clear Hash type button");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->name, "Clear Hash");
  EXPECT_EQ(option->type, Type::kButton);
  option = ParseOptionLine("option name Debug Log File type string default");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->name, "Debug Log File");
  EXPECT_EQ(option->default_value, "");
  option =
      ParseOptionLine("option name Style type combo default Normal var Solid Style var Normal");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->vars, (std::vector<std::string>{"Solid Style", "Normal"}));
  option = ParseOptionLine("option  name Contempt\ttype spin default 24 min -100 max 100\r");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->name, "Contempt");
  EXPECT_EQ(option->min, -100);
  EXPECT_EQ(option->max, 100);
  option = ParseOptionLine("option name Ponder type check default false");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->type, Type::kCheck);
  option = ParseOptionLine("option name Slider type slider default 3");
  ASSERT_TRUE(option);
  EXPECT_EQ(option->type, Type::kOther);
  for (const char* line : {"id name Divercite", "option", "option name", "option name type spin",
                           "info string option name Hash", "uciok"}) {
    EXPECT_FALSE(ParseOptionLine(line)) << line;
  }
}

// Why an option is refused, or under what name it is sent.
std::string Checked(const std::vector<AdvertisedOption>& options, absl::string_view name,
                    absl::string_view value) {
  absl::StatusOr<AdvertisedOption> option = CheckOption(options, name, value);
  if (!option.ok()) return std::string(option.status().message());
  return SetOptionLine(*option, value);
}

TEST(EngineOptionsTest, EachTypeTakesItsValuesAndSaysWhyNot) {
  std::vector<AdvertisedOption> options = EngineOptions();
  for (const char* line : {"option name Ponder type check default false",
                           "option name Clear Hash type button", "option name Any type slider"}) {
    options.push_back(*ParseOptionLine(line));
  }
  EXPECT_EQ(Checked(options, "Hash", "64"), "setoption name Hash value 64");
  EXPECT_EQ(Checked(options, "threads", "2"), "setoption name Threads value 2")
      << "names match whatever their case, and go as the engine spells them";
  EXPECT_EQ(Checked(options, "Hash", "0"),
            "0 is out of range (Hash takes an integer from 1 to 65536)");
  EXPECT_EQ(Checked(options, "Hash", "65537"),
            "65537 is out of range (Hash takes an integer from 1 to 65536)");
  EXPECT_EQ(Checked(options, "Hash", "64MB"),
            "'64MB' is not a number (Hash takes an integer from 1 to 65536)");
  EXPECT_EQ(Checked(options, "Hash", ""),
            "'' is not a number (Hash takes an integer from 1 to 65536)");
  EXPECT_EQ(Checked(options, "Agent", "skypiea_v5"), "setoption name Agent value skypiea_v5");
  EXPECT_EQ(Checked(options, "Agent", "Skypiea_v5"),
            "'Skypiea_v5' is not one of Agent's choices (engine, random, greedy, little_garden, "
            "water_seven, skypiea_v2, skypiea_v5, mcts, impel_down)");
  EXPECT_EQ(Checked(options, "EvalFile", "/a path/with spaces.eval"),
            "setoption name EvalFile value /a path/with spaces.eval");
  EXPECT_EQ(Checked(options, "Ponder", "true"), "setoption name Ponder value true");
  EXPECT_EQ(Checked(options, "Ponder", "yes"),
            "'yes' is neither true nor false (Ponder is a check)");
  EXPECT_EQ(Checked(options, "clear hash", ""), "setoption name Clear Hash");
  EXPECT_EQ(Checked(options, "Clear Hash", "now"), "Clear Hash is a button: it takes no value");
  EXPECT_EQ(Checked(options, "Any", "thing"), "setoption name Any value thing");
  EXPECT_EQ(Checked(options, "Hashh", "64"),
            "the engine has no such option (it has Hash, Threads, MultiPV, MoveOverhead, Seed, "
            "EvalFile, Agent, Ponder, Clear Hash, Any)");
  EXPECT_EQ(Checked({}, "Hash", "64"), "the engine has no options at all");
}

// The client refuses before sending anything, and reports the engine's own refusal; a refused
// start leaves nothing running.
TEST(EngineOptionsTest, TheClientRefusesAndNamesTheOption) {
  EngineConfig config;
  config.name = "live";
  config.command = DIVERCITE_ENGINE_BINARY;
  config.options = {{"Hash", "8"}, {"Seed", "x"}};
  EngineClient refused(config);
  EXPECT_EQ(refused.EnsureStarted(absl::Seconds(10)).message(),
            "engine 'live': option 'Seed=x' refused: 'x' is not a number (Seed takes an integer "
            "from 0 to 2147483647)");
  EXPECT_EQ(refused.last_failure(), EngineFailure::kOptions);
  EXPECT_FALSE(refused.running());
  config.options = {{"Hash", "8"}, {"EvalFile", "/nonexistent/x.eval"}, {"Seed", "1"}};
  EngineClient answered(config);
  EXPECT_EQ(answered.EnsureStarted(absl::Seconds(10)).message(),
            "engine 'live': option 'EvalFile=/nonexistent/x.eval' refused: the engine said: "
            "setoption: /nonexistent/x.eval: cannot open");
  EXPECT_EQ(answered.last_failure(), EngineFailure::kOptions);
  config.options = {{"Hash", "8"}, {"agent", "greedy"}};
  EngineClient good(config);
  EXPECT_TRUE(good.EnsureStarted(absl::Seconds(10)).ok());
  EXPECT_EQ(good.advertised_options().size(), 7u);
  good.Quit();
}

// With several lines (MultiPV) the reply is the best line's: its score, not the last line's.
TEST(EngineOptionsTest, WithSeveralLinesTheReplyIsTheBestLine) {
  EngineConfig config;
  config.name = "lines";
  config.command = DIVERCITE_ENGINE_BINARY;
  config.options = {{"Hash", "8"}, {"MultiPV", "3"}};
  EngineClient client(config);
  ASSERT_TRUE(client.EnsureStarted(absl::Seconds(10)).ok());
  // 12 plies from the end: the best move wins by 3 points, the next ones by 1.
  const absl::StatusOr<EngineReply> reply =
      client.Go("position fen B/bG1/yy1B1/1by1rBy/2YY1rg1b/G1RYBrB/1RYyb/gR1/1 w", "go depth 40",
                absl::Seconds(60));
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->bestmove, "GR44");
  EXPECT_EQ(reply->score_cp, 300);
  EXPECT_EQ(reply->score_bound, ScoreBound::kNone);
  EXPECT_TRUE(reply->exact);
  // Every line of the final report, best first, each with its own exact and proof.
  ASSERT_EQ(reply->lines.size(), 3u);
  EXPECT_EQ(reply->lines[0].pv.front(), "GR44");
  EXPECT_EQ(reply->lines[0].score_cp, 300);
  for (size_t i = 0; i < reply->lines.size(); ++i) {
    const EngineLine& line = reply->lines[i];
    EXPECT_TRUE(line.exact) << "line " << i + 1;
    EXPECT_EQ(line.proven, ProvenResult::kWin) << "line " << i + 1;
    EXPECT_EQ(line.score_bound, ScoreBound::kNone) << "line " << i + 1;
    EXPECT_FALSE(line.pv.empty()) << "line " << i + 1;
    if (i > 0) {
      EXPECT_EQ(line.score_cp, 100) << "line " << i + 1;
      EXPECT_NE(line.pv.front(), reply->lines[i - 1].pv.front());
    }
  }
  client.Quit();
}

// The engine's weight file, copied to a path with spaces.
std::string SpacedEvalFile() {
  const std::filesystem::path dir = std::filesystem::path(TestFile("a dir"));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "with spaces.net").string();
  std::filesystem::copy_file(std::string(DIVERCITE_SOURCE_DIR) + "/search/network.net", path,
                             std::filesystem::copy_options::overwrite_existing);
  return path;
}

std::vector<std::string> MatchArgs(const std::vector<std::string>& first_engine_fields,
                                   const std::string& records) {
  const std::string engine = absl::StrCat("cmd=", DIVERCITE_ENGINE_BINARY);
  std::vector<std::string> args = {"-engine", engine, "name=first"};
  args.insert(args.end(), first_engine_fields.begin(), first_engine_fields.end());
  const std::vector<std::string> rest = {"-engine", engine, "name=second", "-each",    "depth=1",
                                         "-games",  "2",    "-repeat",     "-records", records};
  args.insert(args.end(), rest.begin(), rest.end());
  return args;
}

TEST(MatchOptionsTest, ARefusedOptionStopsTheRunBeforeItsFirstGame) {
  const std::string records = TestFile("records.jsonl");
  const std::string refused = "divercite-match: engine 'first': option ";
  const struct {
    const char* field;
    std::string error;
  } cases[] = {
      {"option.Hashh=64",
       "'Hashh=64' refused: the engine has no such option (it has Hash, Threads, MultiPV, "
       "MoveOverhead, Seed, EvalFile, Agent)"},
      {"option.Threads=two",
       "'Threads=two' refused: 'two' is not a number (Threads takes an integer from 1 to 256)"},
      {"option.MoveOverhead=-5",
       "'MoveOverhead=-5' refused: -5 is out of range (MoveOverhead takes an integer from 0 to "
       "5000)"},
      {"option.Agent=nobody", "'Agent=nobody' refused: 'nobody' is not one of Agent's choices"},
      {"option.EvalFile=/nonexistent/w.eval",
       "'EvalFile=/nonexistent/w.eval' refused: the engine said: setoption: "
       "/nonexistent/w.eval: cannot open"},
  };
  for (const auto& [field, error] : cases) {
    std::filesystem::remove(records);
    const ToolRun run =
        RunTool(DIVERCITE_MATCH_BINARY, MatchArgs({"option.Hash=8", field}, records));
    EXPECT_EQ(run.exit_status, 1) << field;
    EXPECT_TRUE(absl::StartsWith(run.err, refused + error)) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_FALSE(absl::StrContains(run.out, "Finished game")) << run.out;
    EXPECT_FALSE(std::filesystem::exists(records)) << field << ": nothing is recorded";
  }
}

TEST(MatchOptionsTest, EveryEngineOfAGauntletIsChecked) {
  const std::string records = TestFile("records.jsonl");
  std::filesystem::remove(records);
  std::vector<std::string> args = MatchArgs({}, records);
  const std::vector<std::string> third = {
      "-engine",     absl::StrCat("cmd=", DIVERCITE_ENGINE_BINARY),
      "name=third",  "option.Seed=2147483648",
      "-tournament", "gauntlet"};
  args.insert(args.end(), third.begin(), third.end());
  const ToolRun run = RunTool(DIVERCITE_MATCH_BINARY, args);
  EXPECT_EQ(run.exit_status, 1);
  EXPECT_EQ(run.err,
            "divercite-match: engine 'third': option 'Seed=2147483648' refused: 2147483648 is "
            "out of range (Seed takes an integer from 0 to 2147483647)\n");
  EXPECT_FALSE(std::filesystem::exists(records));
}

// Good options, whatever the case of their names, and a weight file whose path holds spaces:
// the games are played with them, and the log shows them set as given.
TEST(MatchOptionsTest, GoodOptionsAreSetAndTheGamesPlayed) {
  const std::string records = TestFile("records.jsonl");
  const std::string log = TestFile("protocol.log");
  std::filesystem::remove(records);
  std::filesystem::remove(log);
  const std::string eval_file = SpacedEvalFile();
  std::vector<std::string> args =
      MatchArgs({"option.hash=8", "option.EvalFile=" + eval_file, "option.Agent=engine"}, records);
  args.insert(args.end(), {"-log", "file=" + log});
  const ToolRun run = RunTool(DIVERCITE_MATCH_BINARY, args);
  EXPECT_EQ(run.exit_status, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const std::string lines = ReadFile(records);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2) << lines;
  const std::string sent = ReadFile(log);
  EXPECT_TRUE(absl::StrContains(sent, "first > setoption name Hash value 8\n")) << sent;
  EXPECT_TRUE(absl::StrContains(sent, "first > setoption name EvalFile value " + eval_file + "\n"))
      << sent;
  EXPECT_FALSE(absl::StrContains(sent, "info string error")) << sent;
}

TEST(AnalyzeOptionsTest, ARefusedOptionStopsTheAnalysis) {
  const std::vector<std::string> game = {"--moves=RC14 GR04", "--solve-plies=0", "--depth=1"};
  std::vector<std::string> args = game;
  args.push_back("--option=Threads=1,Hashh=4");
  ToolRun run = RunTool(DIVERCITE_ANALYZE_BINARY, args);
  EXPECT_EQ(run.exit_status, 1);
  EXPECT_TRUE(absl::StartsWith(run.err,
                               "divercite-analyze: engine 'divercite': option 'Hashh=4' refused: "
                               "the engine has no such option (it has Hash, "))
      << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_EQ(run.out, "");
  args = game;
  args.push_back("--hash=0");
  run = RunTool(DIVERCITE_ANALYZE_BINARY, args);
  EXPECT_EQ(run.exit_status, 1);
  EXPECT_EQ(run.err,
            "divercite-analyze: engine 'divercite': option 'Hash=0' refused: 0 is out of range "
            "(Hash takes an integer from 1 to 65536)\n");
  args = game;
  args.push_back("--option=EvalFile=" + SpacedEvalFile());
  run = RunTool(DIVERCITE_ANALYZE_BINARY, args);
  EXPECT_EQ(run.exit_status, 0) << run.err;
  EXPECT_TRUE(absl::StrContains(run.out, "RC14")) << run.out;
}

// --app, the web app the review pages link to: for --html only, and an address a reader
// follows (http, https, or relative), nothing else.
TEST(AnalyzeOptionsTest, TheAppsAddressIsForReviewPagesAndTheWeb) {
  const std::vector<std::string> game = {"--moves=RC14 GR04", "--solve-plies=0", "--depth=1"};
  std::vector<std::string> args = game;
  args.push_back("--app=https://example.org/divercite/index.html");
  ToolRun run = RunTool(DIVERCITE_ANALYZE_BINARY, args);
  EXPECT_EQ(run.exit_status, 2) << run.err;
  EXPECT_TRUE(absl::StrContains(run.err, "--app is for the pages of --html")) << run.err;
  const std::string page = TestFile("app-link.html");
  args = game;
  args.insert(args.end(), {"--html=" + page, "--app=javascript:alert(1)"});
  run = RunTool(DIVERCITE_ANALYZE_BINARY, args);
  EXPECT_EQ(run.exit_status, 2) << run.err;
  EXPECT_TRUE(absl::StrContains(run.err, "neither http(s):// nor a relative address")) << run.err;
  for (const std::string app : {"https://example.org/divercite/", "../site/index.html"}) {
    args = game;
    args.insert(args.end(), {"--html=" + page, "--app=" + app});
    run = RunTool(DIVERCITE_ANALYZE_BINARY, args);
    EXPECT_EQ(run.exit_status, 0) << run.err;
    EXPECT_TRUE(absl::StrContains(ReadFile(page), "\"app\":\"" + app + "\"")) << app;
  }
  std::filesystem::remove(page);
}

// Where the documentation sets an option: `option.X=V` (divercite-match), `--option=X=V`
// (divercite-analyze), `setoption name X value V` (the protocol). X and NAME stand for any.
struct Mention {
  std::string where, name, value;
  bool has_value = false;
};

std::vector<Mention> OptionMentions(const std::string& where, const std::string& text) {
  static const std::regex kMention(
      R"((?:option\.|--option=|setoption name )([A-Za-z_][A-Za-z0-9_]*)(?:(=| value )([^\s`,\]]*))?)");
  std::vector<Mention> mentions;
  for (std::sregex_iterator it(text.begin(), text.end(), kMention), end; it != end; ++it) {
    const std::string name = (*it)[1];
    if (name == "X" || name == "NAME") continue;
    mentions.push_back({where, name, (*it)[3], (*it)[2].matched});
  }
  return mentions;
}

TEST(DocumentedOptionsTest, EveryOptionTheDocsNameIsOneTheEngineAdvertises) {
  // The README, every page of the manual, and the main job. Not docs/protocol.md: its
  // transcripts set wrong options on purpose, and protocol_transcript_test replays them.
  std::vector<std::string> files = {"README.md", "scripts/main.sh"};
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(DIVERCITE_SOURCE_DIR) + "/docs")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".md" && name != "protocol.md") files.push_back("docs/" + name);
  }
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 2u) << "no page of the manual in docs/";
  std::vector<Mention> mentions;
  for (const std::string& file : files) {
    const std::vector<Mention> found =
        OptionMentions(file, ReadFile(std::string(DIVERCITE_SOURCE_DIR) + "/" + file));
    mentions.insert(mentions.end(), found.begin(), found.end());
  }
  for (const char* tool : {DIVERCITE_MATCH_BINARY, DIVERCITE_ANALYZE_BINARY}) {
    const ToolRun help = RunTool(tool, {"--help"});
    const std::vector<Mention> found =
        OptionMentions(std::filesystem::path(tool).filename().string() + " --help", help.out);
    mentions.insert(mentions.end(), found.begin(), found.end());
  }
  const std::vector<AdvertisedOption> options = EngineOptions();
  ASSERT_FALSE(options.empty());
  std::set<std::string> named;
  for (const Mention& mention : mentions) {
    named.insert(mention.name);
    // Spelt as the engine spells it, and with a value it takes.
    const auto option = std::find_if(options.begin(), options.end(),
                                     [&](const auto& o) { return o.name == mention.name; });
    EXPECT_TRUE(option != options.end())
        << mention.where << ": no option " << mention.name << " (the engine has "
        << absl::StrJoin(options, ", ",
                         [](std::string* out, const auto& o) { absl::StrAppend(out, o.name); })
        << ")";
    if (option == options.end() || !mention.has_value) continue;
    const absl::Status value = CheckOption(options, mention.name, mention.value).status();
    EXPECT_TRUE(value.ok()) << mention.where << ": " << mention.name << "=" << mention.value << ": "
                            << value.message();
  }
  // The manual's matches, analysis, training and the main job set these at least.
  for (const char* name : {"Agent", "EvalFile", "Hash", "Threads"}) {
    EXPECT_TRUE(named.count(name)) << name << " is no longer found: is the pattern still right?";
  }
}

}  // namespace
}  // namespace divercite
