#include "search/root_moves.h"

#include <utility>

namespace divercite {

RootMoves::RootMoves(const MoveList& moves, int line_count, bool several_lines, bool searchmoves)
    : moves_(moves), several_lines_(several_lines), searchmoves_(searchmoves), lines_(line_count) {
  values_.fill(MoveOrderer::kNoValue);
}

void RootMoves::SelectLine(int line) {
  line_ = line;
  selected_.clear();
  for (const Move move : moves_) {
    const auto taken = [move](const RootLine& above) { return above.move == move; };
    if (std::none_of(lines_.begin(), lines_.begin() + line, taken)) selected_.Add(move);
  }
}

void RootMoves::RankLines(int count) {
  std::stable_sort(lines_.begin(), lines_.begin() + count,
                   [](const RootLine& a, const RootLine& b) { return a.score > b.score; });
}

std::vector<RootLine> RootMoves::LinesSoFar(int done, const std::vector<RootLine>& previous) const {
  std::vector<RootLine> lines(lines_.begin(), lines_.begin() + done);
  for (const RootLine& earlier : previous) {
    if (std::ssize(lines) >= line_count()) break;
    const auto same_move = [&earlier](const RootLine& line) { return line.move == earlier.move; };
    if (std::none_of(lines.begin(), lines.begin() + done, same_move)) lines.push_back(earlier);
  }
  return lines;
}

}  // namespace divercite
