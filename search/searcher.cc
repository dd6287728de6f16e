// The searcher: one search's shared state, its threads (Lazy SMP: every worker searches the
// whole tree over the shared table, helpers one ply deeper on odd indices), and the choice of
// the result among the workers'.
#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "engine/symmetry.h"
#include "search/search.h"
#include "search/worker.h"

namespace divercite {
namespace {

// What a report of `line` says, with the search's nodes and time so far.
IterationInfo InfoOfLine(const RootLine& line, std::uint64_t nodes, std::int64_t time_ms,
                         int seldepth, int hashfull, Bound bound) {
  IterationInfo info;
  info.depth = line.depth;
  info.seldepth = seldepth;
  info.score = line.score;
  info.bound = bound == Bound::kExact ? line.bound : bound;
  info.exact = line.exact;
  info.proven = line.proven;
  info.nodes = nodes;
  info.time_ms = time_ms;
  info.hashfull = hashfull;
  info.pv = line.pv.empty() ? std::vector<Move>{line.move} : line.pv;
  return info;
}

// The root's moves a search ranks: one per symmetry class, of `searchmoves` (the legal ones)
// if it names any.
MoveList MovesToRank(const Position& root, const std::vector<Move>& searchmoves) {
  MoveList named;
  for (const Move move : searchmoves) {
    if (root.IsLegal(move)) named.Add(move);
  }
  return named.empty() ? DistinctMoves(root) : DistinctMoves(root, named);
}

}  // namespace

IterationInfo IterationInfoOf(const SearchResult& result, int seldepth, int hashfull, Bound bound) {
  return InfoOfLine(result.best, result.nodes, result.time_ms, seldepth, hashfull, bound);
}

IterationInfo LineInfoOf(const SearchResult& result, int multipv, int seldepth, int hashfull) {
  IterationInfo info = InfoOfLine(result.lines[multipv - 1], result.nodes, result.time_ms, seldepth,
                                  hashfull, Bound::kExact);
  info.multipv = multipv;
  return info;
}

Searcher::Searcher(std::size_t hash_megabytes) { tt_.Resize(hash_megabytes); }
Searcher::~Searcher() = default;

bool Searcher::SetHashMegabytes(std::size_t megabytes) { return tt_.Resize(megabytes); }

void Searcher::NewGame() {
  tt_.Clear();
  won_at_ply_ = -kTotalPlies;
}

SearchResult Searcher::Search(const Position& root, const SearchLimits& limits,
                              const SearchCallbacks& callbacks) {
  SearchResult result;
  if (root.IsGameOver()) return result;

  if (options_.threads > 1 && !moves_in_progress_) {
    moves_in_progress_ = std::make_unique<MovesInProgress>();
  }
  SharedSearch shared{root,
                      MovesToRank(root, limits.searchmoves),
                      limits,
                      {},
                      SearchClock::now(),
                      tt_,
                      stop_,
                      options_.eval_weights,
                      options_.endgame_solver_plies,
                      options_.threads > 1 ? moves_in_progress_.get() : nullptr};
  shared.budget = PlanTime(limits, root.SideToMove(), root.Ply(), options_.move_overhead_ms);
  shared.searchmoves =
      !limits.searchmoves.empty() && shared.root_moves.size() < DistinctMoves(root).size();
  shared.several_lines = options_.multipv > 1;
  shared.line_count = std::clamp(options_.multipv, 1, shared.root_moves.size());
  // A win known for the root is no win of some of its moves.
  if (ProofFirstAllowed(limits) && !shared.searchmoves) {
    TTEntry entry;
    shared.known_win = won_at_ply_ == root.Ply() - 2 ||
                       (tt_.Probe(SymmetricKeys::Of(root).Canonical().key, entry) &&
                        entry.depth >= root.PliesLeft() && entry.ProvesAtLeast(kWinBoundary));
  }
  tt_.NewSearch();

  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < std::max(1, options_.threads); ++i) {
    workers.push_back(std::make_unique<Worker>(shared, i));
  }
  auto nodes_of_all = [&workers] {
    std::uint64_t total = 0;
    for (const auto& worker : workers) total += worker->nodes();
    return total;
  };
  for (auto& worker : workers) worker->set_nodes_of_all(nodes_of_all);

  std::vector<std::thread> helpers;
  for (size_t i = 1; i < workers.size(); ++i) {
    helpers.emplace_back([&worker = *workers[i]] { worker.Run(nullptr); });
  }
  workers[0]->Run(&callbacks);
  // `go infinite` waits for `stop` even when the search has nothing left to do.
  while (limits.infinite && !shared.StopRequested()) {
    if (callbacks.on_poll) callbacks.on_poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  shared.RequestStop();
  for (std::thread& helper : helpers) helper.join();

  // The deepest finished iteration of any worker (an exact solve is the deepest, then a
  // proof of the result), the main worker's at equal depth: a helper one ply ahead when the
  // time ran out knows more. With several lines, then the one with more lines of that
  // iteration (a worker stopped within it keeps older lines after the new ones).
  auto knowledge = [](const SearchResult& r) {
    const auto of_iteration =
        std::count_if(r.lines.begin(), r.lines.end(),
                      [&r](const RootLine& line) { return line.depth == r.best.depth; });
    return (4 * r.best.depth + (r.best.exact                              ? 2
                                : r.best.proven != ProvenResult::kUnknown ? 1
                                                                          : 0)) *
               (kMaxLines + 1) +
           of_iteration;
  };
  const Worker* chosen = workers[0].get();
  for (const auto& worker : workers) {
    if (knowledge(worker->result()) > knowledge(chosen->result())) chosen = worker.get();
  }
  result = chosen->result();
  // Lines were asked for: a search stopped before its first line ended has its move's.
  if (shared.several_lines && result.lines.empty()) result.lines.push_back(result.best);
  result.nodes = nodes_of_all();
  result.time_ms = shared.Elapsed();
  won_at_ply_ = result.best.proven == ProvenResult::kWin ? root.Ply() : -kTotalPlies;
  ClearStop();
  return result;
}

}  // namespace divercite
