#include "search/network.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "search/value.h"

namespace divercite {
namespace network {

std::string LayoutText() {
  return absl::StrCat("net-1 features=", kPieceFeatures, "+2x", patterns::kNumPatterns,
                      " patterns=", patterns::kLayoutName, " accumulator=", kAccumulator,
                      " hidden=", kHidden1, ",", kHidden2);
}

}  // namespace network

namespace {

// A dense layer over activations in 0..127: (x.w + b) >> 6, clipped to 0..127.
template <std::size_t kIn, std::size_t kOut>
void HiddenLayer(const std::array<std::int16_t, kIn>& in,
                 const std::array<std::array<std::int16_t, kIn>, kOut>& weights,
                 const std::array<std::int32_t, kOut>& bias, std::array<std::int16_t, kOut>& out) {
  for (std::size_t j = 0; j < kOut; ++j) {
    std::int32_t sum = bias[j];
    for (std::size_t i = 0; i < kIn; ++i) sum += in[i] * weights[j][i];
    // An arithmetic shift (C++20): the floor of the division, as the trainer's numpy.
    out[j] = static_cast<std::int16_t>(
        std::clamp(sum >> network::kHiddenShift, 0, network::kActivationMax));
  }
}

std::int64_t FloorDivide(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

int NetworkOutput(const Accumulator& us, const Accumulator& them, const NetworkWeights& weights) {
  using namespace network;
  std::array<std::int16_t, 2 * kAccumulator> input;
  for (int i = 0; i < kAccumulator; ++i) {
    input[i] = static_cast<std::int16_t>(std::clamp<int>(us[i], 0, kActivationMax));
    input[kAccumulator + i] =
        static_cast<std::int16_t>(std::clamp<int>(them[i], 0, kActivationMax));
  }
  std::array<std::int16_t, kHidden1> first;
  HiddenLayer(input, weights.hidden1, weights.hidden1_bias, first);
  std::array<std::int16_t, kHidden2> second;
  HiddenLayer(first, weights.hidden2, weights.hidden2_bias, second);
  std::int32_t out = weights.output_bias;
  for (int i = 0; i < kHidden2; ++i) out += second[i] * weights.output[i];
  // Rounded to the nearest centipoint: (x.w + b) x 100 / (127 x 2^shift).
  const std::int64_t scale = std::int64_t{kActivationMax} << weights.output_shift;
  return static_cast<int>(FloorDivide(std::int64_t{out} * kPoint + scale / 2, scale));
}

Accumulator AccumulatorOf(const Position& position, Player perspective,
                          const NetworkWeights& weights) {
  Accumulator accumulator = weights.feature_bias;
  ForEachNetworkFeature(position, perspective,
                        [&](int feature) { AddFeature(accumulator, weights, feature, 1); });
  return accumulator;
}

int EvaluateNetwork(const Position& position, const NetworkWeights& weights) {
  const Player us = position.SideToMove();
  return ScoreDifference(position) + NetworkOutput(AccumulatorOf(position, us, weights),
                                                   AccumulatorOf(position, Opponent(us), weights),
                                                   weights);
}

}  // namespace divercite
