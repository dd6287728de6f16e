// The match runner beyond one process: the shards of a schedule (-shard K/N) and the merge of
// their records (-merge), gauntlets, the protocol log (-log), where the openings start and
// in which order, exact adjudication, and the startup timeout. Games are played by
// depth-limited `divercite` engines (deterministic: the same game whichever process plays
// it) and by the fake engine.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/common/json.h"
#include "tools/match/adjudication.h"
#include "tools/match/cli.h"
#include "tools/match/match_runner.h"
#include "tools/match/match_settings.h"
#include "tools/match/merge.h"
#include "tools/match/openings.h"
#include "tools/match/scheduler.h"
#include "tools/records/record_store.h"

namespace divercite {
namespace {

// A command line written as one string: ENGINE stands for `divercite`, FAKE for the fake.
std::vector<std::string> Args(absl::string_view line) {
  std::vector<std::string> args = absl::StrSplit(line, ' ', absl::SkipEmpty());
  for (std::string& arg : args) {
    arg = absl::StrReplaceAll(
        arg, {{"ENGINE", DIVERCITE_ENGINE_BINARY}, {"FAKE", DIVERCITE_FAKE_ENGINE}});
  }
  return args;
}

std::vector<std::string> With(std::vector<std::string> args, absl::string_view more) {
  for (std::string& arg : Args(more)) args.push_back(std::move(arg));
  return args;
}

// A file in the test's temporary directory (testing::TempDir() ends in '/').
std::string TempFile(absl::string_view name) {
  return absl::StrCat(::testing::TempDir(), "match_shard_", name);
}

// The same, removed if there.
std::string TempPath(absl::string_view name) {
  const std::string path = TempFile(name);
  std::filesystem::remove(path);
  return path;
}

MatchSettings Settings(const std::vector<std::string>& args) {
  absl::StatusOr<MatchSettings> settings = ParseMatchSettings(args);
  EXPECT_TRUE(settings.ok()) << settings.status();
  return settings.ok() ? *settings : MatchSettings{};
}

struct Outcome {
  absl::Status status;
  std::string output;  // stdout (for a merge: the report)
  std::string notes;   // a merge's notes (stderr)
  std::vector<GameRecord> records;
};

Outcome Play(const std::vector<std::string>& args) {
  Outcome run;
  std::ostringstream out;
  MatchRunner runner(Settings(args), out);
  run.status = runner.Run();
  run.output = out.str();
  run.records = runner.Records();
  return run;
}

Outcome Merge(const std::vector<std::string>& args) {
  Outcome run;
  std::ostringstream out, notes;
  run.status = MergeRecords(Settings(args), out, notes);
  run.output = out.str();
  run.notes = notes.str();
  return run;
}

// The lines of a records file, each record's move timings zeroed (the only thing two runs of
// depth-limited engines may differ in).
std::vector<std::string> RecordLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(std::regex_replace(line, std::regex(R"("ms":[0-9]+)"), R"("ms":0)"));
  }
  return lines;
}

// A report without its timings: the round-robin table's ms/move column.
std::string WithoutTimings(const std::string& report) {
  std::vector<std::string> lines = absl::StrSplit(report, '\n');
  bool in_table = false;
  for (std::string& line : lines) {
    if (absl::StartsWith(line, "--- Round robin")) {
      in_table = true;
      continue;
    }
    if (line.empty() || absl::StartsWith(line, "Finished") || absl::StartsWith(line, "---")) {
      in_table = false;
    }
    if (in_table) line = line.substr(0, line.find_last_not_of("0123456789. ") + 1);
  }
  return absl::StrJoin(lines, "\n");
}

std::vector<std::string> ShardFiles(const std::string& name, int shards) {
  std::vector<std::string> files;
  for (int k = 1; k <= shards; ++k) files.push_back(TempFile(absl::StrCat(name, k, ".jsonl")));
  return files;
}

