#include "tools/match/match_runner.h"

#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/match/engine_client.h"
#include "tools/match/game_runner.h"

namespace divercite {

MatchRunner::MatchRunner(MatchSettings settings, std::ostream& out)
    : settings_(std::move(settings)), out_(out) {}

// Games are numbered in a fixed order, so a resumed run plays exactly the missing ones:
// round by round, pair of engines by pair, `games` games each. Each pair of engines counts
// its games across rounds and swaps colours on every other one (with -games 1 too: the first
// player has an edge); with -repeat, the two games of a colour swap share an opening.
std::vector<MatchRunner::Job> MatchRunner::Schedule() const {
  std::vector<Job> jobs;
  const int n = static_cast<int>(settings_.engines.size());
  struct PairState {
    int played = 0;   // games of these two engines scheduled so far
    int opening = 0;  // the opening of their current colour swap, which also numbers the
                      // swap for the pentanomial statistics
  };
  std::map<std::pair<int, int>, PairState> pairs;
  int next_opening = 0;
  for (int round = 0; round < settings_.rounds; ++round) {
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        PairState& state = pairs[{a, b}];
        for (int g = 0; g < settings_.games; ++g, ++state.played) {
          Job job;
          job.game = static_cast<int>(jobs.size());
          job.round = round;
          const bool swapped = state.played % 2 == 1;
          job.first = swapped ? b : a;
          job.second = swapped ? a : b;
          if (settings_.repeat) {
            if (!swapped) state.opening = next_opening++;
            job.opening = state.opening;
            job.pair = state.opening;
          } else {
            job.opening = next_opening++;
            job.pair = -1;
          }
          job.opening %= static_cast<int>(openings_.size());
          jobs.push_back(job);
        }
      }
    }
  }
  return jobs;
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
    out_ << "Dropping an unfinished last line of " << settings_.records_path << "\n";
  }
  return absl::OkStatus();
}

absl::Status MatchRunner::Run() {
  const int n = static_cast<int>(settings_.engines.size());
  total_games_ = settings_.rounds * settings_.games * n * (n - 1) / 2;
  absl::StatusOr<std::vector<Opening>> openings = LoadOpenings(settings_, total_games_);
  if (!openings.ok()) return openings.status();
  openings_ = *openings;
  if (absl::Status status = LoadRecords(); !status.ok()) return status;
  const std::vector<Job> jobs = Schedule();
  std::vector<Job> pending;
  for (const Job& job : jobs) {
    const auto done = finished_.find(job.game);
    if (done == finished_.end()) {
      pending.push_back(job);
      continue;
    }
    const GameRecord& record = done->second;
    if (record.p1 != settings_.engines[job.first].config.name ||
        record.p2 != settings_.engines[job.second].config.name) {
      return absl::FailedPreconditionError(absl::StrCat(
          settings_.records_path, " holds game ", job.game + 1, " as ", record.p1, " vs ",
          record.p2, ", but this match schedules ", settings_.engines[job.first].config.name,
          " vs ", settings_.engines[job.second].config.name,
          ": use another records file or the same settings"));
    }
  }
  if (!finished_.empty()) {
    out_ << "Resuming: " << finished_.size() << " of " << total_games_
         << " games already in " << settings_.records_path << "\n";
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (settings_.sprt && !finished_.empty()) PrintStatistics();
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  const int threads = std::min<int>(settings_.concurrency, std::max<int>(1, pending.size()));
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] { WorkerLoop(pending, next); });
  }
  for (std::thread& worker : workers) worker.join();
  std::lock_guard<std::mutex> lock(mutex_);
  PrintStatistics();
  return absl::OkStatus();
}

void MatchRunner::WorkerLoop(const std::vector<Job>& jobs, std::atomic<size_t>& next) {
  // Each worker has its own processes: engines never serve two games at once.
  std::vector<EngineClient> clients;
  for (const EngineSpec& spec : settings_.engines) clients.emplace_back(spec.config);
  for (size_t i = next++; i < jobs.size() && !stop_.load(); i = next++) {
    const Job& job = jobs[i];
    GameSetup setup{&clients[job.first],
                    &clients[job.second],
                    &settings_.engines[job.first].time_control,
                    &settings_.engines[job.second].time_control,
                    &openings_[job.opening],
                    settings_.stall_timeout,
                    settings_.max_move_time};
    GameRecord record = PlayGame(setup);
    record.game = job.game;
    record.round = job.round;
    record.pair = job.pair;
    record.first_engine = job.first;
    record.second_engine = job.second;
    std::lock_guard<std::mutex> lock(mutex_);
    Finish(record);
  }
  for (EngineClient& client : clients) client.Quit();
}

void MatchRunner::Finish(const GameRecord& record) {
  if (records_ && !records_->Append(record).ok()) {
    out_ << "warning: cannot write " << settings_.records_path << "\n";
  }
  if (!settings_.text_path.empty()) {
    std::ofstream text(settings_.text_path, std::ios::app);
    text << record.ToText() << '\n';
  }
  finished_[record.game] = record;
  ++newly_finished_;
  out_ << absl::StrFormat("Finished game %d of %d (%s vs %s): %s {%s%s%s}\n", record.game + 1,
                          total_games_, record.p1, record.p2, GameOutcomeText(record.result),
                          TerminationText(record.termination), record.reason.empty() ? "" : ": ",
                          record.reason);
  if (settings_.engines.size() == 2) {
    Tally tally;
    for (const auto& [game, r] : finished_) tally.Add(r.PointsOf(0));
    out_ << absl::StrFormat("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n",
                            settings_.engines[0].config.name, settings_.engines[1].config.name,
                            tally.wins, tally.losses, tally.draws, tally.score(), tally.games());
  }
  out_.flush();
  if (settings_.rating_interval > 0 && newly_finished_ % settings_.rating_interval == 0) {
    PrintStatistics();
  }
  if (settings_.sprt) {
    PrintStatistics();  // also decides
  }
}

