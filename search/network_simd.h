// The network's kernels (search/network.h) on the build's instruction set, chosen at compile
// time: AVX-512 (x86-64-v4, with VNNI where the level or CPU has it), AVX2 (x86-64-v3, with
// AVX-VNNI where there), SSSE3 (x86-64-v2), WebAssembly SIMD128, else plain loops. Every kernel
// computes the same integers as the plain loops (tests/network_kernels_test.cc checks each
// instruction set the CPU has): no sum here can overflow its lanes, so the order of the additions
// changes nothing, and the search's nodes are the same on every target (the bench signature).
//
// The kernels live in an inline namespace named after their instruction set, so that files
// compiled for different levels (the kernels' test) never share a definition by mistake.
#ifndef DIVERCITE_SEARCH_NETWORK_SIMD_H_
#define DIVERCITE_SEARCH_NETWORK_SIMD_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__AVX512BW__) && defined(__AVX512VL__)
#define DIVERCITE_SIMD_AVX512 1
#include <immintrin.h>
#elif defined(__AVX2__)
#define DIVERCITE_SIMD_AVX2 1
#include <immintrin.h>
#elif defined(__SSSE3__)
#define DIVERCITE_SIMD_SSSE3 1
#include <tmmintrin.h>
#elif defined(__wasm_simd128__)
#define DIVERCITE_SIMD_WASM 1
#include <wasm_simd128.h>
#endif

#if defined(DIVERCITE_SIMD_AVX512) && defined(__AVX512VNNI__)
#define DIVERCITE_SIMD_NAMESPACE avx512_vnni
#elif defined(DIVERCITE_SIMD_AVX512)
#define DIVERCITE_SIMD_NAMESPACE avx512
#elif defined(DIVERCITE_SIMD_AVX2) && defined(__AVXVNNI__)
#define DIVERCITE_SIMD_NAMESPACE avx2_vnni
#elif defined(DIVERCITE_SIMD_AVX2)
#define DIVERCITE_SIMD_NAMESPACE avx2
#elif defined(DIVERCITE_SIMD_SSSE3)
#define DIVERCITE_SIMD_NAMESPACE ssse3
#elif defined(DIVERCITE_SIMD_WASM)
#define DIVERCITE_SIMD_NAMESPACE wasm_simd128
#else
#define DIVERCITE_SIMD_NAMESPACE plain
#endif

// The kernels inlined into the network's layers whatever the compiler's estimate of their size:
// a call costs more than most of them, and its unknown sizes keep the loops from unrolling.
#if defined(__GNUC__)
#define DIVERCITE_SIMD_INLINE inline __attribute__((always_inline))
#else
#define DIVERCITE_SIMD_INLINE inline
#endif

#define DIVERCITE_SIMD_STRING2(x) #x
#define DIVERCITE_SIMD_STRING(x) DIVERCITE_SIMD_STRING2(x)