// Plays `args` in `shards` shards (each with its own records file), then merges them.
Outcome PlayShardsAndMerge(const std::vector<std::string>& args, const std::string& name,
                           int shards, const std::string& merged_path) {
  const std::vector<std::string> files = ShardFiles(name, shards);
  for (const std::string& file : files) std::filesystem::remove(file);
  for (int k = 1; k <= shards; ++k) {
    const Outcome shard =
        Play(With(args, absl::StrCat("-shard ", k, "/", shards, " -records ", files[k - 1])));
    EXPECT_TRUE(shard.status.ok()) << shard.status;
    EXPECT_TRUE(absl::StartsWith(shard.output, absl::StrCat("Shard ", k, " of ", shards, ": ")))
        << shard.output;
  }
  return Merge(
      With(args, absl::StrCat("-merge ", absl::StrJoin(files, " "), " -records ", merged_path)));
}

// The single run of `args` (one worker, so its games finish in schedule order) against its
// shards merged: the same report and the same records, but for timings.
void ExpectShardsMergeToTheSingleRun(const std::string& name, const std::string& args, int shards) {
  const std::string single_path = TempPath(name + "-single.jsonl");
  const Outcome single = Play(With(Args(args), "-concurrency 1 -records " + single_path));
  ASSERT_TRUE(single.status.ok()) << single.status;
  const std::string merged_path = TempPath(name + "-merged.jsonl");
  const Outcome merged = PlayShardsAndMerge(Args(args), name, shards, merged_path);
  ASSERT_TRUE(merged.status.ok()) << merged.status;
  EXPECT_EQ(WithoutTimings(merged.output), WithoutTimings(single.output)) << name;
  EXPECT_EQ(RecordLines(merged_path), RecordLines(single_path)) << name;
  EXPECT_TRUE(absl::StrContains(merged.notes, "Merged ")) << merged.notes;
  EXPECT_FALSE(absl::StrContains(merged.notes, "Missing")) << merged.notes;
}

const char kMatch[] =
    "-engine cmd=ENGINE name=d3 depth=3 -engine cmd=ENGINE name=d1 depth=1 -games 2 -rounds 7 "
    "-repeat -openings random plies=4 -seed 3";

