#include "tools/uci/engine_session.h"

#include <chrono>
#include <memory>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "search/network_file.h"

namespace divercite {
namespace {

class SearchChooser final : public MoveChooser {
 public:
  explicit SearchChooser(Searcher& searcher) : searcher_(searcher) {}
  MoveChoice Choose(const Position& root, const SearchLimits& limits,
                    const SearchCallbacks& callbacks) override {
    MoveChoice choice;
    choice.search = searcher_.Search(root, limits, callbacks);
    choice.best = choice.search->best.move;
    choice.hashfull = searcher_.tt().HashFull();
    return choice;
  }
  void Stop() override { searcher_.Stop(); }
  void ClearStop() override { searcher_.ClearStop(); }

 private:
  Searcher& searcher_;
};

class AgentChooser final : public MoveChooser {
 public:
  AgentChooser(std::string name, std::unique_ptr<Agent> agent)
      : name_(std::move(name)), agent_(std::move(agent)) {}
  MoveChoice Choose(const Position& root, const SearchLimits& limits,
                    const SearchCallbacks& callbacks) override {
    AgentLimits agent_limits;
    agent_limits.movetime_ms = limits.movetime_ms;
    agent_limits.stop = &stop_;
    const auto start = std::chrono::steady_clock::now();
    MoveChoice choice;
    choice.best = agent_->ChooseMove(root, agent_limits);
    choice.agent = name_;
    choice.agent_nodes = agent_->nodes();
    choice.agent_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    // `go infinite` waits for `stop`, as our search does (search/searcher.cc).
    while (limits.infinite && !stop_) {
      if (callbacks.on_poll) callbacks.on_poll();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return choice;
  }
  void Stop() override { stop_ = true; }
  void ClearStop() override { stop_ = false; }

 private:
  std::string name_;
  std::unique_ptr<Agent> agent_;
  std::atomic<bool> stop_{false};
};

}  // namespace

EngineSession::EngineSession(Listener listener, EngineHost host)
    : listener_(std::move(listener)), host_(std::move(host)) {
  RegisterOptions();
  ResetChooser();
}

EngineSession::~EngineSession() {
  Stop();
  WaitForSearch();
}

absl::Status EngineSession::SetSearchOption(const std::function<void(SearchOptions&)>& change) {
  SearchOptions options = searcher_.options();
  change(options);
  searcher_.SetOptions(options);
  return absl::OkStatus();
}

void EngineSession::RegisterOptions() {
  const SearchOptions defaults;
  options_.AddSpin(
      "Hash", kDefaultHashMegabytes, 1, host_.max_hash_megabytes, [this](std::int64_t megabytes) {
        if (!searcher_.SetHashMegabytes(static_cast<std::size_t>(megabytes))) {
          return absl::ResourceExhaustedError(
              absl::StrCat("cannot allocate ", megabytes, " MiB; Hash stays ", hash_megabytes_));
        }
        hash_megabytes_ = static_cast<int>(megabytes);
        return absl::OkStatus();
      });
  options_.AddSpin("Threads", defaults.threads, 1, host_.max_threads, [this](std::int64_t threads) {
    return SetSearchOption([threads](SearchOptions& o) { o.threads = static_cast<int>(threads); });
  });
  // The best moves each iteration reports (our search's; a course agent ignores it).
  options_.AddSpin("MultiPV", defaults.multipv, 1, kMaxLines, [this](std::int64_t lines) {
    return SetSearchOption([lines](SearchOptions& o) { o.multipv = static_cast<int>(lines); });
  });
  options_.AddSpin("MoveOverhead", defaults.move_overhead_ms, 0, 5000, [this](std::int64_t ms) {
    return SetSearchOption([ms](SearchOptions& o) { o.move_overhead_ms = ms; });
  });
  options_.AddSpin("Seed", 0, 0, 2147483647, [this](std::int64_t seed) {
    seed_ = static_cast<std::uint64_t>(seed);
    ResetChooser();
    return absl::OkStatus();
  });
  // The evaluation's network file; a file that cannot be read, is malformed or was made for
  // another network is refused and the network in use stays.
  options_.AddString("EvalFile", std::string(kBuiltInEvalFile), [this](const std::string& path) {
    std::shared_ptr<const NetworkWeights> weights = DefaultNetworkWeights();
    if (path != kBuiltInEvalFile) {
      absl::StatusOr<std::shared_ptr<const NetworkWeights>> read = ReadNetworkFile(path);
      if (!read.ok()) return read.status();
      weights = *std::move(read);
    }
    return SetSearchOption([&weights](SearchOptions& o) { o.eval_weights = weights; });
  });
  std::vector<std::string> choosers = {std::string(kOurSearch)};
  for (const absl::string_view name : AgentNames()) choosers.emplace_back(name);
  options_.AddCombo("Agent", std::string(kOurSearch), choosers, "agent",
                    [this](const std::string& name) {
                      agent_name_ = name;
                      ResetChooser();
                      return absl::OkStatus();
                    });
}

void EngineSession::ResetChooser() {
  if (agent_name_ == kOurSearch) {
    chooser_ = std::make_unique<SearchChooser>(searcher_);
  } else {
    chooser_ = std::make_unique<AgentChooser>(agent_name_, MakeAgent(agent_name_, seed_));
  }
}

void EngineSession::NewGame() {
  position_ = Position::Start();
  searcher_.NewGame();
  ResetChooser();
}

bool EngineSession::Searching() const {
  std::lock_guard<std::mutex> lock(search_mutex_);
  return search_running_;
}

void EngineSession::Stop() {
  std::lock_guard<std::mutex> lock(search_mutex_);
  if (search_running_) chooser_->Stop();
}

void EngineSession::WaitForSearch() {
  if (search_thread_.joinable()) search_thread_.join();
}

void EngineSession::Go(const SearchLimits& limits) {
  WaitForSearch();  // the previous search has ended; reclaim its thread
  {
    std::lock_guard<std::mutex> lock(search_mutex_);
    search_running_ = true;
  }
#ifdef DIVERCITE_INLINE_SEARCH
  // A copy, as the thread's: the commands the search lets in must not reach its root.
  ChooseMove(Position(position_), limits);
#else
  search_thread_ = std::thread([this, root = position_, limits] { ChooseMove(root, limits); });
#endif
}

void EngineSession::ChooseMove(const Position& root, const SearchLimits& limits) {
  SearchCallbacks callbacks;
  callbacks.on_iteration = listener_.on_iteration;
  callbacks.on_poll = host_.poll;
  const MoveChoice choice = chooser_->Choose(root, limits, callbacks);
  listener_.on_choice(choice);
  // Not searching before the bestmove: a client may answer it with its next command at once.
  {
    std::lock_guard<std::mutex> lock(search_mutex_);
    search_running_ = false;
    chooser_->ClearStop();  // a stop that arrived as the search ended
  }
  listener_.on_bestmove(choice.best);
}

}  // namespace divercite
