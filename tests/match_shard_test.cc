// The match runner beyond one process: the shards of a schedule (-shard K/N) and the merge of
// their records (-merge). Games are played by depth-limited `divercite` engines
// (deterministic: the same game whichever process plays it).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/match_test_util.h"
#include "tools/match/cli.h"
#include "tools/match/match_settings.h"
#include "tools/match/merge.h"
#include "tools/match/scheduler.h"
#include "tools/records/game_record.h"
#include "tools/records/record_store.h"

namespace divercite {
namespace {

using testing::Args;
using testing::FreshTempPath;
using testing::MatchRun;
using testing::RunMatch;
using testing::SettingsOf;
using testing::With;

// A file in the test's temporary directory (::testing::TempDir() ends in '/').
std::string TempFile(absl::string_view name) {
  return absl::StrCat(::testing::TempDir(), "match_shard_", name);
}

MatchRun Merge(const std::vector<std::string>& args) {
  MatchRun run;
  std::ostringstream out, notes;
  run.status = MergeRecords(SettingsOf(args), out, notes);
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
MatchRun PlayShardsAndMerge(const std::vector<std::string>& args, const std::string& name,
                            int shards, const std::string& merged_path) {
  const std::vector<std::string> files = ShardFiles(name, shards);
  for (const std::string& file : files) std::filesystem::remove(file);
  for (int k = 1; k <= shards; ++k) {
    const MatchRun shard =
        RunMatch(With(args, absl::StrCat("-shard ", k, "/", shards, " -records ", files[k - 1])));
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
  const std::string single_path = FreshTempPath("match_shard_" + name + "-single.jsonl");
  const MatchRun single = RunMatch(With(Args(args), "-concurrency 1 -records " + single_path));
  ASSERT_TRUE(single.status.ok()) << single.status;
  const std::string merged_path = FreshTempPath("match_shard_" + name + "-merged.jsonl");
  const MatchRun merged = PlayShardsAndMerge(Args(args), name, shards, merged_path);
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
      const MatchSettings settings = SettingsOf(Args(engines + shape));
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
      Schedule(SettingsOf(Args(two + "-games 2 -rounds 4 -repeat")), 8);
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
  const std::string path = FreshTempPath("match_shard_resume.jsonl");
  const std::vector<std::string> args = With(Args(kMatch), "-shard 2/3 -records " + path);
  const MatchRun first = RunMatch(args);
  ASSERT_TRUE(first.status.ok()) << first.status;
  ASSERT_EQ(first.records.size(), 4u);  // pairs 2 and 5 of 7
  // Keep one game and half of the next line, as a killed shard would leave them.
  std::ifstream in(path);
  std::string one, two;
  std::getline(in, one);
  std::getline(in, two);
  in.close();
  std::ofstream(path, std::ios::trunc) << one << '\n' << two.substr(0, two.size() / 2);
  const MatchRun resumed = RunMatch(args);
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
  const MatchRun wrong = RunMatch(With(Args(kMatch), "-shard 1/3 -records " + path));
  EXPECT_EQ(wrong.status.message(),
            path +
                " holds game 3, which is not in shard 1/3: give each shard its own records "
                "file");
}

TEST(MergeTest, DuplicatesAndCutShortLinesAreTolerated) {
  const std::string merged_path = FreshTempPath("match_shard_dup-merged.jsonl");
  const MatchRun merged = PlayShardsAndMerge(Args(kMatch), "dup", 2, merged_path);
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
  const MatchRun again =
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
  const MatchRun part = Merge(With(Args(kMatch), "-merge " + files[0]));
  ASSERT_TRUE(part.status.ok()) << part.status;
  EXPECT_TRUE(absl::StrContains(part.notes, "Missing games: 3-4, 7-8, 11-12")) << part.notes;
  EXPECT_TRUE(absl::StrContains(part.output, "--- d3 vs d1 after 8 games")) << part.output;
}

TEST(MergeTest, ARecordOfAnotherMatchIsRefusedWithTheReason) {
  const std::string merged_path = FreshTempPath("match_shard_foreign-merged.jsonl");
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
  const MatchRun single = RunMatch(With(Args(sprt), "-concurrency 1"));
  ASSERT_TRUE(single.status.ok()) << single.status;
  ASSERT_LT(single.records.size(), 40u) << "the SPRT decided before the end";
  ASSERT_TRUE(absl::StrContains(single.output, "H1 accepted")) << single.output;
  const MatchRun merged =
      PlayShardsAndMerge(Args(sprt), "sprt", 3, FreshTempPath("match_shard_sprt-merged.jsonl"));
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

}  // namespace
}  // namespace divercite
