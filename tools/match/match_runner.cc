#include "tools/match/match_runner.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "tools/match/worker_pool.h"

namespace divercite {

MatchRunner::MatchRunner(MatchSettings settings, std::ostream& out)
    : settings_(std::move(settings)),
      total_games_(TotalGames(settings_)),
      reporter_(settings_, total_games_, out) {}

// Reads the games already in the records file. A line cut short by an interrupted run is
// dropped (the store truncates the file to its last complete line), so appending stays valid.
absl::Status MatchRunner::LoadRecords() {
  if (settings_.records_path.empty()) return absl::OkStatus();
  absl::StatusOr<RecordStore> store = RecordStore::Open(settings_.records_path);
  if (!store.ok()) return store.status();
  records_ = *std::move(store);
  for (const GameRecord& record : records_->records()) finished_[record.game] = record;
  if (records_->dropped_unfinished_line()) {
    reporter_.DroppedUnfinishedLine(settings_.records_path);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ScheduledGame>> MatchRunner::Pending(
    const std::vector<ScheduledGame>& schedule) const {
  std::vector<ScheduledGame> pending;
  for (const ScheduledGame& game : schedule) {
    const auto done = finished_.find(game.game);
    if (done == finished_.end()) {
      pending.push_back(game);
      continue;
    }
    const GameRecord& record = done->second;
    const std::string& first = settings_.engines[game.first].config.name;
    const std::string& second = settings_.engines[game.second].config.name;
    if (record.p1 != first || record.p2 != second) {
      return absl::FailedPreconditionError(
          absl::StrCat(settings_.records_path, " holds game ", game.game + 1, " as ", record.p1,
                       " vs ", record.p2, ", but this match schedules ", first, " vs ", second,
                       ": use another records file or the same settings"));
    }
  }
  return pending;
}

absl::Status MatchRunner::Run() {
  absl::StatusOr<std::vector<Opening>> openings = LoadOpenings(settings_, total_games_);
  if (!openings.ok()) return openings.status();
  openings_ = *std::move(openings);
  if (absl::Status status = LoadRecords(); !status.ok()) return status;
  absl::StatusOr<std::vector<ScheduledGame>> pending =
      Pending(Schedule(settings_, static_cast<int>(openings_.size())));
  if (!pending.ok()) return pending.status();
  if (!finished_.empty()) {
    reporter_.Resuming(static_cast<int>(finished_.size()), settings_.records_path);
  }
  bool go_on = true;
  if (settings_.sprt && !finished_.empty()) {
    // The records may already decide.
    std::lock_guard<std::mutex> lock(mutex_);
    reporter_.Statistics(finished_);
    go_on = !SprtDecided();
  }
  if (go_on) {
    WorkerPool(settings_, openings_).Play(*pending, [this](const GameRecord& record) {
      return Finish(record);
    });
  }
  std::lock_guard<std::mutex> lock(mutex_);
  reporter_.Statistics(finished_);
  return absl::OkStatus();
}

bool MatchRunner::Finish(const GameRecord& record) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (records_ && !records_->Append(record).ok()) reporter_.CannotWrite(settings_.records_path);
  if (!settings_.text_path.empty()) {
    std::ofstream text(settings_.text_path, std::ios::app);
    text << record.ToText() << '\n';
  }
  finished_[record.game] = record;
  ++newly_finished_;
  reporter_.GameFinished(record, finished_);
  if (settings_.rating_interval > 0 && newly_finished_ % settings_.rating_interval == 0) {
    reporter_.Statistics(finished_);
  }
  if (!settings_.sprt) return true;
  reporter_.Statistics(finished_);
  return !SprtDecided();
}

bool MatchRunner::SprtDecided() const {
  return settings_.sprt &&
         MatchSprt(*settings_.sprt, ScoreMatch(finished_, settings_.repeat)).decision !=
             SprtDecision::kContinue;
}

std::vector<GameRecord> MatchRunner::Records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<GameRecord> records;
  for (const auto& [game, record] : finished_) records.push_back(record);
  return records;
}

}  // namespace divercite
