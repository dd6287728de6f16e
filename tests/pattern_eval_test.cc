#include "tools/tune/pattern_eval.h"

#include <random>
#include <string>

#include "engine/movegen.h"
#include "engine/symmetry.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "tools/tune/pattern_file.h"

namespace divercite {
namespace {

// Weights with a distinct value for every pattern, so that a wrong pattern shows.
PatternWeights DistinctWeights(std::uint64_t seed) {
  PatternWeights weights;
  std::mt19937_64 rng(seed);
  for (PatternWeights::Value& value : weights.values) {
    value.start = static_cast<std::int16_t>(static_cast<int>(rng() % 2001) - 1000);
    value.end = static_cast<std::int16_t>(static_cast<int>(rng() % 2001) - 1000);
  }
  return weights;
}

// The patterns see no colour and no side of the board: the evaluation is the same on every
// image of a position under the 8 board symmetries and the 24 colour permutations.
TEST(PatternEvalTest, InvariantUnderSymmetries) {
  const PatternWeights weights = DistinctWeights(3);
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      if (position.IsGameOver()) continue;
      const int value = EvaluatePatterns(position, weights);
      for (int s = 0; s < kNumBoardSymmetries; ++s) {
        for (int k = 0; k < kNumColourPermutations; k += 5) {
          ASSERT_EQ(EvaluatePatterns(TransformPosition(position, s, k), weights), value);
        }
      }
    }
  }
}

// A weight file written and read back gives the same tables, data and fit.
TEST(EvalFileTest, RoundTrips) {
  PatternWeights weights = DistinctWeights(9);
  weights.data = "some games # with a hash";
  weights.fit = "a fit";
  weights.values[7] = {};  // a zero value is left out of the file and comes back as zero
  const std::string text = FormatPatternFile(weights);
  const absl::StatusOr<PatternWeights> read = ParsePatternFile(text, "test");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, weights);
}

TEST(EvalFileTest, TheCompiledInFileIsValid) {
  const PatternWeights& weights = DefaultPatternWeights();
  EXPECT_FALSE(weights.data.empty());
  EXPECT_EQ(ParsePatternFile(FormatPatternFile(weights), "again").value(), weights);
}

void ExpectRejected(const std::string& text, const std::string& why) {
  const absl::StatusOr<PatternWeights> read = ParsePatternFile(text, "bad.eval");
  ASSERT_FALSE(read.ok()) << "accepted a file that should fail with: " << why;
  EXPECT_NE(read.status().message().find(why), std::string::npos) << read.status();
  EXPECT_NE(read.status().message().find("bad.eval:"), std::string::npos) << read.status();
}

TEST(EvalFileTest, RejectsCorruptFiles) {
  const std::string good = FormatPatternFile(DistinctWeights(11));
  ASSERT_TRUE(ParsePatternFile(good, "good.eval").ok());
  // A digit changed in a value line.
  std::string changed = good;
  const std::size_t value_line = changed.find("\n0 ");
  ASSERT_NE(value_line, std::string::npos);
  changed[value_line + 3] = changed[value_line + 3] == '1' ? '2' : '1';
  ExpectRejected(changed, "checksum");
  // Cut short.
  ExpectRejected(good.substr(0, good.size() / 2), "");
  ExpectRejected(good.substr(0, good.find("values")), "");
  // A description line missing or misnamed.
  std::string no_fit = good;
  no_fit.replace(no_fit.find("\nfit "), 5, "\nfix ");
  ExpectRejected(no_fit, "expected 'fit ...'");
  std::string no_data = good;
  no_data.replace(no_data.find("\ndata "), 6, "\ndat  ");
  ExpectRejected(no_data, "expected 'data ...'");
  // Not a weight file at all.
  ExpectRejected("hello\nchecksum 0000000000000000\n", "not a Divercite weight file");
  ExpectRejected("", "");
  // Another layout or version: refused, naming both.
  std::string other = good;
  const std::string layout = patterns::kLayoutName;
  other.replace(other.find(layout), layout.size(), "patterns-0");
  ExpectRejected(other, "this engine's are");
  std::string version = good;
  version.replace(version.find("divercite-eval 1"), 16, "divercite-eval 9");
  ExpectRejected(version, "version 9");
}

TEST(EvalFileTest, ReadingAMissingFileFails) {
  EXPECT_FALSE(ReadPatternFile("/nonexistent/weights.eval").ok());
}

}  // namespace
}  // namespace divercite
