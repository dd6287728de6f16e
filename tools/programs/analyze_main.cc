// divercite-analyze: where a game was won and lost. Reads games from match records, a move
// list or a course recording, has an engine search every position over the protocol (exactly
// where its solver reaches), and prints each move's value, the engine's best move and the
// points the move lost, then a summary per player.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tools/analysis/game_analysis.h"
#include "tools/analysis/game_sources.h"
#include "tools/common/command_line.h"
#include "tools/review/analysis_report.h"
#include "tools/review/review_page.h"

ABSL_FLAG(std::string, records, "", "A match records file (JSON lines of divercite-match)");
ABSL_FLAG(int, game, -1,
          "With --records: only the game whose \"game\" field is N (0-based; the runner's "
          "text prints N+1); default every game");
ABSL_FLAG(std::string, moves, "", "A move list, e.g. \"RC14 GR04 ...\"");
ABSL_FLAG(std::string, fen, "startpos", "With --moves: the position string they start from");
ABSL_FLAG(std::string, course_recording, "",
          "A recording of the course framework (main_divercite.py -r writes __REC__*.json)");
ABSL_FLAG(int, solve_plies, 14,
          "Solve exactly the positions with at most this many plies left (14 solves in about "
          "a second; 0 solves none but the finished game)");
ABSL_FLAG(int, depth, 8, "Search the earlier positions to this depth");
ABSL_FLAG(int, movetime, 0, "Search the earlier positions for this many ms instead of --depth");
ABSL_FLAG(int, prove_plies, 24,
          "Beyond --solve-plies, prove the result (win, draw, loss) of the positions with at "
          "most this many plies left, from the exact range back, until two in a row find no "
          "proof");
ABSL_FLAG(int, prove_movetime, 1000,
          "Each proof's time, ms (0: no proofs but the exact values); a proof that does not "
          "fit is left out");
ABSL_FLAG(int, multipv, 1,
          "Keep the engine's N best lines at each position (setoption MultiPV N; the review "
          "page shows the top 3); 1: the best move alone, as without it");
ABSL_FLAG(std::string, engine, "",
          "The engine that analyses (default: divercite beside this program)");
ABSL_FLAG(int, hash, 256, "The engine's Hash, MiB");
ABSL_FLAG(std::vector<std::string>, option, {},
          "More engine options, as Name=Value, comma separated (e.g. Threads=2); each must be "
          "one the engine lists after uci, with a value it takes");
ABSL_FLAG(bool, json, false, "One JSON object per game per line, instead of text");
ABSL_FLAG(std::string, plot, "",
          "Draw the margin over the game into this PNG (several games: -<game> is added "
          "before .png); needs python3-matplotlib");
ABSL_FLAG(std::string, python, "", "The Python that plots (default /usr/bin/python3 if present)");
ABSL_FLAG(std::string, html, "",
          "Write a review page (one self-contained HTML file) of the game into this file; with "
          "--records and no --game, this is a folder (created if missing) that gets "
          "game-<N>.html per game and index.html linking them");
ABSL_FLAG(std::string, app, "",
          "With --html: the web app's address (its index.html, served); each page's "
          "\"Play from here\" opens the game there at the ply shown");

namespace {

constexpr absl::string_view kTool = "divercite-analyze";
constexpr absl::string_view kUsage =
    "Analyses games move by move: the value before each move, the engine's best move, and the "
    "points the move lost; exact where the engine's solver reaches; and the moves that gave a "
    "proven result away (result-changing), as far back as proofs reach.\n\n"
    "  divercite-analyze --records=match.jsonl [--game=N]\n"
    "  divercite-analyze --moves=\"RC14 GR04 ...\" [--fen=\"<rows> <side>\"]\n"
    "  divercite-analyze --course-recording=__REC__123.json\n"
    "  [--solve-plies=14] [--depth=8 | --movetime=MS] [--prove-plies=24] [--prove-movetime=MS]\n"
    "  [--multipv=N] [--json] [--plot=game.png] [--html=game.html | --html=FOLDER]\n"
    "  [--engine=PATH] [--hash=256] [--option=Threads=2]\n\n"
    "Flag names take '-' or '_' alike.";

// Abseil's flag names are identifiers: let --solve-plies mean --solve_plies.
std::vector<std::string> NormalizeFlagNames(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size(); ++i) {
    std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.rfind("--", 0) != 0) continue;
    const size_t name_end = std::min(arg.find('='), arg.size());
    for (size_t c = 2; c < name_end; ++c) {
      if (arg[c] == '-') arg[c] = '_';
    }
  }
  return args;
}