TEST(ShardTest, EveryGameIsInOneShardPairsStayWholeAndShardsBalanceWithinAPair) {
  const std::string two = "-engine cmd=x name=a -engine cmd=x name=b -each tc=1 ";
  const std::string four = two + "-engine cmd=x name=c -engine cmd=x name=d ";
  int checked = 0;
  for (const std::string& engines :
       {two, four + "-tournament roundrobin ", four + "-tournament gauntlet "}) {
    for (const char* shape : {"-games 2 -rounds 5 -repeat", "-games 3 -rounds 3 -repeat",
                              "-games 1 -rounds 7 -repeat", "-games 3 -rounds 4", "-games 1"}) {
      const MatchSettings settings = Settings(Args(engines + shape));
      const std::vector<ScheduledGame> schedule = Schedule(settings, 1000);
      for (int n = 1; n <= 7; ++n) {
        std::vector<int> seen(schedule.size(), 0);
        std::vector<int> sizes;
        std::map<int, int> shard_of_pair;
        for (int k = 1; k <= n; ++k) {
          const std::vector<ScheduledGame> shard = ShardOf(schedule, {k, n});
          sizes.push_back(static_cast<int>(shard.size()));
          for (size_t i = 0; i < shard.size(); ++i) {
            const ScheduledGame& game = shard[i];
            ++seen[game.game];
            EXPECT_TRUE(game == schedule[game.game]) << "the whole schedule's game numbers";
            if (i > 0) {
              EXPECT_LT(shard[i - 1].game, game.game) << "in schedule order";
            }
            if (game.pair >= 0) {
              const auto [it, inserted] = shard_of_pair.try_emplace(game.pair, k);
              EXPECT_EQ(it->second, k)
                  << engines << shape << ": pair " << game.pair << " split across shards of " << n;
            }
          }
        }
        for (size_t g = 0; g < seen.size(); ++g) {
          EXPECT_EQ(seen[g], 1) << engines << shape << ": game " << g << " in " << n << " shards";
        }
        const int spread = *std::max_element(sizes.begin(), sizes.end()) -
                           *std::min_element(sizes.begin(), sizes.end());
        EXPECT_LE(spread, settings.repeat ? 2 : 1) << engines << shape << " in " << n;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 3 * 5 * 7);
  // Interleaved along the schedule: with equal units, shard k of n has units k, k + n, ...
  const std::vector<ScheduledGame> schedule =
      Schedule(Settings(Args(two + "-games 2 -rounds 4 -repeat")), 8);
  std::vector<int> games;
  for (const ScheduledGame& game : ShardOf(schedule, {2, 3})) games.push_back(game.game);
  EXPECT_EQ(games, (std::vector<int>{2, 3}));
  games.clear();
  for (const ScheduledGame& game : ShardOf(schedule, {1, 3})) games.push_back(game.game);
  EXPECT_EQ(games, (std::vector<int>{0, 1, 6, 7}));
}

TEST(ShardTest, ShardsMergedReportAndRecordAsOneRun) {
  ExpectShardsMergeToTheSingleRun("match", absl::StrCat(kMatch, " -ratinginterval 5"), 3);
  ExpectShardsMergeToTheSingleRun(
      "roundrobin",
      "-engine cmd=ENGINE name=d2 depth=2 -engine cmd=ENGINE name=d1 depth=1 -engine "
      "cmd=ENGINE name=d3 depth=3 -tournament roundrobin -games 2 -rounds 2 -repeat "
      "-openings random plies=4 -ratinginterval 4",
      4);
  ExpectShardsMergeToTheSingleRun(
      "gauntlet",
      "-engine cmd=ENGINE name=d3 depth=3 -engine cmd=ENGINE name=d1 depth=1 -engine "
      "cmd=ENGINE name=d2 depth=2 -engine cmd=ENGINE name=greedy option.Agent=greedy tc=inf "
      "-tournament gauntlet -games 2 -rounds 2 -repeat -openings random plies=3",
      2);
}

TEST(ShardTest, AShardStartedAgainResumesFromItsRecords) {
  const std::string path = TempPath("resume.jsonl");
  const std::vector<std::string> args = With(Args(kMatch), "-shard 2/3 -records " + path);
  const Outcome first = Play(args);
  ASSERT_TRUE(first.status.ok()) << first.status;
  ASSERT_EQ(first.records.size(), 4u);  // pairs 2 and 5 of 7
  // Keep one game and half of the next line, as a killed shard would leave them.
  std::ifstream in(path);
  std::string one, two;
  std::getline(in, one);
  std::getline(in, two);
  in.close();
  std::ofstream(path, std::ios::trunc) << one << '\n' << two.substr(0, two.size() / 2);
  const Outcome resumed = Play(args);
  ASSERT_TRUE(resumed.status.ok()) << resumed.status;
  EXPECT_TRUE(absl::StrContains(resumed.output, "Resuming: 1 of 4 games")) << resumed.output;
  int played = 0;
  for (size_t at = 0; (at = resumed.output.find("Finished game", at)) != std::string::npos; ++at) {
    ++played;
  }
  EXPECT_EQ(played, 3) << "only the missing games";
  std::vector<int> games;
  const absl::StatusOr<std::vector<GameRecord>> records = ReadRecords(path);
  ASSERT_TRUE(records.ok()) << records.status();
  for (const GameRecord& record : *records) games.push_back(record.game);
  EXPECT_EQ(games, (std::vector<int>{2, 3, 8, 9})) << "each of its games once";

  // Another shard's file is refused: each shard keeps its own.
  const Outcome wrong = Play(With(Args(kMatch), "-shard 1/3 -records " + path));
  EXPECT_EQ(wrong.status.message(),
            path +
                " holds game 3, which is not in shard 1/3: give each shard its own records "
                "file");
}

TEST(MergeTest, DuplicatesAndCutShortLinesAreTolerated) {
  const std::string merged_path = TempPath("dup-merged.jsonl");
  const Outcome merged = PlayShardsAndMerge(Args(kMatch), "dup", 2, merged_path);
  ASSERT_TRUE(merged.status.ok()) << merged.status;
  const std::vector<std::string> files = ShardFiles("dup", 2);
  // Shard 2's file with its first line again, and the start of a line being written.
  {
    std::ifstream in(files[1]);
    std::string first;
    std::getline(in, first);
    in.close();
    std::ofstream(files[1], std::ios::app) << first << '\n' << first.substr(0, 40);
  }
  const Outcome again =
      Merge(With(Args(kMatch), absl::StrCat("-merge ", files[0], " ", files[1], " ", files[0])));
  ASSERT_TRUE(again.status.ok()) << again.status;
  EXPECT_EQ(again.output, merged.output);
  EXPECT_TRUE(absl::StrContains(again.notes, "Leaving out the unfinished last line of " + files[1]))
      << again.notes;
  // Shard 1's file twice, and the line repeated in shard 2's.
  const size_t duplicates = RecordLines(files[0]).size() + 1;
  EXPECT_TRUE(
      absl::StrContains(again.notes, absl::StrCat("Merged 14 of 14 games from 3 records files; ",
                                                  duplicates, " duplicate records left out\n")))
      << again.notes;
  // A merge while shards are still under way reports what is there.
  const Outcome part = Merge(With(Args(kMatch), "-merge " + files[0]));
  ASSERT_TRUE(part.status.ok()) << part.status;
  EXPECT_TRUE(absl::StrContains(part.notes, "Missing games: 3-4, 7-8, 11-12")) << part.notes;
  EXPECT_TRUE(absl::StrContains(part.output, "--- d3 vs d1 after 8 games")) << part.output;
}

TEST(MergeTest, ARecordOfAnotherMatchIsRefusedWithTheReason) {
  const std::string merged_path = TempPath("foreign-merged.jsonl");
  ASSERT_TRUE(PlayShardsAndMerge(Args(kMatch), "foreign", 2, merged_path).status.ok());
  const std::vector<std::string> files = ShardFiles("foreign", 2);
  const std::string merge = absl::StrCat(" -merge ", files[0], " ", files[1]);
  auto refusal = [&](const std::string& args) {
    absl::StatusOr<MatchSettings> settings = ParseMatchSettings(Args(args + merge));
    if (!settings.ok()) return std::string(settings.status().message());
    std::ostringstream out, notes;
    const absl::Status status = MergeRecords(*settings, out, notes);
    return status.ok() ? std::string("accepted") : std::string(status.message());
  };
  const std::string other_seed = absl::StrReplaceAll(kMatch, {{"-seed 3", "-seed 4"}});
  EXPECT_TRUE(absl::StartsWith(refusal(other_seed), files[0] + ":1: game 1: the opening is '"))
      << refusal(other_seed);
  EXPECT_TRUE(absl::StrContains(refusal(other_seed), "not a record of this match"));
  EXPECT_EQ(refusal(absl::StrReplaceAll(kMatch, {{"name=d1", "name=other"}})),
            files[0] +
                ":1: game 1: the second player is 'd1' in the records, but 'other' in "
                "this match: not a record of this match (other engines, schedule, -seed "
                "or -openings?)");
  EXPECT_TRUE(absl::StrContains(refusal(absl::StrReplaceAll(kMatch, {{"depth=1", "depth=2"}})),
                                "the second player's time control is 'depth=1' in the records, "
                                "but 'depth=2' in this match"));
  EXPECT_TRUE(absl::StrContains(refusal(absl::StrReplaceAll(kMatch, {{"-rounds 7", "-rounds 2"}})),
                                "game 5 is not in this match, which schedules 4 games"));
  EXPECT_EQ(refusal(absl::StrCat(kMatch, " -shard 1/2")),
            "-shard plays a part of a match, -merge reports on played ones: not both");
  // Nothing was written for a refused merge.
  EXPECT_EQ(RecordLines(merged_path).size(), 14u);
}

TEST(MergeTest, TheMergedShardsStateTheSprtDecision) {
  const std::string sprt = absl::StrCat(
      "-engine cmd=ENGINE name=d3 depth=3 -engine cmd=ENGINE name=d1 depth=1 -games 2 -rounds "
      "20 -repeat -openings random plies=4 -sprt elo0=0 elo1=200 alpha=0.2 beta=0.2");
  // One run stops on the decision; the shards play their parts whole (stopping them is the
  // scheduler's job), and their merge reports the decision over every game.
  const Outcome single = Play(With(Args(sprt), "-concurrency 1"));
  ASSERT_TRUE(single.status.ok()) << single.status;
  ASSERT_LT(single.records.size(), 40u) << "the SPRT decided before the end";
  ASSERT_TRUE(absl::StrContains(single.output, "H1 accepted")) << single.output;
  const Outcome merged = PlayShardsAndMerge(Args(sprt), "sprt", 3, TempPath("sprt-merged.jsonl"));
  ASSERT_TRUE(merged.status.ok()) << merged.status;
  const std::vector<std::string> lines = absl::StrSplit(merged.output, '\n');
  std::string last_llr;
  for (const std::string& line : lines) {
    if (absl::StartsWith(line, "LLR:")) last_llr = line;
  }
  EXPECT_TRUE(absl::EndsWith(last_llr, "H1 accepted")) << merged.output;
  EXPECT_TRUE(absl::StrContains(merged.output, "--- d3 vs d1 after 40 games"));
  // Up to the deciding game, the merged report is the single run's, line for line (the single
  // run then repeats its final statistics).
  const std::string decided = single.output.substr(0, single.output.rfind("--- d3 vs d1"));
  EXPECT_TRUE(absl::StartsWith(merged.output, decided));
}

TEST(GauntletTest, TheFirstEngineMeetsEachOtherWithATablePerOpponentAndItsTotal) {
  const std::string args =
      "-engine cmd=ENGINE name=d3 depth=3 -engine cmd=ENGINE name=d1 depth=1 -engine "
      "cmd=ENGINE name=d2 depth=2 -engine cmd=ENGINE name=greedy option.Agent=greedy tc=inf "
      "-tournament gauntlet -games 2 -rounds 2 -repeat -openings random plies=3 -concurrency 2";
  const MatchSettings settings = Settings(Args(args));
  EXPECT_EQ(TotalGames(settings), 12);
  for (const ScheduledGame& game : Schedule(settings, 12)) {
    EXPECT_TRUE(game.first == 0 || game.second == 0) << "game " << game.game;
  }
  const Outcome run = Play(Args(args));
  ASSERT_TRUE(run.status.ok()) << run.status;
  ASSERT_EQ(run.records.size(), 12u);
  const std::string& out = run.output;
  EXPECT_TRUE(absl::StrContains(out, "--- Gauntlet of d3 after 12 of 12 games\n")) << out;
  for (const char* opponent : {"d1", "d2", "greedy"}) {
    EXPECT_TRUE(absl::StrContains(out, absl::StrCat("--- d3 vs ", opponent, " after 4 games\n")))
        << out;
    EXPECT_TRUE(absl::StrContains(out, absl::StrCat("Score of d3 vs ", opponent, ": "))) << out;
  }
  EXPECT_TRUE(absl::StrContains(out, "--- d3 vs all after 12 games\n")) << out;
  EXPECT_LT(out.find("--- d3 vs greedy"), out.find("--- d3 vs all"));
  // The total is the sum of the tables.
  int wins = 0, total_wins = -1;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(out, '\n'))) {
    int w = 0;
    if (std::sscanf(line.c_str(), "Games: 4, Wins: %d", &w) == 1) wins += w;
    if (std::sscanf(line.c_str(), "Games: 12, Wins: %d", &w) == 1) total_wins = w;
  }
  EXPECT_EQ(wins, total_wins) << out;
}