namespace divercite::simd {
inline namespace DIVERCITE_SIMD_NAMESPACE {

// The instruction set of these kernels, as `divercite` prints it (e.g. "avx2").
inline constexpr const char* kInstructionSet = DIVERCITE_SIMD_STRING(DIVERCITE_SIMD_NAMESPACE);

// An accumulator's 32 int16 values.
inline constexpr int kLanes16 = 32;
// A layer's outputs: its int32 sums are kept 16 at a time.
inline constexpr int kOutputs = 16;
// A layer's inputs are taken 4 bytes at a time (a dot product of 4 int8 pairs per output).
inline constexpr int kChunk = 4;

// The weights of a layer of 16 outputs over `inputs` inputs, in the kernels' order: for each
// chunk of 4 inputs, the 16 outputs' 4 weights (64 bytes): block c holds w[j][4c + k] at
// 4j + k.
inline void PackLayer(const std::int16_t* rows, int inputs, std::int8_t* blocks) {
  for (int c = 0; c < inputs / kChunk; ++c) {
    for (int j = 0; j < kOutputs; ++j) {
      for (int k = 0; k < kChunk; ++k) {
        blocks[(c * kOutputs + j) * kChunk + k] =
            static_cast<std::int8_t>(rows[j * inputs + c * kChunk + k]);
      }
    }
  }
}

// A register of int16 lanes on this instruction set, and its loads, stores, adds and
// subtractions (wrapping); plain builds have none and loop over the lanes.
#if defined(DIVERCITE_SIMD_AVX512)
using Vec16 = __m512i;
inline Vec16 Load16(const std::int16_t* p) { return _mm512_loadu_si512(p); }
inline void Store16(std::int16_t* p, Vec16 v) { _mm512_storeu_si512(p, v); }
inline Vec16 Add16(Vec16 a, Vec16 b) { return _mm512_add_epi16(a, b); }
inline Vec16 Sub16(Vec16 a, Vec16 b) { return _mm512_sub_epi16(a, b); }
#elif defined(DIVERCITE_SIMD_AVX2)
using Vec16 = __m256i;
inline Vec16 Load16(const std::int16_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
inline void Store16(std::int16_t* p, Vec16 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}
inline Vec16 Add16(Vec16 a, Vec16 b) { return _mm256_add_epi16(a, b); }
inline Vec16 Sub16(Vec16 a, Vec16 b) { return _mm256_sub_epi16(a, b); }
#elif defined(DIVERCITE_SIMD_SSSE3)
using Vec16 = __m128i;
inline Vec16 Load16(const std::int16_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline void Store16(std::int16_t* p, Vec16 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
inline Vec16 Add16(Vec16 a, Vec16 b) { return _mm_add_epi16(a, b); }
inline Vec16 Sub16(Vec16 a, Vec16 b) { return _mm_sub_epi16(a, b); }
#elif defined(DIVERCITE_SIMD_WASM)
using Vec16 = v128_t;
inline Vec16 Load16(const std::int16_t* p) { return wasm_v128_load(p); }
inline void Store16(std::int16_t* p, Vec16 v) { wasm_v128_store(p, v); }
inline Vec16 Add16(Vec16 a, Vec16 b) { return wasm_i16x8_add(a, b); }
inline Vec16 Sub16(Vec16 a, Vec16 b) { return wasm_i16x8_sub(a, b); }
#endif
#if defined(DIVERCITE_SIMD_AVX512) || defined(DIVERCITE_SIMD_AVX2) || \
    defined(DIVERCITE_SIMD_SSSE3) || defined(DIVERCITE_SIMD_WASM)
#define DIVERCITE_SIMD_VEC16 1
#endif

// acc += column (or -= with Subtract), 32 int16 lanes (wrapping, as the plain loop's casts).
template <bool kSubtract = false>
inline void AddColumn(std::int16_t* acc, const std::int16_t* column) {
#if defined(DIVERCITE_SIMD_VEC16)
  constexpr int kWidth = sizeof(Vec16) / sizeof(std::int16_t);
  for (int i = 0; i < kLanes16; i += kWidth) {
    const Vec16 a = Load16(acc + i), c = Load16(column + i);
    Store16(acc + i, kSubtract ? Sub16(a, c) : Add16(a, c));
  }
#else
  for (int i = 0; i < kLanes16; ++i) {
    acc[i] = static_cast<std::int16_t>(kSubtract ? acc[i] - column[i] : acc[i] + column[i]);
  }
#endif
}

// out = in + added - removed, 32 int16 lanes (wrapping); `out` may be `in`. A move's piece in
// one pass (its board feature on, its hand feature off), and a child's accumulator made from
// its parent's without copying it first.
inline void AddAndSubtractColumns(std::int16_t* out, const std::int16_t* in,
                                  const std::int16_t* added, const std::int16_t* removed) {
#if defined(DIVERCITE_SIMD_VEC16)
  constexpr int kWidth = sizeof(Vec16) / sizeof(std::int16_t);
  for (int i = 0; i < kLanes16; i += kWidth) {
    Store16(out + i, Sub16(Add16(Load16(in + i), Load16(added + i)), Load16(removed + i)));
  }
#else
  for (int i = 0; i < kLanes16; ++i) {
    out[i] = static_cast<std::int16_t>(in[i] + added[i] - removed[i]);
  }
#endif
}

// out[i] = in[i] clipped to 0..127, as bytes, for 32 values.
inline void ClipToBytes(const std::int16_t* in, std::uint8_t* out) {
#if defined(DIVERCITE_SIMD_AVX512)
  const __m512i v = _mm512_loadu_si512(in);
  // The masked form: GCC 12 takes the plain one's undefined upper half for a read of an
  // uninitialised value (-Wmaybe-uninitialized).
  const __m512i clipped =
      _mm512_min_epi16(_mm512_max_epi16(v, _mm512_setzero_si512()), _mm512_set1_epi16(127));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm512_maskz_cvtepi16_epi8(~__mmask32{0}, clipped));
#elif defined(DIVERCITE_SIMD_AVX2)
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 16));
  // packus saturates to 0..255 within each 128-bit half: clip the top, then put the halves
  // back in order.
  const __m256i top = _mm256_set1_epi16(127);
  const __m256i packed = _mm256_packus_epi16(_mm256_min_epi16(lo, top), _mm256_min_epi16(hi, top));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_permute4x64_epi64(packed, 0b11011000));
#elif defined(DIVERCITE_SIMD_SSSE3)
  const __m128i top = _mm_set1_epi16(127);
  for (int i = 0; i < kLanes16; i += 16) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + 8));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                     _mm_packus_epi16(_mm_min_epi16(lo, top), _mm_min_epi16(hi, top)));
  }
