#include "tools/match/worker_pool.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "tools/client/engine_client.h"
#include "tools/match/adjudication.h"
#include "tools/match/game_runner.h"

namespace divercite {

WorkerPool::WorkerPool(const MatchSettings& settings, const std::vector<Opening>& openings,
                       ProtocolLog* log, LiveLog* live)
    : settings_(settings), openings_(openings), log_(log), live_(live) {}

void WorkerPool::Play(const std::vector<ScheduledGame>& games, const GameFinished& finished) {
  next_ = 0;
  stop_ = false;
  std::vector<std::thread> workers;
  const int threads = std::min<int>(settings_.concurrency, std::max<int>(1, games.size()));
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] { Work(games, finished); });
  }
  for (std::thread& worker : workers) worker.join();
}

void WorkerPool::Work(const std::vector<ScheduledGame>& games, const GameFinished& finished) {
  // Started on their first game, restarted after one they lose by a fault.
  std::vector<EngineClient> clients;
  for (const EngineSpec& spec : settings_.engines) clients.emplace_back(spec.config);
  std::unique_ptr<ExactSolver> solver;
  if (settings_.adjudicate_plies > 0) solver = std::make_unique<ExactSolver>();
  for (size_t i = next_++; i < games.size() && !stop_.load(); i = next_++) {
    const ScheduledGame& game = games[i];
    for (EngineClient& client : clients) client.SetLog(log_, game.game + 1);
    GameSetup setup{&clients[game.first],
                    &clients[game.second],
                    &settings_.engines[game.first].time_control,
                    &settings_.engines[game.second].time_control,
                    &openings_[game.opening],
                    settings_.stall_timeout,
                    settings_.max_move_time,
                    settings_.StartupTimeout(),
                    settings_.adjudicate_plies,
                    solver.get(),
                    settings_.max_plies,
                    settings_.measure_cpu,
                    live_,
                    game.game};
    GameRecord record = PlayGame(setup);
    record.game = game.game;
    record.round = game.round;
    record.pair = game.pair;
    record.first_engine = game.first;
    record.second_engine = game.second;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!finished(record)) stop_ = true;
  }
  for (EngineClient& client : clients) {
    client.SetLog(log_, 0);
    client.Quit();
  }
}

}  // namespace divercite