std::string DefaultEngine(const char* argv0) {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) self = std::filesystem::absolute(argv0);
  return (self.parent_path() / "divercite").string();
}

std::string PlotPath(const std::string& path, const divercite::GameAnalysis& analysis,
                     size_t games) {
  if (games == 1) return path;
  const std::filesystem::path base(path);
  const std::string number =
      analysis.game.game ? absl::StrCat(*analysis.game.game) : std::string("moves");
  return (base.parent_path() /
          absl::StrCat(base.stem().string(), "-", number, base.extension().string()))
      .string();
}

int Fail(absl::string_view message) { return divercite::UsageError(kTool, message); }

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> normalized = NormalizeFlagNames(argc, argv);
  std::vector<char*> pointers;
  for (std::string& arg : normalized) pointers.push_back(arg.data());
  const std::vector<char*> positional = divercite::ParseToolCommandLine(
      static_cast<int>(pointers.size()), pointers.data(), "analyze_main.cc", kUsage);
  if (positional.size() > 1) return Fail(absl::StrCat("unexpected argument '", positional[1], "'"));

  const std::string records = absl::GetFlag(FLAGS_records);
  const std::string moves = absl::GetFlag(FLAGS_moves);
  const std::string recording = absl::GetFlag(FLAGS_course_recording);
  if (records.empty() + moves.empty() + recording.empty() != 2) {
    return Fail("give exactly one of --records, --moves, --course-recording");
  }
  divercite::AnalysisSettings settings;
  settings.solve_plies = absl::GetFlag(FLAGS_solve_plies);
  settings.depth = absl::GetFlag(FLAGS_depth);
  settings.movetime_ms = absl::GetFlag(FLAGS_movetime);
  if (settings.solve_plies < 0 || settings.solve_plies > divercite::kTotalPlies) {
    return Fail("--solve-plies must be from 0 to 40");
  }
  if (settings.depth < 1 || settings.depth > divercite::kTotalPlies) {
    return Fail("--depth must be from 1 to 40");
  }
  if (settings.movetime_ms < 0) return Fail("--movetime must not be negative");
  settings.prove_plies = absl::GetFlag(FLAGS_prove_plies);
  settings.prove_movetime_ms = absl::GetFlag(FLAGS_prove_movetime);
  if (settings.prove_plies < 0 || settings.prove_plies > divercite::kTotalPlies) {
    return Fail("--prove-plies must be from 0 to 40");
  }
  if (settings.prove_movetime_ms < 0) {
    return Fail("--prove-movetime must not be negative (0 turns the proofs off)");
  }

  settings.multipv = absl::GetFlag(FLAGS_multipv);
  if (settings.multipv < 1) return Fail("--multipv must be at least 1");
  if (const std::string app = absl::GetFlag(FLAGS_app); !app.empty()) {
    if (absl::GetFlag(FLAGS_html).empty()) return Fail("--app is for the pages of --html");
    // A link a reader follows: the web's own schemes, or an address relative to the page.
    const size_t colon = app.find(':');
    const bool relative = colon == std::string::npos || app.find('/') < colon;
    if (!relative && !absl::StartsWith(app, "http://") && !absl::StartsWith(app, "https://")) {
      return Fail(absl::StrCat("--app '", app, "' is neither http(s):// nor a relative address"));
    }
  }

  absl::StatusOr<std::vector<divercite::GameToAnalyze>> games;
  if (!records.empty()) {
    const int game = absl::GetFlag(FLAGS_game);
    games = divercite::GamesFromRecordsFile(records,
                                            game >= 0 ? std::optional<int>(game) : std::nullopt);
  } else if (!moves.empty()) {
    absl::StatusOr<divercite::GameToAnalyze> game =
        divercite::GameFromMoveList(moves, absl::GetFlag(FLAGS_fen));
    if (game.ok())
      games = std::vector<divercite::GameToAnalyze>{*game};
    else
      games = game.status();
  } else {
    absl::StatusOr<divercite::GameToAnalyze> game =
        divercite::GameFromCourseRecordingFile(recording);
    if (game.ok())
      games = std::vector<divercite::GameToAnalyze>{*game};
    else
      games = game.status();
  }
  if (!games.ok()) {
    std::fprintf(stderr, "%s: %s\n", kTool.data(), std::string(games.status().message()).c_str());
    return 1;
  }

  divercite::EngineConfig config;
  config.command = absl::GetFlag(FLAGS_engine);
  if (config.command.empty()) config.command = DefaultEngine(argv[0]);
  config.name = std::filesystem::path(config.command).filename().string();
  config.options.emplace_back("Hash", absl::StrCat(absl::GetFlag(FLAGS_hash)));
  for (const std::string& option : absl::GetFlag(FLAGS_option)) {
    const std::vector<std::string> parts = absl::StrSplit(option, absl::MaxSplits('=', 1));
    if (parts.size() != 2 || parts[0].empty()) {
      return Fail(absl::StrCat("--option takes Name=Value, not '", option, "'"));
    }
    config.options.emplace_back(parts[0], parts[1]);
  }
  if (settings.multipv > 1) config.options.emplace_back("MultiPV", absl::StrCat(settings.multipv));
  divercite::EngineClient engine(config);
  if (absl::Status started = divercite::StartAnalysisEngine(engine); !started.ok()) {
    std::fprintf(stderr, "%s: %s\n", kTool.data(), std::string(started.message()).c_str());
    return 1;
  }

  std::string python = absl::GetFlag(FLAGS_python);
  if (python.empty())
    python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  const std::string plot = absl::GetFlag(FLAGS_plot);
  std::optional<divercite::ReviewPageWriter> pages;
  if (const std::string html = absl::GetFlag(FLAGS_html); !html.empty()) {
    pages.emplace(html, !records.empty() && absl::GetFlag(FLAGS_game) < 0,
                  absl::GetFlag(FLAGS_app));
    if (absl::Status prepared = pages->Prepare(); !prepared.ok()) {
      std::fprintf(stderr, "%s: %s\n", kTool.data(), std::string(prepared.message()).c_str());
      return 1;
    }
  }
  int status = 0;
  for (const divercite::GameToAnalyze& game : *games) {
    absl::StatusOr<divercite::GameAnalysis> analysis =
        divercite::AnalyzeGame(game, settings, engine);
    if (pages) {
      if (absl::Status written = pages->Add(game, analysis); !written.ok()) {
        std::fprintf(stderr, "%s: %s\n", kTool.data(), std::string(written.message()).c_str());
        status = 1;
      }
    }
    if (!analysis.ok()) {
      std::fprintf(stderr, "%s: %s%s\n", kTool.data(),
                   game.game ? absl::StrCat("game ", *game.game, ": ").c_str() : "",
                   std::string(analysis.status().message()).c_str());
      status = 1;
      engine.Kill();  // a fresh engine for the next game
      continue;
    }
    if (absl::GetFlag(FLAGS_json)) {
      std::cout << divercite::DumpJson(divercite::AnalysisJson(*analysis)) << std::endl;
    } else {
      std::cout << divercite::AnalysisText(*analysis) << std::endl;
    }
    if (!plot.empty()) {
      const std::string path = PlotPath(plot, *analysis, games->size());
      if (absl::Status plotted = divercite::PlotAnalysis(*analysis, path, python); !plotted.ok()) {
        std::fprintf(stderr, "%s: %s\n", kTool.data(), std::string(plotted.message()).c_str());
        status = 1;
      }
    }
  }
  engine.Quit();
  if (pages) std::fprintf(stderr, "%s: %s\n", kTool.data(), pages->Summary().c_str());
  return status;
}