#elif defined(DIVERCITE_SIMD_WASM)
  const v128_t top = wasm_i16x8_splat(127);
  for (int i = 0; i < kLanes16; i += 16) {
    const v128_t lo = wasm_i16x8_min(wasm_v128_load(in + i), top);
    const v128_t hi = wasm_i16x8_min(wasm_v128_load(in + i + 8), top);
    wasm_v128_store(out + i, wasm_u8x16_narrow_i16x8(lo, hi));
  }
#else
  for (int i = 0; i < kLanes16; ++i) {
    out[i] = static_cast<std::uint8_t>(std::clamp<int>(in[i], 0, 127));
  }
#endif
}

// out[j] = (sums[j] >> shift) clipped to 0..127, for a layer's 16 outputs: its activations.
inline void Activate(const std::int32_t* sums, int shift, std::uint8_t* out) {
// AVX-512 too: its 512-bit shift and clips take GCC 12's undefined upper lanes for reads of
// uninitialised values (-Wmaybe-uninitialized), and 16 sums fit two 256-bit registers.
#if defined(DIVERCITE_SIMD_AVX512) || defined(DIVERCITE_SIMD_AVX2)
  const __m128i count = _mm_cvtsi32_si128(shift);
  const __m256i lo =
      _mm256_sra_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums)), count);
  const __m256i hi =
      _mm256_sra_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums + 8)), count);
  // packs saturates to int16 within each 128-bit half: put the halves back in order, clip
  // the top, and packus clips the bottom at 0.
  const __m256i words = _mm256_min_epi16(
      _mm256_permute4x64_epi64(_mm256_packs_epi32(lo, hi), 0b11011000), _mm256_set1_epi16(127));
  _mm_storeu_si128(
      reinterpret_cast<__m128i*>(out),
      _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1)));
#elif defined(DIVERCITE_SIMD_SSSE3)
  const __m128i count = _mm_cvtsi32_si128(shift);
  __m128i words[2];
  for (int h = 0; h < 2; ++h) {
    const __m128i lo =
        _mm_sra_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sums + 8 * h)), count);
    const __m128i hi =
        _mm_sra_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sums + 8 * h + 4)), count);
    words[h] = _mm_min_epi16(_mm_packs_epi32(lo, hi), _mm_set1_epi16(127));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_packus_epi16(words[0], words[1]));
