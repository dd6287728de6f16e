// The bench's node count is the search's signature: it must be the one written in
// search/bench_signature.h. A change of the search's behaviour updates the constant in the
// same commit (and the commit message quotes it); any other change must leave the count alone.
#include "search/bench_signature.h"

#include "engine/position_string.h"
#include "gtest/gtest.h"

namespace divercite {
namespace {

TEST(BenchSignature, BenchPositionsAreValid) {
  for (const absl::string_view text : kBenchPositions) {
    const absl::StatusOr<Position> position = ParsePositionString(text);
    ASSERT_TRUE(position.ok()) << text << ": " << position.status();
    EXPECT_FALSE(position->IsGameOver()) << text;
  }
}

TEST(BenchSignature, NodeCountIsTheSignature) {
  EXPECT_EQ(RunBench(kDefaultBenchDepth).nodes, kBenchSignature)
      << "the search's behaviour changed: if on purpose, update kBenchSignature in "
         "search/bench_signature.h and quote the new count in the commit message";
}

}  // namespace
}  // namespace divercite