TEST(LogTest, EveryProtocolLineWithItsTimeGameAndEngine) {
  const std::string log = TempPath("protocol.log");
  const Outcome run =
      Play(Args("-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 "
                "-games 2 -openings random plies=2 -log file=" +
                log));
  ASSERT_TRUE(run.status.ok()) << run.status;
  std::ifstream in(log);
  std::string line;
  const std::regex shape(
      R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z game ([0-2]) (one|two) ([<>*]) (.*))");
  std::map<std::string, int> counts;  // "game engine direction first-word"
  int lines = 0;
  while (std::getline(in, line)) {
    std::smatch match;
    ASSERT_TRUE(std::regex_match(line, match, shape)) << line;
    const std::string text = match[4];
    ++counts[absl::StrCat(match[1].str(), " ", match[2].str(), " ", match[3].str(), " ",
                          text.substr(0, text.find(' ')))];
    ++lines;
  }
  EXPECT_GT(lines, 100);
  for (const char* game : {"1", "2"}) {
    for (const char* engine : {"one", "two"}) {
      // 38 moves a game, 19 each: a go sent and a bestmove received for every one.
      EXPECT_EQ((counts[absl::StrCat(game, " ", engine, " > go")]), 19) << game << engine;
      EXPECT_EQ((counts[absl::StrCat(game, " ", engine, " < bestmove")]), 19) << game << engine;
      EXPECT_EQ((counts[absl::StrCat(game, " ", engine, " > ucinewgame")]), 1);
    }
  }
  EXPECT_EQ((counts["1 one > uci"]), 1) << "started in the first game";
  EXPECT_EQ((counts["1 one < uciok"]), 1);
  EXPECT_EQ((counts["1 one * started"]), 1);
  EXPECT_EQ((counts["0 one > quit"]), 1) << "quit between games";
}

