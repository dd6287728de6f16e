// Runs a match (two engines), a round robin or a gauntlet by tying its parts together: the
// openings (openings.h), the schedule (scheduler.h) or a shard of it (-shard K/N), the
// records file (each finished game appended at once and flushed; a run started again resumes
// from it), the worker pool that plays the games (worker_pool.h), the protocol log (-log), the
// live file (-live, live_log.h), the reporter (reporter.h), and the report page (-html,
// match_report.h: rewritten after each game and, over every game in the records, at the end).
// Before the first game, an engine's refused option stops the run. Stops early on an SPRT
// decision, but for a shard, whose part alone decides nothing.
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_RUNNER_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_RUNNER_H_

#include <mutex>
#include <optional>
#include <ostream>
#include <vector>

#include "absl/status/status.h"
#include "tools/client/protocol_log.h"
#include "tools/match/match_report.h"
#include "tools/match/match_settings.h"
#include "tools/match/openings.h"
#include "tools/match/reporter.h"
#include "tools/match/scheduler.h"
#include "tools/match/scoreboard.h"
#include "tools/records/game_record.h"
#include "tools/records/record_store.h"

namespace divercite {

class MatchRunner {
 public:
  MatchRunner(MatchSettings settings, std::ostream& out);

  absl::Status Run();

  // The finished games, in schedule order (for tests and reports).
  std::vector<GameRecord> Records() const;

 private:
  absl::Status LoadRecords();
  // The games of `schedule` not yet in the records; an error if the records hold another
  // match.
  absl::StatusOr<std::vector<ScheduledGame>> Pending(
      const std::vector<ScheduledGame>& schedule) const;
  // The games this run plays, with the openings loaded.
  std::vector<ScheduledGame> RunSchedule() const;
  // Starts once each engine that is given options, before any game: an option it does not
  // advertise, a value it does not take, or one it answers with an error stops the run, which
  // would otherwise lose or, worse, play every game without it. An engine that cannot start
  // at all is left to its games, which record why.
  absl::Status CheckEngineOptions(ProtocolLog* log) const;
  bool Finish(const GameRecord& record);  // whether to go on
  // -html: the report over the finished games (`record`'s page alone, or every game's).
  void WriteReport(const GameRecord* record);
  bool SprtDecided() const;

  MatchSettings settings_;
  int total_games_;
  std::vector<ScheduledGame> schedule_;  // what this run plays: all, or its shard
  Reporter reporter_;
  std::vector<Opening> openings_;
  mutable std::mutex mutex_;
  std::optional<RecordStore> records_;  // with -records
  FinishedGames finished_;
  int newly_finished_ = 0;
  std::optional<MatchReportWriter> report_;  // with -html
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_RUNNER_H_