void MatchRunner::PrintStatistics() {
  if (settings_.engines.size() == 2) {
    PrintMatchStatistics();
  } else {
    PrintTournamentTable();
  }
  out_.flush();
}

void MatchRunner::PrintMatchStatistics() {
  const std::string& a = settings_.engines[0].config.name;
  const std::string& b = settings_.engines[1].config.name;
  Tally tally;
  std::map<int, std::vector<double>> pair_points;  // engine 0's points per pair
  for (const auto& [game, record] : finished_) {
    const double points = record.PointsOf(0);
    tally.Add(points);
    if (record.pair >= 0) pair_points[record.pair].push_back(points);
  }
  Pentanomial pairs{};
  for (const auto& [pair, points] : pair_points) {
    if (points.size() == 2) ++pairs[static_cast<int>(2 * (points[0] + points[1]))];
  }
  const bool paired = settings_.repeat && pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4] > 0;
  const EloEstimate elo = paired ? Estimate(pairs) : Estimate(tally);
  const EloEstimate games_view = Estimate(tally);
  out_ << absl::StrFormat("--- %s vs %s after %d games\n", a, b, tally.games());
  out_ << absl::StrFormat("Elo difference: %.1f +/- %.1f (95%%, %s), LOS: %.1f %%, DrawRatio: %.1f %%\n",
                          elo.elo, elo.error95, paired ? "pentanomial" : "trinomial",
                          100 * elo.los, 100 * games_view.draw_ratio);
  out_ << absl::StrFormat("Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n",
                          tally.games(), tally.wins, tally.losses, tally.draws,
                          tally.wins + 0.5 * tally.draws, 100 * tally.score());
  if (settings_.repeat) {
    out_ << absl::StrFormat("Ptnml(0-2): [%d, %d, %d, %d, %d]\n", pairs[0], pairs[1], pairs[2],
                            pairs[3], pairs[4]);
  }
  if (settings_.sprt) {
    const SprtState sprt = Sprt(*settings_.sprt, tally, paired ? &pairs : nullptr);
    out_ << absl::StrFormat("LLR: %.2f (%.2f, %.2f) [%.1f, %.1f]%s\n", sprt.llr, sprt.lower,
                            sprt.upper, settings_.sprt->elo0, settings_.sprt->elo1,
                            sprt.decision == SprtDecision::kAcceptH1   ? " H1 accepted"
                            : sprt.decision == SprtDecision::kAcceptH0 ? " H0 accepted"
                                                                       : "");
    if (sprt.decision != SprtDecision::kContinue) stop_ = true;
  }
}

void MatchRunner::PrintTournamentTable() {
  const size_t n = settings_.engines.size();
  std::vector<std::vector<Tally>> cross(n, std::vector<Tally>(n));
  std::vector<std::vector<double>> points(n, std::vector<double>(n, 0));
  std::vector<std::vector<int>> games(n, std::vector<int>(n, 0));
  std::vector<std::int64_t> ms(n, 0), moves(n, 0);
  for (const auto& [game, record] : finished_) {
    const int first = record.first_engine, second = record.second_engine;
    const double p = record.FirstPlayerPoints();
    cross[first][second].Add(p);
    cross[second][first].Add(1 - p);
    points[first][second] += p;
    points[second][first] += 1 - p;
    ++games[first][second];
    ++games[second][first];
    // The opening's parity decides who made the engines' first move.
    const int opening_plies =
        record.opening.empty()
            ? 0
            : static_cast<int>(std::count(record.opening.begin(), record.opening.end(), ' ')) + 1;
    for (size_t m = 0; m < record.moves.size(); ++m) {
      const int mover = (opening_plies + static_cast<int>(m)) % 2 == 0 ? first : second;
      ms[mover] += record.moves[m].ms;
      ++moves[mover];
    }
  }
  const std::vector<double> ratings = BradleyTerryElo(points, games);
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return ratings[x] > ratings[y]; });
  out_ << absl::StrFormat("--- Round robin after %d of %d games (W-D-L of the row against the column)\n",
                          finished_.size(), total_games_);
  out_ << absl::StrFormat("%-16s", "");
  for (size_t j : order) out_ << absl::StrFormat(" %12.12s", settings_.engines[j].config.name);
  out_ << absl::StrFormat(" %8s %7s %8s %9s\n", "score", "%", "Elo(BT)", "ms/move");
  for (size_t i : order) {
    out_ << absl::StrFormat("%-16.16s", settings_.engines[i].config.name);
    double total = 0;
    int played = 0;
    for (size_t j : order) {
      if (i == j) {
        out_ << absl::StrFormat(" %12s", "-");
        continue;
      }
      const Tally& t = cross[i][j];
      out_ << absl::StrFormat(" %12s", absl::StrCat(t.wins, "-", t.draws, "-", t.losses));
      total += points[i][j];
      played += games[i][j];
    }
    out_ << absl::StrFormat(" %8.1f %6.1f%% %8.0f %9.1f\n", total,
                            played ? 100.0 * total / played : 0.0, ratings[i],
                            moves[i] ? static_cast<double>(ms[i]) / moves[i] : 0.0);
  }
}

std::vector<GameRecord> MatchRunner::Records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<GameRecord> records;
  for (const auto& [game, record] : finished_) records.push_back(record);
  return records;
}

}  // namespace divercite