TEST(OpeningsTest, StartAndOrderPickWhereAndHowTheFileIsRead) {
  const std::string file = TempPath("openings.txt");
  std::ofstream(file) << "# five openings\nRC14\nGR04\nBC23\nYR75\nRR35\n";
  auto texts = [&](const std::string& flags) {
    const absl::StatusOr<std::vector<Opening>> openings =
        LoadOpenings(Settings(Args("-engine cmd=x -engine cmd=y -each tc=1 " + flags)), 3);
    std::vector<std::string> result;
    if (!openings.ok()) return std::vector<std::string>{std::string(openings.status().message())};
    for (const Opening& opening : *openings) result.push_back(opening.text);
    return result;
  };
  using Texts = std::vector<std::string>;
  EXPECT_EQ(texts("-openings file=" + file), (Texts{"RC14", "GR04", "BC23", "YR75", "RR35"}));
  EXPECT_EQ(texts("-openings file=" + file + " order=sequential start=4"),
            (Texts{"YR75", "RR35", "RC14", "GR04", "BC23"}));
  const Texts shuffled = texts("-openings file=" + file + " order=random -seed 9");
  EXPECT_EQ(texts("-openings file=" + file + " order=random -seed 9"), shuffled)
      << "the seed's order, every time (so every shard's)";
  Texts sorted = shuffled;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (Texts{"BC23", "GR04", "RC14", "RR35", "YR75"}));
  bool some_order_differs = false;
  for (int seed = 1; seed < 5; ++seed) {
    some_order_differs |= texts(absl::StrCat("-openings file=", file, " order=random -seed ",
                                             seed)) != texts("-openings file=" + file);
  }
  EXPECT_TRUE(some_order_differs);
  const Texts shuffled_from_2 = texts("-openings file=" + file + " order=random start=2 -seed 9");
  EXPECT_EQ(shuffled_from_2[0], shuffled[1]);
  EXPECT_EQ(texts("-openings file=" + file + " start=6"),
            (Texts{"-openings start=6: " + file + " has 5 openings"}));
  // Random openings: start=N skips the first N - 1 of the seed's sequence.
  const Texts random = texts("-openings random plies=3 -seed 2");
  const Texts random_from_2 = texts("-openings random plies=3 start=2 -seed 2");
  ASSERT_EQ(random_from_2.size(), 3u);
  EXPECT_EQ(random_from_2[0], random[1]);
  EXPECT_EQ(random_from_2[1], random[2]);
  // The games use them from there.
  const Outcome run =
      Play(Args("-engine cmd=FAKE name=one -engine cmd=FAKE name=two -each tc=5 "
                "-games 2 -openings file=" +
                file + " start=3"));
  ASSERT_EQ(run.records.size(), 2u);
  EXPECT_EQ(run.records[0].opening, "BC23");
  EXPECT_EQ(run.records[1].opening, "YR75");
}

