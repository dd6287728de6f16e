// The network's kernels (search/network_simd.h) against plain loops written here, on random
// inputs at their extremes. This file is compiled once for each instruction set the kernels
// have (tests/CMakeLists.txt: one object per -march, each in its own inline namespace); each
// copy's tests run where this CPU has its instructions and are skipped elsewhere.
#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "search/network_simd.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace divercite::simd {
namespace {

#define DIVERCITE_KERNEL_TEST3(set, name) TEST(NetworkKernels_##set, name)
#define DIVERCITE_KERNEL_TEST2(set, name) DIVERCITE_KERNEL_TEST3(set, name)
#define KERNEL_TEST(name) DIVERCITE_KERNEL_TEST2(DIVERCITE_SIMD_NAMESPACE, name)

// Whether this CPU runs what this copy was compiled for.
bool CpuHasThem() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
#if defined(__AVX512VNNI__)
  if (!__builtin_cpu_supports("avx512vnni")) return false;
#endif
#if defined(__AVX512BW__)
  if (!__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512vl")) return false;
#endif
#if defined(__AVXVNNI__)
  // CPUID leaf 7, subleaf 1, EAX bit 4 (Clang 14's __builtin_cpu_supports knows no "avxvnni").
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) || !((eax >> 4) & 1)) return false;
#endif
#if defined(__AVX2__)
  if (!__builtin_cpu_supports("avx2")) return false;
#endif
#if defined(__SSSE3__)
  if (!__builtin_cpu_supports("ssse3")) return false;
#endif
#endif
  return true;
}

#define SKIP_WITHOUT_THEM() \
  if (!CpuHasThem()) GTEST_SKIP() << "this CPU lacks " << kInstructionSet << "'s instructions"

// A value in lo..hi, the ends twice as likely as any other (the sums' extremes).
int Draw(std::mt19937_64& rng, int lo, int hi) {
  const int pick = static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 5));
  if (pick < 2) return lo;
  if (pick < 4) return hi;
  return lo + (pick - 4);
}

KERNEL_TEST(AddColumnWrapsAsThePlainLoop) {
  SKIP_WITHOUT_THEM();
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<std::int16_t, kLanes16> acc, column;
    for (int i = 0; i < kLanes16; ++i) {
      acc[i] = static_cast<std::int16_t>(Draw(rng, -32768, 32767));
      column[i] = static_cast<std::int16_t>(Draw(rng, -32768, 32767));
    }
    std::array<std::int16_t, kLanes16> added = acc, subtracted = acc;
    AddColumn(added.data(), column.data());
    AddColumn<true>(subtracted.data(), column.data());
    for (int i = 0; i < kLanes16; ++i) {
      ASSERT_EQ(added[i], static_cast<std::int16_t>(acc[i] + column[i])) << i;
      ASSERT_EQ(subtracted[i], static_cast<std::int16_t>(acc[i] - column[i])) << i;
    }
  }
}

KERNEL_TEST(AddAndSubtractColumnsWrapsAsThePlainLoop) {
  SKIP_WITHOUT_THEM();
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<std::int16_t, kLanes16> in, added, removed;
    for (int i = 0; i < kLanes16; ++i) {
      in[i] = static_cast<std::int16_t>(Draw(rng, -32768, 32767));
      added[i] = static_cast<std::int16_t>(Draw(rng, -32768, 32767));
      removed[i] = static_cast<std::int16_t>(Draw(rng, -32768, 32767));
    }
    std::array<std::int16_t, kLanes16> out{}, in_place = in;
    AddAndSubtractColumns(out.data(), in.data(), added.data(), removed.data());
    AddAndSubtractColumns(in_place.data(), in_place.data(), added.data(), removed.data());
    for (int i = 0; i < kLanes16; ++i) {
      const auto expected = static_cast<std::int16_t>(in[i] + added[i] - removed[i]);
      ASSERT_EQ(out[i], expected) << i;
      ASSERT_EQ(in_place[i], expected) << i;
    }
  }
}

KERNEL_TEST(ClipToBytesKeepsTheOrder) {
  SKIP_WITHOUT_THEM();
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 2000; ++trial) {
    std::array<std::int16_t, kLanes16> in;
    for (std::int16_t& v : in) v = static_cast<std::int16_t>(Draw(rng, -32768, 32767) / 97);
    std::array<std::uint8_t, kLanes16> out;
    ClipToBytes(in.data(), out.data());
    for (int i = 0; i < kLanes16; ++i) ASSERT_EQ(out[i], std::clamp<int>(in[i], 0, 127)) << i;
  }
}