#elif defined(DIVERCITE_SIMD_WASM)
  v128_t words[2];
  for (int h = 0; h < 2; ++h) {
    const v128_t lo = wasm_i32x4_shr(wasm_v128_load(sums + 8 * h), shift);
    const v128_t hi = wasm_i32x4_shr(wasm_v128_load(sums + 8 * h + 4), shift);
    words[h] = wasm_i16x8_min(wasm_i16x8_narrow_i32x4(lo, hi), wasm_i16x8_splat(127));
  }
  wasm_v128_store(out, wasm_u8x16_narrow_i16x8(words[0], words[1]));
#else
  for (int j = 0; j < kOutputs; ++j) {
    out[j] = static_cast<std::uint8_t>(std::clamp(sums[j] >> shift, 0, 127));
  }
#endif
}

// The largest number of consecutive chunks (a power of two dividing inputs / 4) whose
// products a layer's int16 lanes can sum exactly, whatever its inputs in 0..127: each lane
// holds, for one output, the products of two inputs a chunk (inputs 4c + 2k and 4c + 2k + 1,
// k = 0 or 1), so its sum over n chunks lies between 127 x its negative weights' sum and 127 x
// its positive weights' sum. AddLayer widens such a sum to int32 once per n chunks instead of
// once per chunk (where no dot-product instruction does both): the same integers, fewer
// instructions.
inline int ChunksPerSum(const std::int16_t* rows, int inputs) {
  const int chunks = inputs / kChunk;
  int best = 1;
  for (int n = 2; n <= chunks && chunks % n == 0; n *= 2) {
    for (int j = 0; j < kOutputs; ++j) {
      for (int first = 0; first < chunks; first += n) {
        for (int k = 0; k < 2; ++k) {
          int positive = 0, negative = 0;
          for (int c = first; c < first + n; ++c) {
            for (int m = 0; m < 2; ++m) {
              const int w = rows[j * inputs + c * kChunk + 2 * k + m];
              (w > 0 ? positive : negative) += w;
            }
          }
          if (127 * positive > 32767 || 127 * negative < -32768) return best;
        }
      }
    }
    best = n;
  }
  return best;
}

namespace internal {

// AddLayer with `kPerSum` chunks summed in int16 before each widening to int32.
template <int kPerSum>
DIVERCITE_SIMD_INLINE void AddLayerSummed(const std::uint8_t* in, int inputs,
                                          const std::int8_t* blocks, const std::int32_t* bias,
                                          std::int32_t* sums) {
  const int chunks = inputs / kChunk;
#if defined(__GNUC__) && (defined(DIVERCITE_SIMD_AVX512) || defined(DIVERCITE_SIMD_AVX2))
  // The inputs read again from memory: each chunk's broadcast is then a load (vpbroadcastd
  // from memory), where the compiler would otherwise take it out of a register with two
  // shuffles, on the port the multiply-adds' broadcasts share.
  asm volatile("" : : "r"(in) : "memory");
#endif
#if defined(DIVERCITE_SIMD_AVX512) && defined(__AVX512VNNI__)
  // Four chains of sums (a multiply-add waits for the one before it on its register), added
  // at the end; the layers' chunks come in fours. The dot product widens itself: no kPerSum.
  __m512i acc[4] = {_mm512_loadu_si512(bias), _mm512_setzero_si512(), _mm512_setzero_si512(),
                    _mm512_setzero_si512()};
  for (int c = 0; c < chunks; ++c) {
    std::int32_t four;
    std::memcpy(&four, in + c * kChunk, sizeof four);
    acc[c % 4] = _mm512_dpbusd_epi32(acc[c % 4], _mm512_set1_epi32(four),
                                     _mm512_loadu_si512(blocks + c * kOutputs * kChunk));
  }
  _mm512_storeu_si512(
      sums, _mm512_add_epi32(_mm512_add_epi32(acc[0], acc[1]), _mm512_add_epi32(acc[2], acc[3])));
#elif defined(DIVERCITE_SIMD_AVX512)
  __m512i acc = _mm512_loadu_si512(bias);
  for (int first = 0; first < chunks; first += kPerSum) {
    __m512i part = _mm512_setzero_si512();
    for (int c = first; c < std::min(first + kPerSum, chunks); ++c) {
      std::int32_t four;
      std::memcpy(&four, in + c * kChunk, sizeof four);
      part = _mm512_add_epi16(
          part, _mm512_maddubs_epi16(_mm512_set1_epi32(four),
                                     _mm512_loadu_si512(blocks + c * kOutputs * kChunk)));
    }
    acc = _mm512_add_epi32(acc, _mm512_madd_epi16(part, _mm512_set1_epi16(1)));
  }
  _mm512_storeu_si512(sums, acc);
#elif defined(DIVERCITE_SIMD_AVX2) && defined(__AVXVNNI__)
  // Two chains for each half of the outputs, added at the end (no kPerSum, as AVX-512 VNNI).
  __m256i acc[2][2] = {{_mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias)),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8))},
                       {_mm256_setzero_si256(), _mm256_setzero_si256()}};
  for (int c = 0; c < chunks; ++c) {
    std::int32_t four;
    std::memcpy(&four, in + c * kChunk, sizeof four);
    const __m256i x = _mm256_set1_epi32(four);
    const std::int8_t* block = blocks + c * kOutputs * kChunk;
    for (int h = 0; h < 2; ++h) {
      acc[c % 2][h] = _mm256_dpbusd_avx_epi32(
          acc[c % 2][h], x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32 * h)));
    }
  }
  for (int h = 0; h < 2; ++h) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums + 8 * h),
                        _mm256_add_epi32(acc[0][h], acc[1][h]));
  }