TEST(AdjudicationTest, AgreementNeedsEveryOneOfTheLastPliesExactAndEqual) {
  using Values = std::vector<std::optional<int>>;
  EXPECT_EQ(AgreedExactValue(Values{std::nullopt, 200, 200}, 2), 200);
  EXPECT_EQ(AgreedExactValue(Values{200, std::nullopt, 200}, 2), std::nullopt);
  EXPECT_EQ(AgreedExactValue(Values{100, 200}, 2), std::nullopt);
  EXPECT_EQ(AgreedExactValue(Values{200}, 2), std::nullopt);
  EXPECT_EQ(AgreedExactValue(Values{-300, -300, -300}, 3), -300);
}

TEST(AdjudicationTest, AGameEndsOnceTheSolveConfirmsWhatBothEnginesReported) {
  // Ten plies left after the openings: engines searching ten plies deep report exact scores
  // from their first move on.
  const std::string args =
      "-engine cmd=ENGINE name=a depth=10 -engine cmd=ENGINE name=b depth=10 -games 2 -rounds 2 "
      "-repeat -openings random plies=30 -seed 4";
  const Outcome full = Play(Args(args));
  const Outcome adjudicated = Play(With(Args(args), "-adjudicate exact plies=3"));
  ASSERT_TRUE(full.status.ok() && adjudicated.status.ok());
  ASSERT_EQ(full.records.size(), 4u);
  ASSERT_EQ(adjudicated.records.size(), 4u);
  for (size_t g = 0; g < 4; ++g) {
    const GameRecord& played = full.records[g];
    const GameRecord& ended = adjudicated.records[g];
    EXPECT_EQ(played.termination, Termination::kNormal);
    EXPECT_EQ(ended.termination, Termination::kAdjudication) << ended.reason;
    EXPECT_EQ(TerminationText(ended.termination), "adjudication");
    EXPECT_EQ(ended.moves.size(), 3u) << "after the third exact move";
    EXPECT_EQ(ended.result, played.result) << "game " << g;
    EXPECT_EQ(ended.final_scores[0] - ended.final_scores[1],
              played.final_scores[0] - played.final_scores[1]);
    EXPECT_TRUE(absl::StrContains(ended.reason, "the runner's solve confirms it")) << ended.reason;
    EXPECT_TRUE(absl::StrContains(
        ended.reason, absl::StrFormat("exact margin %+d for %s",
                                      played.final_scores[0] - played.final_scores[1], played.p1)))
        << ended.reason;
    // The record reads back as written.
    const absl::StatusOr<GameRecord> read = GameRecord::FromJson(ended.ToJson());
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(read->termination, Termination::kAdjudication);
  }
  EXPECT_TRUE(absl::StrContains(adjudicated.output, "{adjudication: both engines reported"));
}

