#include "tools/match/merge.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/match/match_report.h"
#include "tools/match/openings.h"
#include "tools/match/reporter.h"
#include "tools/match/scheduler.h"
#include "tools/match/scoreboard.h"
#include "tools/records/record_store.h"

namespace divercite {
namespace {

// Whether the file's last line lacks its '\n' (a write cut short, or still under way).
bool EndsInUnfinishedLine(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return false;
  in.seekg(-1, std::ios::end);
  char last = '\n';
  in.get(last);
  return last != '\n';
}

// "<what> is <got> in the records, but <want> in this match", or "" when equal.
template <typename T>
std::string Differs(absl::string_view what, const T& got, const T& want) {
  if (got == want) return "";
  return absl::StrCat(what, " is ", got, " in the records, but ", want, " in this match");
}

std::string Quoted(absl::string_view text) { return absl::StrCat("'", text, "'"); }

// Why `record` is not game `game` of this match, or "" when it is.
std::string Mismatch(const MatchSettings& settings, const ScheduledGame& game,
                     const Opening& opening, const GameRecord& record) {
  const EngineSpec& first = settings.engines[game.first];
  const EngineSpec& second = settings.engines[game.second];
  for (const std::string& why : {
           Differs("the first player", Quoted(record.p1), Quoted(first.config.name)),
           Differs("the second player", Quoted(record.p2), Quoted(second.config.name)),
           Differs("the engines' numbers",
                   absl::StrCat(record.first_engine, ",", record.second_engine),
                   absl::StrCat(game.first, ",", game.second)),
           Differs("the round", record.round + 1, game.round + 1),
           Differs("the pair", record.pair, game.pair),
           Differs("the start", Quoted(record.start), Quoted(opening.start_string)),
           Differs("the opening", Quoted(record.opening), Quoted(opening.RecordedMoves())),
           Differs("the first player's time control", Quoted(record.time_controls[0]),
                   Quoted(first.time_control.text)),
           Differs("the second player's time control", Quoted(record.time_controls[1]),
                   Quoted(second.time_control.text)),
       }) {
    if (!why.empty()) return why;
  }
  return "";
}

// The record without its timings, to tell a true duplicate from a game played twice.
std::string Course(GameRecord record) {
  for (MoveRecord& move : record.moves) move.ms = 0;
  return DumpJson(record.ToJson());
}

// "5-9, 12" (from 1) for games 4..8 and 11 (from 0), at most `limit` ranges.
std::string Ranges(const std::vector<int>& games, size_t limit = 20) {
  std::vector<std::string> ranges;
  for (size_t i = 0; i < games.size();) {
    size_t j = i;
    while (j + 1 < games.size() && games[j + 1] == games[j] + 1) ++j;
    if (ranges.size() == limit) {
      ranges.push_back("...");
      break;
    }
    ranges.push_back(j == i ? absl::StrCat(games[i] + 1)
                            : absl::StrCat(games[i] + 1, "-", games[j] + 1));
    i = j + 1;
  }
  return absl::StrJoin(ranges, ", ");
}

// Writes `text` to `path` whole: a temporary file beside it, renamed over it.
absl::Status ReplaceFile(const std::string& path, const std::string& text) {
  const std::string temporary = absl::StrCat(path, ".merging");
  {
    std::ofstream out(temporary, std::ios::trunc | std::ios::binary);
    out << text;
    out.flush();
    if (!out) return absl::DataLossError(absl::StrCat("cannot write ", temporary));
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    return absl::DataLossError(absl::StrCat("cannot write ", path, ": ", error.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MergeResult> ReadShardRecords(const MatchSettings& settings) {
  const int total = TotalGames(settings);
  absl::StatusOr<std::vector<Opening>> openings = LoadOpenings(settings, total);
  if (!openings.ok()) return openings.status();
  const std::vector<ScheduledGame> schedule =
      Schedule(settings, static_cast<int>(openings->size()));
  std::map<int, GameRecord> merged;
  std::map<int, std::string> courses;
  MergeResult result;
  for (const std::string& path : settings.merge_files) {
    absl::Status status = ForEachRecord(path, [&](const GameRecord& record) {
      if (record.game < 0 || record.game >= total) {
        return absl::FailedPreconditionError(
            absl::StrCat("game ", record.game + 1, " is not in this match, which schedules ", total,
                         " games: not a record of this match (other engines, -games, -rounds or "
                         "-tournament?)"));
      }
      const ScheduledGame& game = schedule[record.game];
      const std::string why = Mismatch(settings, game, (*openings)[game.opening], record);
      if (!why.empty()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "game ", record.game + 1, ": ", why,
            ": not a record of this match (other engines, schedule, -seed or -openings?)"));
      }
      const auto [it, inserted] = merged.try_emplace(record.game, record);
      if (inserted) {
        courses[record.game] = Course(record);
      } else {
        ++result.duplicates;
        if (Course(record) != courses[record.game]) ++result.differing_duplicates;
      }
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
  }
  for (auto& [game, record] : merged) result.records.push_back(std::move(record));
  for (int game = 0; game < total; ++game) {
    if (!merged.contains(game)) result.missing.push_back(game);
  }
  return result;
}

absl::Status MergeRecords(const MatchSettings& settings, std::ostream& out, std::ostream& notes) {
  absl::StatusOr<MergeResult> merge = ReadShardRecords(settings);
  if (!merge.ok()) return merge.status();
  const int total = TotalGames(settings);
  for (const std::string& path : settings.merge_files) {
    if (EndsInUnfinishedLine(path)) {
      notes << "Leaving out the unfinished last line of " << path << "\n";
    }
  }
  notes << "Merged " << merge->records.size() << " of " << total << " games from "
        << settings.merge_files.size() << " records files";
  if (merge->duplicates > 0) {
    notes << "; " << merge->duplicates << " duplicate records left out";
    if (merge->differing_duplicates > 0) {
      notes << " (" << merge->differing_duplicates
            << " of them another course of their game: the first read counts)";
    }
  }
  notes << "\n";
  if (!merge->missing.empty()) {
    notes << "Missing games: " << Ranges(merge->missing) << "\n";
  }
  notes.flush();

  Reporter reporter(settings, total, out);
  FinishedGames finished;
  int count = 0;
  std::string records_text, text;
  for (const GameRecord& record : merge->records) {
    finished[record.game] = record;
    reporter.AfterGame(record, finished, ++count);
    absl::StrAppend(&records_text, DumpJson(record.ToJson()), "\n");
    absl::StrAppend(&text, record.ToText(), "\n");
  }
  reporter.Statistics(finished);
  if (!settings.records_path.empty()) {
    if (absl::Status status = ReplaceFile(settings.records_path, records_text); !status.ok()) {
      return status;
    }
  }
  if (!settings.text_path.empty()) {
    if (absl::Status status = ReplaceFile(settings.text_path, text); !status.ok()) return status;
  }
  if (!settings.html_dir.empty()) {
    if (absl::Status status = MatchReportWriter(settings, total).WriteAll(finished); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

absl::Status WriteRecordsStandings(const std::vector<std::string>& files, std::ostream& out) {
  std::vector<std::string> names;
  std::map<std::string, int> numbers;
  auto number = [&](const std::string& name) {
    const auto [it, inserted] = numbers.try_emplace(name, static_cast<int>(names.size()));
    if (inserted) names.push_back(name);
    return it->second;
  };
  FinishedGames finished;
  for (const std::string& path : files) {
    absl::Status status = ForEachRecord(path, [&](const GameRecord& record) {
      GameRecord game = record;
      game.first_engine = number(record.p1);
      game.second_engine = number(record.p2);
      finished.emplace(static_cast<int>(finished.size()), std::move(game));
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
  }
  if (finished.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(absl::StrJoin(files, ", "), ": no games"));
  }
  WriteStandingsJson(finished, names, out);
  return absl::OkStatus();
}

}  // namespace divercite
