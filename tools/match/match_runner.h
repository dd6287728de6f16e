// Runs a match (two engines) or a round-robin tournament: schedules the games, plays them on
// -concurrency threads (each with its own engine processes), appends each finished game to
// the records file at once (flushed), resumes from that file, and reports progress and
// statistics. Stops early on an SPRT decision.
#ifndef DIVERCITE_TOOLS_MATCH_MATCH_RUNNER_H_
#define DIVERCITE_TOOLS_MATCH_MATCH_RUNNER_H_

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <vector>

#include "absl/status/status.h"
#include "tools/match/match_settings.h"
#include "tools/match/match_stats.h"
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
  struct Job {
    int game, round, pair, first, second, opening;
  };
  std::vector<Job> Schedule() const;
  absl::Status LoadRecords();
  void WorkerLoop(const std::vector<Job>& jobs, std::atomic<size_t>& next);
  void Finish(const GameRecord& record);  // under mutex_
  void PrintStatistics();                 // under mutex_
  void PrintMatchStatistics();
  void PrintTournamentTable();

  MatchSettings settings_;
  std::ostream& out_;
  std::vector<Opening> openings_;
  mutable std::mutex mutex_;
  std::optional<RecordStore> records_;  // with -records
  std::map<int, GameRecord> finished_;  // by game index
  int total_games_ = 0;
  int newly_finished_ = 0;
  std::atomic<bool> stop_{false};
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_MATCH_RUNNER_H_