TEST(AdjudicationTest, PlayedOnWhenTheSolveDisagreesOrTheEnginesDoNotAgree) {
  // 12.34 points is no margin the board can end with: the solve never confirms it.
  for (const char* claims : {"arg=--exact_cp=1234 -engine cmd=FAKE name=two arg=--exact_cp=1234",
                             "arg=--exact_cp=200 -engine cmd=FAKE name=two arg=--exact_cp=300",
                             "arg=--exact_cp=200 -engine cmd=FAKE name=two"}) {
    const Outcome run = Play(Args(absl::StrCat("-engine cmd=FAKE name=one ", claims,
                                               " -each tc=5 -games 2 -openings random plies=26 "
                                               "-adjudicate exact plies=2")));
    ASSERT_TRUE(run.status.ok()) << run.status;
    ASSERT_EQ(run.records.size(), 2u);
    for (const GameRecord& record : run.records) {
      EXPECT_EQ(record.termination, Termination::kNormal) << claims << ": " << record.reason;
      EXPECT_EQ(record.moves.size(), 14u) << claims;
    }
  }
}

TEST(StartupTimeoutTest, TheStartHasItsOwnTimeoutAndTheStallTimeoutIsForIsready) {
  const std::string slow_start =
      "-engine cmd=FAKE name=good -engine cmd=FAKE name=slow arg=--uci_delay_ms=700 -each tc=5 "
      "-games 2 ";
  const Outcome lost = Play(Args(slow_start + "-startuptimeout 0.2"));
  ASSERT_TRUE(lost.status.ok()) << lost.status;
  ASSERT_EQ(lost.records.size(), 2u);
  for (const GameRecord& record : lost.records) {
    EXPECT_EQ(record.termination, Termination::kStall);
    EXPECT_EQ(record.reason, "slow: no 'uciok' within 200ms");
    EXPECT_EQ(record.result,
              record.p1 == "slow" ? GameOutcome::kSecondWins : GameOutcome::kFirstWins);
  }
  // A slow start within -startuptimeout is fine, however short -stalltimeout is.
  const Outcome played = Play(Args(slow_start + "-startuptimeout 5 -stalltimeout 0.3"));
  ASSERT_EQ(played.records.size(), 2u);
  for (const GameRecord& record : played.records) {
    EXPECT_EQ(record.termination, Termination::kNormal) << record.reason;
  }
  // Without it, the stall timeout covers the start, as it always has.
  const Outcome old = Play(Args(slow_start + "-stalltimeout 0.3"));
  ASSERT_EQ(old.records.size(), 2u);
  EXPECT_EQ(old.records[0].reason, "slow: no 'uciok' within 300ms");
  const MatchSettings defaults = Settings(Args("-engine cmd=x -engine cmd=y -each tc=1"));
  EXPECT_EQ(defaults.StartupTimeout(), absl::Seconds(10));
  EXPECT_EQ(defaults.stall_timeout, absl::Seconds(10));
}