#elif defined(DIVERCITE_SIMD_AVX2)
  __m256i acc[2] = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias)),
                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bias + 8))};
  for (int first = 0; first < chunks; first += kPerSum) {
    __m256i part[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
    for (int c = first; c < std::min(first + kPerSum, chunks); ++c) {
      std::int32_t four;
      std::memcpy(&four, in + c * kChunk, sizeof four);
      const __m256i x = _mm256_set1_epi32(four);
      const std::int8_t* block = blocks + c * kOutputs * kChunk;
      for (int h = 0; h < 2; ++h) {
        const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32 * h));
        part[h] = _mm256_add_epi16(part[h], _mm256_maddubs_epi16(x, w));
      }
    }
    for (int h = 0; h < 2; ++h) {
      acc[h] = _mm256_add_epi32(acc[h], _mm256_madd_epi16(part[h], _mm256_set1_epi16(1)));
    }
  }
  for (int h = 0; h < 2; ++h) _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums + 8 * h), acc[h]);
#elif defined(DIVERCITE_SIMD_SSSE3)
  __m128i acc[4];
  for (int q = 0; q < 4; ++q) {
    acc[q] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bias + 4 * q));
  }
  for (int first = 0; first < chunks; first += kPerSum) {
    __m128i part[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(),
                       _mm_setzero_si128()};
    for (int c = first; c < std::min(first + kPerSum, chunks); ++c) {
      std::int32_t four;
      std::memcpy(&four, in + c * kChunk, sizeof four);
      const __m128i x = _mm_set1_epi32(four);
      const std::int8_t* block = blocks + c * kOutputs * kChunk;
      for (int q = 0; q < 4; ++q) {
        const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * q));
        part[q] = _mm_add_epi16(part[q], _mm_maddubs_epi16(x, w));
      }
    }
    for (int q = 0; q < 4; ++q) {
      acc[q] = _mm_add_epi32(acc[q], _mm_madd_epi16(part[q], _mm_set1_epi16(1)));
    }
  }
  for (int q = 0; q < 4; ++q) _mm_storeu_si128(reinterpret_cast<__m128i*>(sums + 4 * q), acc[q]);
