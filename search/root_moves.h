// The root's moves: the one table the root's search keeps. The moves it ranks (one per
// symmetry class, of `go searchmoves` if given) in generation order, the value each last got
// at the root (which orders them for the next search), and the lines of the iteration in
// progress, best first. With several lines (MultiPV), line k searches the moves that the
// lines above it did not take.
#ifndef DIVERCITE_SEARCH_ROOT_MOVES_H_
#define DIVERCITE_SEARCH_ROOT_MOVES_H_

#include <algorithm>
#include <array>
#include <vector>

#include "engine/move.h"
#include "search/move_order.h"
#include "search/search.h"

namespace divercite {

class RootMoves {
 public:
  // `moves`: all the moves the search ranks; `line_count`: the lines each iteration searches
  // (at most moves.size()); `several_lines`: lines were asked for (MultiPV > 1), even if the
  // root has one move; `searchmoves`: the moves are some of the root's only.
  RootMoves(const MoveList& moves, int line_count, bool several_lines, bool searchmoves);

  int line_count() const { return static_cast<int>(lines_.size()); }
  bool several_lines() const { return several_lines_; }
  // The first of all the moves (the answer before any iteration ends).
  Move first() const { return moves_[0]; }

  // Starts line `line`: its moves are the table's less those of the lines above it.
  void SelectLine(int line);
  const MoveList& selected() const { return selected_; }
  bool IsSelected(Move move) const {
    return std::find(selected_.begin(), selected_.end(), move) != selected_.end();
  }
  // Whether the selected moves are all of the root's, so that their best value is the
  // root's (its table entry may be stored).
  bool SelectedAreAll() const { return line_ == 0 && !searchmoves_; }
  // Whether a table cutoff at the root must name a selected move: lines or searchmoves
  // leave some of the root's moves out.
  bool CutoffMustBeSelected() const { return several_lines_ || searchmoves_; }

  // The value a move's search at the root returned, by Move::Index() (MoveOrderer::kNoValue:
  // none yet): the root's moves are ordered by it.
  void RecordValue(Move move, int value) { values_[move.Index()] = value; }
  const std::array<int, kNumMoveIndices>& values() const { return values_; }

  // The iteration's lines, best first.
  const RootLine& line(int k) const { return lines_[k]; }
  void SetLine(int k, RootLine line) { lines_[k] = std::move(line); }
  // Ranks lines [0, count) by score: a later line's search may find more than an earlier
  // one's (the windows and the table differ).
  void RankLines(int count);
  // The result's lines once `done` of this iteration's lines have ended: those, then the
  // lines of `previous` (the last iteration's) whose moves they lack, up to line_count().
  std::vector<RootLine> LinesSoFar(int done, const std::vector<RootLine>& previous) const;

 private:
  MoveList moves_;
  bool several_lines_;
  bool searchmoves_;
  int line_ = 0;
  MoveList selected_;
  std::array<int, kNumMoveIndices> values_;
  std::vector<RootLine> lines_;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_ROOT_MOVES_H_
