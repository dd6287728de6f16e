// The evaluation network (issue 33): what the position's pieces and patterns are worth beyond
// the score difference, learned from self-play (tools/tune/train_network.py).
//
// Its inputs are features seen from one player's perspective:
//   pieces     each piece on the board: cell x 8 + (the perspective's opponent's) x 4 + colour;
//              each piece in hand, as a thermometer: for n = 1 .. pieces left of a kind and
//              colour, one feature (whose, kind, colour, n); exactly 40 on, always;
//   patterns   the pattern evaluation's patterns (search/patterns.h) as they are with the
//              perspective's player to move, each with its sign: 2 x pattern + (against).
// A perspective's features do not depend on who is to move, so each player's first-layer sum
// (its accumulator) follows the game incrementally: a move turns one hand feature off and one
// board feature on, and changes the patterns of a few cells (search/network_eval_state.h).
//
// The network, all in integers (the same result natively and in WebAssembly): the side to
// move's accumulator then the other's, clipped to 0..127; two hidden layers, y = (x.w + b) >> 6
// clipped to 0..127; one output, (x.w + b) / (127 x 2^shift) points.
#ifndef DIVERCITE_SEARCH_NETWORK_H_
#define DIVERCITE_SEARCH_NETWORK_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/position.h"
#include "engine/types.h"
#include "search/network_simd.h"
#include "search/patterns.h"

namespace divercite {

namespace network {
inline constexpr int kBoardFeatures = kNumCells * 8;
inline constexpr int kHandFeatures = kNumPlayers * 2 * kNumColours * 3;
inline constexpr int kPieceFeatures = kBoardFeatures + kHandFeatures;
inline constexpr int kFeatures = kPieceFeatures + 2 * patterns::kNumPatterns;
inline constexpr int kAccumulator = 32;
inline constexpr int kHidden1 = 16;
inline constexpr int kHidden2 = 16;
inline constexpr int kActivationMax = 127;  // an activation of 1.0
inline constexpr int kHiddenShift = 6;      // hidden weights are in 64ths
inline constexpr int kMaxOutputShift = 14;

inline constexpr int BoardFeature(int cell, bool theirs, Colour colour) {
  return cell * 8 + (theirs ? 4 : 0) + Index(colour);
}
// The n-th (1-based) piece of a kind and colour in hand.
inline constexpr int HandFeature(bool theirs, Kind kind, Colour colour, int n) {
  return kBoardFeatures + (((theirs ? 2 : 0) + Index(kind)) * kNumColours + Index(colour)) * 3 +
         (n - 1);
}
inline constexpr int PatternFeature(int pattern, int sign) {
  return kPieceFeatures + 2 * pattern + (sign < 0 ? 1 : 0);
}

// The name and sizes of this network, as its weight file's layout line gives them.
std::string LayoutText();
}  // namespace network

using Accumulator = std::array<std::int16_t, network::kAccumulator>;

struct NetworkWeights {
  // The first layer: one column per feature, and the bias every accumulator starts from.
  std::array<Accumulator, network::kFeatures> features{};
  Accumulator feature_bias{};
  // The hidden layers (weights within int8, kept as int16 for the multiply-adds) and output.
  std::array<std::array<std::int16_t, 2 * network::kAccumulator>, network::kHidden1> hidden1{};
  std::array<std::int32_t, network::kHidden1> hidden1_bias{};
  std::array<std::array<std::int16_t, network::kHidden1>, network::kHidden2> hidden2{};
  std::array<std::int32_t, network::kHidden2> hidden2_bias{};
  std::array<std::int16_t, network::kHidden2> output{};
  std::int32_t output_bias = 0;
  int output_shift = 0;
  std::string data;  // the data the network was trained on
  std::string fit;   // the training that made it
  // The hidden layers' weights as int8 in the kernels' order (search/network_simd.h), made
  // from the rows above by PackNetwork(), which whoever fills the rows calls.
  std::array<std::int8_t, 2 * network::kAccumulator * network::kHidden1> hidden1_blocks{};
  std::array<std::int8_t, network::kHidden1 * network::kHidden2> hidden2_blocks{};
  // How many chunks of each hidden layer the kernels sum in int16 (simd::ChunksPerSum).
  int hidden1_per_sum = 1;
  int hidden2_per_sum = 1;
  bool packed = false;
};

// Makes the kernels' copy of the hidden layers from their rows.
void PackNetwork(NetworkWeights& weights);

// Adds (or, with sign -1, removes) a feature's column.
inline void AddFeature(Accumulator& accumulator, const NetworkWeights& weights, int feature,
                       int sign) {
  if (sign > 0) {
    simd::AddColumn(accumulator.data(), weights.features[feature].data());
  } else {
    simd::AddColumn<true>(accumulator.data(), weights.features[feature].data());
  }
}

// `out` = `in` with the feature `added` on and `removed` off, in one pass (`out` may be `in`).
inline void AddAndRemoveFeatures(Accumulator& out, const Accumulator& in,
                                 const NetworkWeights& weights, int added, int removed) {
  simd::AddAndSubtractColumns(out.data(), in.data(), weights.features[added].data(),
                              weights.features[removed].data());
}

// The network's value, centipoints from the side to move's view (without the score
// difference): `us` the side to move's accumulator, `them` the other's. On the build's
// instruction set (search/network_simd.h); the weights packed (PackNetwork).
int NetworkOutput(const Accumulator& us, const Accumulator& them, const NetworkWeights& weights);

// The instruction set of the network's kernels in this build: "avx512_vnni", "avx2",
// "ssse3", "wasm_simd128", "plain", ... (search/network_simd.h).
const char* NetworkKernels();

// The same value by plain loops over the rows: the reference the kernels are tested against.
int ReferenceNetworkOutput(const Accumulator& us, const Accumulator& them,
                           const NetworkWeights& weights);

// Calls visit(feature) for each piece feature of `position` from `perspective`.
template <typename Visitor>
void ForEachPieceFeature(const Position& position, Player perspective, Visitor&& visit) {
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (const std::optional<Piece> piece = position.PieceAt(cell)) {
      visit(network::BoardFeature(cell, piece->owner != perspective, piece->colour));
    }
  }
  for (const Player owner : {Player::kFirst, Player::kSecond}) {
    for (const Kind kind : {Kind::kCity, Kind::kResource}) {
      for (int c = 0; c < kNumColours; ++c) {
        const Colour colour = static_cast<Colour>(c);
        for (int n = 1; n <= position.PiecesLeft(owner, kind, colour); ++n) {
          visit(network::HandFeature(owner != perspective, kind, colour, n));
        }
      }
    }
  }
}

// Calls visit(feature) for each feature of `position` (not a finished one) from `perspective`.
template <typename Visitor>
void ForEachNetworkFeature(const Position& position, Player perspective, Visitor&& visit) {
  ForEachPieceFeature(position, perspective, visit);
  ForEachPatternAs(position, perspective,
                   [&](int pattern, int sign) { visit(network::PatternFeature(pattern, sign)); });
}

// A perspective's accumulator made from scratch.
Accumulator AccumulatorOf(const Position& position, Player perspective,
                          const NetworkWeights& weights);

// The evaluation from scratch: score difference plus the network (side to move's view).
int EvaluateNetwork(const Position& position, const NetworkWeights& weights);

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_NETWORK_H_