#elif defined(DIVERCITE_SIMD_WASM)
  v128_t acc[4];
  for (int q = 0; q < 4; ++q) acc[q] = wasm_v128_load(bias + 4 * q);
  for (int first = 0; first < chunks; first += kPerSum) {
    // Each output's products as int16, a lane per weight: block q's low half holds outputs
    // 4q and 4q + 1, its high half 4q + 2 and 4q + 3, four weights each.
    v128_t low[4], high[4];
    for (int q = 0; q < 4; ++q) low[q] = high[q] = wasm_i16x8_splat(0);
    for (int c = first; c < std::min(first + kPerSum, chunks); ++c) {
      std::int32_t four;
      std::memcpy(&four, in + c * kChunk, sizeof four);
      // The 4 inputs twice, widened to int16 (the same for each half of a block's 16 bytes).
      const v128_t x = wasm_u16x8_extend_low_u8x16(wasm_i32x4_splat(four));
      const std::int8_t* block = blocks + c * kOutputs * kChunk;
      for (int q = 0; q < 4; ++q) {
        const v128_t w = wasm_v128_load(block + 16 * q);
        low[q] = wasm_i16x8_add(low[q], wasm_i16x8_mul(wasm_i16x8_extend_low_i8x16(w), x));
        high[q] = wasm_i16x8_add(high[q], wasm_i16x8_mul(wasm_i16x8_extend_high_i8x16(w), x));
      }
    }
    for (int q = 0; q < 4; ++q) {
      // Pairs of lanes summed to int32: two per output, added by the shuffles.
      const v128_t pairs_low = wasm_i32x4_extadd_pairwise_i16x8(low[q]);
      const v128_t pairs_high = wasm_i32x4_extadd_pairwise_i16x8(high[q]);
      acc[q] = wasm_i32x4_add(
          acc[q], wasm_i32x4_add(wasm_i32x4_shuffle(pairs_low, pairs_high, 0, 2, 4, 6),
                                 wasm_i32x4_shuffle(pairs_low, pairs_high, 1, 3, 5, 7)));
    }
  }
  for (int q = 0; q < 4; ++q) wasm_v128_store(sums + 4 * q, acc[q]);
#else
  std::copy(bias, bias + kOutputs, sums);
  for (int c = 0; c < chunks; ++c) {
    const std::int8_t* block = blocks + c * kOutputs * kChunk;
    for (int j = 0; j < kOutputs; ++j) {
      for (int k = 0; k < kChunk; ++k) {
        sums[j] += in[c * kChunk + k] * block[j * kChunk + k];
      }
    }
  }
#endif
}

}  // namespace internal

// Whether this instruction set's kernel takes ChunksPerSum: without a dot product that
// widens to int32 itself (VNNI), or no multiply-add at all (plain loops).
#if (defined(DIVERCITE_SIMD_AVX512) && !defined(__AVX512VNNI__)) ||                             \
    (defined(DIVERCITE_SIMD_AVX2) && !defined(__AVXVNNI__)) || defined(DIVERCITE_SIMD_SSSE3) || \
    defined(DIVERCITE_SIMD_WASM)
inline constexpr bool kSumsInInt16 = true;
#else
inline constexpr bool kSumsInInt16 = false;
#endif

// sums[j] = bias[j] + sum over i < inputs of in[i] x w[j][i], for the 16 outputs j of a layer
// packed by PackLayer; `in` holds values 0..127 (so that a pair of products fits an int16 lane),
// and `per_sum` is the layer's ChunksPerSum (or a smaller power of two).
DIVERCITE_SIMD_INLINE void AddLayer(const std::uint8_t* in, int inputs, const std::int8_t* blocks,
                                    const std::int32_t* bias, std::int32_t* sums, int per_sum) {
  if constexpr (kSumsInInt16) {
    switch (per_sum) {
      case 16:
        return internal::AddLayerSummed<16>(in, inputs, blocks, bias, sums);
      case 8:
        return internal::AddLayerSummed<8>(in, inputs, blocks, bias, sums);
      case 4:
        return internal::AddLayerSummed<4>(in, inputs, blocks, bias, sums);
      case 2:
        return internal::AddLayerSummed<2>(in, inputs, blocks, bias, sums);
      default:
        return internal::AddLayerSummed<1>(in, inputs, blocks, bias, sums);
    }
  } else {
    internal::AddLayerSummed<1>(in, inputs, blocks, bias, sums);
  }
}

}  // namespace DIVERCITE_SIMD_NAMESPACE
}  // namespace divercite::simd

#endif  // DIVERCITE_SEARCH_NETWORK_SIMD_H_
