#include "tools/match/match_runner.h"

#include <fstream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "tools/client/engine_client.h"
#include "tools/client/protocol_log.h"
#include "tools/match/live_log.h"
#include "tools/match/worker_pool.h"

namespace divercite {

namespace {

// The number of games a run plays: all of the schedule, or its shard's (which does not
// depend on the number of openings).
int PlannedGames(const MatchSettings& settings) {
  if (!settings.shard) return TotalGames(settings);
  return static_cast<int>(ShardOf(Schedule(settings, 1), *settings.shard).size());
}

}  // namespace

MatchRunner::MatchRunner(MatchSettings settings, std::ostream& out)
    : settings_(std::move(settings)),
      total_games_(TotalGames(settings_)),
      reporter_(settings_, total_games_, out, PlannedGames(settings_)) {}

std::vector<ScheduledGame> MatchRunner::RunSchedule() const {
  std::vector<ScheduledGame> schedule = Schedule(settings_, static_cast<int>(openings_.size()));
  if (settings_.shard) schedule = ShardOf(schedule, *settings_.shard);
  return schedule;
}

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
  if (settings_.shard) {
    // A shard's records are its own: another shard's game means another shard's file.
    std::vector<bool> ours(total_games_, false);
    for (const ScheduledGame& game : schedule) ours[game.game] = true;
    for (const auto& [game, record] : finished_) {
      if (game < 0 || game >= total_games_ || !ours[game]) {
        return absl::FailedPreconditionError(
            absl::StrCat(settings_.records_path, " holds game ", game + 1,
                         ", which is not in shard ", settings_.shard->index, "/",
                         settings_.shard->count, ": give each shard its own records file"));
      }
    }
  }
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
    // The same names on another opening mean another -seed, -openings or start=: resuming
    // would mix two schedules (and a pair's two games could differ in opening).
    const Opening& opening = openings_[game.opening];
    const std::string scheduled = opening.RecordedMoves();
    if (record.start != opening.start_string || record.opening != scheduled) {
      return absl::FailedPreconditionError(absl::StrCat(
          settings_.records_path, " holds game ", game.game + 1, " from opening '", record.opening,
          "' (start ", record.start, "), but this match schedules '", scheduled, "' (start ",
          opening.start_string,
          "): the same -openings and -seed as the records' run, or another records file"));
    }
  }
  return pending;
}

absl::Status MatchRunner::Run() {
  absl::StatusOr<std::vector<Opening>> openings = LoadOpenings(settings_, total_games_);
  if (!openings.ok()) return openings.status();
  openings_ = *std::move(openings);
  if (absl::Status status = LoadRecords(); !status.ok()) return status;
  schedule_ = RunSchedule();
  absl::StatusOr<std::vector<ScheduledGame>> pending = Pending(schedule_);
  if (!pending.ok()) return pending.status();
  std::unique_ptr<ProtocolLog> log;
  if (!settings_.log_path.empty()) {
    absl::StatusOr<std::unique_ptr<ProtocolLog>> opened = ProtocolLog::Open(settings_.log_path);
    if (!opened.ok()) return opened.status();
    log = *std::move(opened);
  }
  std::unique_ptr<LiveLog> live;
  if (!settings_.live_path.empty()) {
    absl::StatusOr<std::unique_ptr<LiveLog>> opened = LiveLog::Open(settings_.live_path);
    if (!opened.ok()) return opened.status();
    live = *std::move(opened);
  }
  if (!pending->empty()) {
    if (absl::Status status = CheckEngineOptions(log.get()); !status.ok()) return status;
  }
  if (!settings_.html_dir.empty()) {
    report_.emplace(settings_, total_games_);
    if (absl::Status status = report_->Prepare(); !status.ok()) return status;
  }
  if (settings_.shard) reporter_.Shard();
  if (!finished_.empty()) {
    reporter_.Resuming(static_cast<int>(finished_.size()), settings_.records_path);
  }
  bool go_on = true;
  if (settings_.sprt && !settings_.shard && !finished_.empty()) {
    // The records may already decide.
    std::lock_guard<std::mutex> lock(mutex_);
    reporter_.Statistics(finished_);
    go_on = !SprtDecided();
  }
  if (go_on) {
    WorkerPool(settings_, openings_, log.get(), live.get())
        .Play(*pending, [this](const GameRecord& record) { return Finish(record); });
  }
  std::lock_guard<std::mutex> lock(mutex_);
  reporter_.Statistics(finished_);
  WriteReport(nullptr);
  return absl::OkStatus();
}

void MatchRunner::WriteReport(const GameRecord* record) {
  if (!report_) return;
  absl::Status status = record ? report_->WriteGame(*record) : report_->WriteAll(finished_);
  if (status.ok() && record) status = report_->WriteIndex(finished_);
  if (!status.ok()) {
    reporter_.CannotWrite(absl::StrCat(settings_.html_dir, " (", status.message(), ")"));
  }
}

absl::Status MatchRunner::CheckEngineOptions(ProtocolLog* log) const {
  for (const EngineSpec& spec : settings_.engines) {
    if (spec.config.options.empty()) continue;
    EngineClient engine(spec.config);
    engine.SetLog(log, 0);
    const absl::Status status = engine.EnsureStarted(settings_.StartupTimeout());
    engine.Quit();
    if (!status.ok() && engine.last_failure() == EngineFailure::kOptions) return status;
  }
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
  reporter_.AfterGame(record, finished_, newly_finished_);
  WriteReport(&record);
  return !SprtDecided();
}

bool MatchRunner::SprtDecided() const {
  // A shard's part decides nothing: the merged report does, and the scheduler stops shards.
  return settings_.sprt && !settings_.shard &&
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
