#include "search/network.h"

#include <algorithm>
#include <cassert>

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

// The output layer over the second hidden layer's activations: the value in centipoints,
// rounded to the nearest: (x.w + b) x 100 / (127 x 2^shift).
int OutputLayer(const std::uint8_t* second, const NetworkWeights& weights) {
  std::int32_t out = weights.output_bias;
  for (int i = 0; i < network::kHidden2; ++i) out += second[i] * weights.output[i];
  // floor(a / (127 x 2^shift)) = floor(floor(a / 2^shift) / 127): a shift, then a division
  // by a constant (no division instruction).
  const std::int64_t scaled = std::int64_t{out} * kPoint +
                              (std::int64_t{network::kActivationMax} << weights.output_shift) / 2;
  return static_cast<int>(FloorDivide(scaled >> weights.output_shift, network::kActivationMax));
}

static_assert(network::kHidden1 == simd::kOutputs && network::kHidden2 == simd::kOutputs &&
              network::kAccumulator == simd::kLanes16);

}  // namespace

const char* NetworkKernels() { return simd::kInstructionSet; }

void PackNetwork(NetworkWeights& weights) {
  simd::PackLayer(weights.hidden1[0].data(), 2 * network::kAccumulator,
                  weights.hidden1_blocks.data());
  simd::PackLayer(weights.hidden2[0].data(), network::kHidden1, weights.hidden2_blocks.data());
  weights.hidden1_per_sum =
      simd::ChunksPerSum(weights.hidden1[0].data(), 2 * network::kAccumulator);
  weights.hidden2_per_sum = simd::ChunksPerSum(weights.hidden2[0].data(), network::kHidden1);
  weights.packed = true;
}

int NetworkOutput(const Accumulator& us, const Accumulator& them, const NetworkWeights& weights) {
  using namespace network;
  assert(weights.packed);
  std::uint8_t input[2 * kAccumulator];
  simd::ClipToBytes(us.data(), input);
  simd::ClipToBytes(them.data(), input + kAccumulator);
  std::int32_t sums[simd::kOutputs];
  simd::AddLayer(input, 2 * kAccumulator, weights.hidden1_blocks.data(),
                 weights.hidden1_bias.data(), sums, weights.hidden1_per_sum);
  std::uint8_t first[kHidden1];
  simd::Activate(sums, kHiddenShift, first);
  simd::AddLayer(first, kHidden1, weights.hidden2_blocks.data(), weights.hidden2_bias.data(), sums,
                 weights.hidden2_per_sum);
  std::uint8_t second[kHidden2];
  simd::Activate(sums, kHiddenShift, second);
  return OutputLayer(second, weights);
}

int ReferenceNetworkOutput(const Accumulator& us, const Accumulator& them,
                           const NetworkWeights& weights) {
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
