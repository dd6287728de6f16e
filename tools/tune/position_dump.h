// The file divercite-dump-positions writes: the labelled positions of recorded games
// (tools/tune/labelled_positions.h) as fixed-size binary records, for trainers outside C++
// (tools/tune/train_network.py reads it with numpy).
//
// The file is a 16-byte header, the 8 characters "DVPOS001", the size of a record (uint32)
// and the number of records (uint32), then the records, little-endian, packed, as
// PositionRecord below.
#ifndef DIVERCITE_TOOLS_TUNE_POSITION_DUMP_H_
#define DIVERCITE_TOOLS_TUNE_POSITION_DUMP_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "engine/board.h"
#include "engine/position.h"
#include "tools/tune/labelled_positions.h"
#include "tools/tune/pattern_eval.h"

namespace divercite {

inline constexpr char kPositionDumpMagic[9] = "DVPOS001";
inline constexpr int kPatternSlots = 20;  // 16 city cells and 3 global tables at most
inline constexpr std::uint16_t kNoPattern = 0xFFFF;

#pragma pack(push, 1)
struct PositionRecord {
  // Per cell (engine/board.h's numbering): 0 empty, else 1 + colour + 4 x owner, owner 0 for
  // the first player and 1 for the second (a piece's kind follows from its cell).
  std::uint8_t board[kNumCells];
  // Pieces left in hand, at 8 x player + 4 x kind (0 city, 1 resource) + colour.
  std::uint8_t hand[16];
  std::uint8_t ply;
  std::uint8_t side_to_move;  // 0 first player, 1 second
  std::int8_t score[2];       // first and second player's scores so far
  std::uint8_t flags;         // bit 0: the mover's own score was exact; bit 1: it had one
  std::uint8_t reserved[2];
  // Points, from the side to move's view:
  float later;         // the first exact score at this position or later (the label)
  float search;        // the score the mover reported here (0 when it reported none)
  float pattern_eval;  // the pattern evaluation (score difference included) with the weights
                       // the dump was made with
  float linear_eval;   // tools/tune/linear_eval.h
  std::int32_t game;
  std::int32_t pair;
  // The patterns of the position (search/patterns.h) as the evaluation sees them with each
  // player to move: view 0 the side to move (the evaluation's own list), view 1 the other as
  // if it were to move. Each as 2 x pattern + (1 when its sign is -1: it counts against the
  // view's player), kNoPattern after the last.
  std::uint16_t patterns[2][kPatternSlots];
};
#pragma pack(pop)
static_assert(sizeof(PositionRecord) == 168);

// The record of `position` with its label. `weights` give its pattern evaluation; the record's
// pattern list of the side to move is checked against it (an error if their sums differ).
absl::StatusOr<PositionRecord> MakePositionRecord(const Position& position,
                                                  const PositionLabel& label,
                                                  const PatternWeights& weights);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_POSITION_DUMP_H_