KERNEL_TEST(ActivateShiftsAndClipsInOrder) {
  SKIP_WITHOUT_THEM();
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    const int shift = Draw(rng, 0, 14);
    std::array<std::int32_t, kOutputs> sums;
    for (std::int32_t& v : sums) {
      // Around the clip's ends mostly, and the int32 extremes.
      v = rng() % 4 == 0 ? Draw(rng, -2'147'483'647 - 1, 2'147'483'647)
                         : Draw(rng, -300, 300) * (1 << shift) + Draw(rng, -3, 3);
    }
    std::array<std::uint8_t, kOutputs> out;
    Activate(sums.data(), shift, out.data());
    for (int j = 0; j < kOutputs; ++j) {
      ASSERT_EQ(out[j], std::clamp(sums[j] >> shift, 0, 127)) << j << " shift " << shift;
    }
  }
}

// A layer of 16 outputs over `inputs` inputs, its weights within +/- max_weight: packed and
// summed by the kernel, with each number of chunks summed in int16 that ChunksPerSum allows,
// against the rows' dot products. The inputs are at their ends (0 or 127) half the time, where
// the int16 sums are largest. Returns the largest ChunksPerSum seen (the weights' range sets
// how many chunks are ever summed in int16: with +/- 127, one; with +/- 4, all 16).
int CheckLayer(int inputs, std::uint64_t seed, int max_weight) {
  std::mt19937_64 rng(seed);
  int largest = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::int16_t> rows(kOutputs * inputs);
    for (std::int16_t& w : rows) w = static_cast<std::int16_t>(Draw(rng, -max_weight, max_weight));
    std::vector<std::uint8_t> in(inputs);
    const bool at_ends = trial % 2 == 0;
    for (std::uint8_t& x : in) {
      x = static_cast<std::uint8_t>(at_ends ? 127 * (rng() % 2) : Draw(rng, 0, 127));
    }
    std::array<std::int32_t, kOutputs> bias, expected;
    for (int j = 0; j < kOutputs; ++j) {
      bias[j] = expected[j] = Draw(rng, -1'000'000'000, 1'000'000'000);
      for (int i = 0; i < inputs; ++i) expected[j] += in[i] * rows[j * inputs + i];
    }
    std::vector<std::int8_t> blocks(kOutputs * inputs);
    PackLayer(rows.data(), inputs, blocks.data());
    const int per_sum = ChunksPerSum(rows.data(), inputs);
    largest = std::max(largest, per_sum);
    for (int n = 1; n <= per_sum; n *= 2) {
      std::array<std::int32_t, kOutputs> sums;
      AddLayer(in.data(), inputs, blocks.data(), bias.data(), sums.data(), n);
      if (sums != expected) {
        ADD_FAILURE() << "trial " << trial << ", " << n << " chunks summed in int16";
        return largest;
      }
    }
  }
  return largest;
}

KERNEL_TEST(TheFirstHiddenLayerEqualsItsDotProducts) {
  SKIP_WITHOUT_THEM();
  EXPECT_EQ(CheckLayer(64, 3, 127), 1);
  EXPECT_GE(CheckLayer(64, 6, 20), 2);
  EXPECT_EQ(CheckLayer(64, 7, 4), 16);
}

KERNEL_TEST(TheSecondHiddenLayerEqualsItsDotProducts) {
  SKIP_WITHOUT_THEM();
  EXPECT_EQ(CheckLayer(16, 4, 127), 1);
  EXPECT_GE(CheckLayer(16, 8, 12), 2);
  EXPECT_EQ(CheckLayer(16, 9, 4), 4);
}

// A lane's weights over n chunks may sum to 258 either way (127 x 258 = 32,766), not 259.
KERNEL_TEST(ChunksPerSumStopsWhereALaneCouldOverflow) {
  constexpr int kInputs = 16;  // 4 chunks
  for (const int sign : {1, -1}) {
    std::array<std::int16_t, kOutputs * kInputs> rows{};
    // Output 5's second lane (inputs 4c + 2 and 4c + 3) over chunks 0 and 1: 258.
    std::int16_t* row = rows.data() + 5 * kInputs;
    row[2] = row[3] = static_cast<std::int16_t>(65 * sign);
    row[6] = row[7] = static_cast<std::int16_t>(64 * sign);
    EXPECT_EQ(ChunksPerSum(rows.data(), kInputs), 4) << sign;
    row[10] = static_cast<std::int16_t>(sign);  // chunk 2: the four chunks sum to 259
    EXPECT_EQ(ChunksPerSum(rows.data(), kInputs), 2) << sign;
    row[6] = static_cast<std::int16_t>(65 * sign);  // chunks 0 and 1: 259
    EXPECT_EQ(ChunksPerSum(rows.data(), kInputs), 1) << sign;
    row[10] = static_cast<std::int16_t>(-sign);  // the other sign does not make room
    EXPECT_EQ(ChunksPerSum(rows.data(), kInputs), 1) << sign;
  }
}

}  // namespace
}  // namespace divercite::simd