TEST(StoppedEngineTest, AnEngineEndedFromOutsideLosesByACrashIfTheRunGoesOn) {
  // An engine ended by SIGTERM is most likely stopped with the whole run (a cancelled Slurm
  // job): the runner waits a moment for its own end before it records the crash, and records
  // it if it goes on.
  const absl::Time start = absl::Now();
  const Outcome run =
      Play(Args("-engine cmd=FAKE name=good -engine cmd=FAKE name=stopped "
                "arg=--mode=terminated arg=--after=2 -each tc=5 -games 1"));
  ASSERT_EQ(run.records.size(), 1u);
  EXPECT_EQ(run.records[0].termination, Termination::kCrash);
  EXPECT_EQ(run.records[0].result, GameOutcome::kFirstWins);
  EXPECT_GE(absl::Now() - start, absl::Seconds(2));
}

TEST(MatchCliTest, TheNewFlagsAndTheirErrors) {
  auto error = [](absl::string_view more) {
    absl::StatusOr<MatchSettings> settings = ParseMatchSettings(
        Args(absl::StrCat("-engine cmd=e name=a -engine cmd=e name=b -each depth=1 ", more)));
    return settings.ok() ? std::string("accepted") : std::string(settings.status().message());
  };
  EXPECT_EQ(error("-shard 2/4"), "accepted");
  EXPECT_EQ(error("-shard 5/4"), "-shard 5/4: expected K/N with 1 <= K <= N");
  EXPECT_EQ(error("-shard 0/4"), "-shard 0/4: expected K/N with 1 <= K <= N");
  EXPECT_EQ(error("-shard 2"), "-shard 2: expected K/N with 1 <= K <= N");
  EXPECT_EQ(error("-merge"), "-merge: expected one or more records files");
  EXPECT_EQ(error("-tournament gauntlet"), "accepted");
  EXPECT_EQ(error("-log file=x.log"), "accepted");
  EXPECT_EQ(error("-log x.log"), "-log: expected 'file=PATH'");
  EXPECT_EQ(error("-adjudicate exact plies=4"), "accepted");
  EXPECT_EQ(error("-adjudicate exact plies=1"),
            "-adjudicate exact plies=1: plies must be 2 to 40 (both engines must have said it)");
  EXPECT_EQ(error("-adjudicate score plies=4"), "-adjudicate: expected 'exact plies=N'");
  EXPECT_EQ(error("-startuptimeout x"), "-startuptimeout=x: expected a number of seconds");
  EXPECT_EQ(error("-openings random plies=2 start=0"),
            "-openings start=0: expected a positive integer");
  EXPECT_EQ(error("-openings random plies=2 order=random"),
            "-openings order=random: order= applies to an openings file");
  EXPECT_EQ(error("-openings file=f order=shuffled"),
            "-openings order=shuffled: expected order=sequential, order=random or start=N");
  EXPECT_EQ(error("-engine cmd=e name=c -tournament gauntlet -sprt"),
            "-sprt needs exactly two engines");
  EXPECT_EQ(error("-engine cmd=e name=c"),
            "more than two engines need -tournament roundrobin or -tournament gauntlet");
}

}  // namespace
}  // namespace divercite
