// The engine behind the protocol: the position, the options, the move chooser (our search or
// one of the course agents) and the thread a move is chosen on. It knows no text: the
// protocol reads commands into calls here and turns what it reports into lines.
#ifndef DIVERCITE_TOOLS_UCI_ENGINE_SESSION_H_
#define DIVERCITE_TOOLS_UCI_ENGINE_SESSION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "agents/agent.h"
#include "engine/position.h"
#include "search/network.h"
#include "search/search.h"
#include "tools/uci/option_registry.h"

namespace divercite {

// The EvalFile value that stands for the compiled-in weights.
inline constexpr absl::string_view kBuiltInEvalFile = "<built-in>";

// What a move chooser found.
struct MoveChoice {
  Move best;
  // Our search's result and the table's fill when it chose; absent for an agent.
  std::optional<SearchResult> search;
  int hashfull = 0;
  // An agent's name, the states it visited, and its time.
  std::string agent;
  std::uint64_t agent_nodes = 0;
  std::int64_t agent_ms = 0;
};

// Our search or a course agent, behind one interface.
class MoveChooser {
 public:
  virtual ~MoveChooser() = default;
  // A legal move for `root` (not over) within `limits`; blocks.
  virtual MoveChoice Choose(const Position& root, const SearchLimits& limits,
                            const SearchCallbacks& callbacks) = 0;
  // From another thread: the move now. Never lost if it comes just before Choose starts.
  virtual void Stop() = 0;
  // Forget a stop that came after the move was chosen.
  virtual void ClearStop() = 0;
};

// What the program around the engine allows and provides: the native defaults, or the
// browser's (tools/web/engine_main.cc: its memory and its processors).
struct EngineHost {
  int max_threads = 256;                    // the Threads option's maximum
  std::int64_t max_hash_megabytes = 65536;  // the Hash option's maximum
  // Called now and then by a running search, on its thread (SearchCallbacks::on_poll).
  std::function<void()> poll;
};

// With DIVERCITE_INLINE_SEARCH defined (the single-threaded browser build, which has no
// threads), `Go` chooses the move before it returns, and the commands that come meanwhile
// reach the protocol only through the host's poll.
class EngineSession {
 public:
  struct Listener {
    std::function<void(const IterationInfo&)> on_iteration;  // our search's iterations
    // The choice, while the session still counts as searching (its final report)...
    std::function<void(const MoveChoice&)> on_choice;
    // ...then the move, once a new command may be given.
    std::function<void(Move)> on_bestmove;
  };

  explicit EngineSession(Listener listener, EngineHost host = {});
  ~EngineSession();  // stops and joins a running search

  OptionRegistry& options() { return options_; }

  const Position& position() const { return position_; }
  void SetPosition(const Position& position) { position_ = position; }
  // The start position, a fresh table and history, a fresh (reseeded) agent.
  void NewGame();

  // Starts choosing a move for the position on the search thread (not while one runs, and not
  // on a finished game); the listener hears the result.
  void Go(const SearchLimits& limits);
  bool Searching() const;
  void Stop();
  // Blocks until the running search, if any, has reported its bestmove.
  void WaitForSearch();

  const NetworkWeights& eval_weights() const { return *searcher_.options().eval_weights; }

 private:
  void RegisterOptions();
  // Chooses the move for `root` and reports it (on the search thread, or inline).
  void ChooseMove(const Position& root, const SearchLimits& limits);
  // The chooser that `agent_name_` names, made anew (seeded).
  void ResetChooser();
  absl::Status SetSearchOption(const std::function<void(SearchOptions&)>& change);

  // The `Agent` option's value for our own search.
  static constexpr absl::string_view kOurSearch = "engine";

  Listener listener_;
  EngineHost host_;
  OptionRegistry options_;
  Position position_ = Position::Start();
  Searcher searcher_;  // its table at the Hash option's default size
  int hash_megabytes_ = static_cast<int>(kDefaultHashMegabytes);
  std::uint64_t seed_ = 0;
  std::string agent_name_ = std::string(kOurSearch);
  std::unique_ptr<MoveChooser> chooser_;

  std::thread search_thread_;
  // Guards the running flag together with stopping, so a `stop` can only reach the search
  // it was meant for.
  mutable std::mutex search_mutex_;
  bool search_running_ = false;
};

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_UCI_ENGINE_SESSION_H_
