// Plays the scheduled games of a run on -concurrency threads. Each thread has its own
// engine processes (an engine never serves two games at once) and takes the next game in
// schedule order; every finished game is handed back one at a time, and the pool stops
// starting games once told to (an SPRT decision). With -adjudicate, each thread also has its
// own exact solver. With -live, every game tells its events to the live file as it goes.
#ifndef DIVERCITE_TOOLS_MATCH_WORKER_POOL_H_
#define DIVERCITE_TOOLS_MATCH_WORKER_POOL_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "tools/client/protocol_log.h"
#include "tools/match/live_log.h"
#include "tools/match/match_settings.h"
#include "tools/match/openings.h"
#include "tools/match/scheduler.h"
#include "tools/records/game_record.h"

namespace divercite {

class WorkerPool {
 public:
  // Called with each finished game (its schedule fields filled in), never two at once.
  // Returns whether to go on: once it says no, no further game starts, but the games under
  // way still finish and are handed back.
  using GameFinished = std::function<bool(const GameRecord& record)>;

  // `settings`, `openings`, `log` (-log) and `live` (-live) must outlive the pool; the last
  // two may be null.
  WorkerPool(const MatchSettings& settings, const std::vector<Opening>& openings,
             ProtocolLog* log = nullptr, LiveLog* live = nullptr);

  // Plays `games` and returns once they are all finished, or stopped.
  void Play(const std::vector<ScheduledGame>& games, const GameFinished& finished);

 private:
  void Work(const std::vector<ScheduledGame>& games, const GameFinished& finished);

  const MatchSettings& settings_;
  const std::vector<Opening>& openings_;
  ProtocolLog* const log_;
  LiveLog* const live_;
  std::mutex mutex_;  // serializes `finished`
  std::atomic<size_t> next_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_WORKER_POOL_H_
