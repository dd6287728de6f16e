#include "search/network.h"

#include <memory>
#include <random>
#include <string>

#include "absl/strings/str_join.h"
#include "engine/movegen.h"
#include "gtest/gtest.h"
#include "search/default_network_text.h"
#include "search/network_eval_state.h"
#include "search/network_file.h"
#include "tests/reference_games.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

// A network with a distinct random value everywhere, so that a wrong feature shows.
// A network of random weights, the hidden layers' within +/- hidden_limit.
std::shared_ptr<NetworkWeights> RandomNetwork(std::uint64_t seed, int hidden_limit = 127) {
  auto weights = std::make_shared<NetworkWeights>();
  std::mt19937_64 rng(seed);
  auto value = [&](int limit) { return static_cast<int>(rng() % (2 * limit + 1)) - limit; };
  for (Accumulator& column : weights->features) {
    for (std::int16_t& v : column) v = static_cast<std::int16_t>(value(60));
  }
  for (std::int16_t& v : weights->feature_bias) v = static_cast<std::int16_t>(value(60));
  for (auto& row : weights->hidden1) {
    for (std::int16_t& v : row) v = static_cast<std::int16_t>(value(hidden_limit));
  }
  for (std::int32_t& v : weights->hidden1_bias) v = value(20000);
  for (auto& row : weights->hidden2) {
    for (std::int16_t& v : row) v = static_cast<std::int16_t>(value(hidden_limit));
  }
  for (std::int32_t& v : weights->hidden2_bias) v = value(20000);
  for (std::int16_t& v : weights->output) v = static_cast<std::int16_t>(value(127));
  weights->output_bias = value(20000);
  weights->output_shift = 7;
  weights->data = "random data";
  weights->fit = "random fit";
  PackNetwork(*weights);
  return weights;
}

// The accumulators carried from move to move (NetworkEvalState), and every third child's
// evaluation from its parent's state, equal the evaluation from scratch along 200 random games.
TEST(NetworkTest, IncrementalEqualsFromScratchAlongRandomGames) {
  const std::shared_ptr<NetworkWeights> weights = RandomNetwork(3);
  int positions = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    Position position = Position::Start();
    NetworkEvalState state(position, *weights);
    while (!position.IsGameOver()) {
      ASSERT_EQ(state.Evaluate(position, *weights), EvaluateNetwork(position, *weights))
          << "seed " << seed << " ply " << position.Ply();
      const MoveList moves = LegalMoves(position);
      for (int i = 0; i < moves.size(); i += 3) {
        Position child = position;
        child.Play(moves[i]);
        if (child.IsGameOver()) continue;
        ASSERT_EQ(state.EvaluateAfter(child, moves[i], *weights), EvaluateNetwork(child, *weights))
            << "seed " << seed << " ply " << position.Ply() << " move " << MoveToString(moves[i]);
      }
      const Move move = moves[static_cast<int>(rng() % moves.size())];
      Position next = position;
      next.Play(move);
      state = state.After(next, move, *weights);
      position = next;
      ++positions;
    }
  }
  EXPECT_GT(positions, 7000);
}

// The build's kernels (search/network_simd.h) give the plain loops' value: `weights`'s
// network on every position of `positions` (not finished), from both accumulators' orders.
void ExpectKernelsEqualTheReference(const std::vector<Position>& positions,
                                    const NetworkWeights& weights, int& compared) {
  for (const Position& position : positions) {
    if (position.IsGameOver()) continue;
    const Accumulator first = AccumulatorOf(position, Player::kFirst, weights);
    const Accumulator second = AccumulatorOf(position, Player::kSecond, weights);
    ASSERT_EQ(NetworkOutput(first, second, weights),
              ReferenceNetworkOutput(first, second, weights));
    ASSERT_EQ(NetworkOutput(second, first, weights),
              ReferenceNetworkOutput(second, first, weights));
    ++compared;
  }
}

TEST(NetworkTest, KernelsEqualThePlainLoopsOnTheReferenceGames) {
  int compared = 0;
  for (const std::vector<std::string>& moves : testing::ReferenceGames(1000)) {
    std::vector<Position> positions = {Position::Start()};
    for (const std::string& text : moves) {
      const absl::StatusOr<Move> move = ParseMove(text);
      ASSERT_TRUE(move.ok() && positions.back().IsLegal(*move)) << text;
      positions.push_back(positions.back());
      positions.back().Play(*move);
    }
    ASSERT_NO_FATAL_FAILURE(
        ExpectKernelsEqualTheReference(positions, *DefaultNetworkWeights(), compared));
  }
  EXPECT_GT(compared, 1000);
}

// Random weights at their extremes reach sums the trained network never does; small ones let
// the kernels sum several chunks in int16 (simd::ChunksPerSum), as the trained network's do.
TEST(NetworkTest, KernelsEqualThePlainLoopsWithRandomWeights) {
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const std::shared_ptr<NetworkWeights> weights =
        RandomNetwork(100 + seed, seed % 2 == 0 ? 127 : 4 + static_cast<int>(seed % 7));
    ASSERT_NO_FATAL_FAILURE(
        ExpectKernelsEqualTheReference(testing::RandomGame(seed), *weights, compared));
  }
  EXPECT_GT(compared, 1500);
  EXPECT_EQ(RandomNetwork(1, 127)->hidden1_per_sum, 1);
  EXPECT_EQ(RandomNetwork(1, 4)->hidden1_per_sum, 16);
}

// Every position has 40 piece features from each perspective (each piece on the board or in
// hand), and a perspective's features do not depend on who is to move.
TEST(NetworkTest, FortyPieceFeaturesFromEachPerspective) {
  for (const Position& position : testing::RandomGame(7)) {
    for (const Player p : {Player::kFirst, Player::kSecond}) {
      int count = 0;
      ForEachPieceFeature(position, p, [&](int feature) {
        EXPECT_GE(feature, 0);
        EXPECT_LT(feature, network::kPieceFeatures);
        ++count;
      });
      EXPECT_EQ(count, 40);
    }
  }
}

TEST(NetworkFileTest, RoundTrips) {
  const std::shared_ptr<NetworkWeights> weights = RandomNetwork(5);
  weights->features[17] = {};  // a zero column is left out of the file and comes back as zero
  const std::string text = FormatNetworkFile(*weights);
  const absl::StatusOr<std::shared_ptr<const NetworkWeights>> read = ParseNetworkFile(text, "t");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(FormatNetworkFile(**read), text);
  EXPECT_EQ((*read)->features[17], Accumulator{});
  EXPECT_EQ((*read)->features[18], weights->features[18]);
  EXPECT_EQ((*read)->hidden2[network::kHidden2 - 1], weights->hidden2[network::kHidden2 - 1]);
  EXPECT_EQ((*read)->output_shift, 7);
}

// The compiled-in network is a valid file whose text the engine writes back the same way
// (the trainer's export and FormatNetworkFile agree), and it is the default evaluation.
TEST(NetworkFileTest, TheCompiledInNetworkIsValid) {
  const std::shared_ptr<const NetworkWeights> weights = DefaultNetworkWeights();
  EXPECT_FALSE(weights->data.empty());
  const std::string text = FormatNetworkFile(*weights);
  const absl::StatusOr<std::shared_ptr<const NetworkWeights>> again =
      ParseNetworkFile(text, "again");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(FormatNetworkFile(**again), text);
  EXPECT_EQ(text, absl::StrJoin(kDefaultNetworkText, ""))
      << "the trainer's export and the engine's format differ";
  EXPECT_EQ(DefaultNetworkWeights(), weights);
}

void ExpectRejected(const std::string& text, const std::string& why) {
  const absl::StatusOr<std::shared_ptr<const NetworkWeights>> read =
      ParseNetworkFile(text, "bad.net");
  ASSERT_FALSE(read.ok()) << "accepted a file that should fail with: " << why;
  EXPECT_NE(read.status().message().find(why), std::string::npos) << read.status();
  EXPECT_NE(read.status().message().find("bad.net:"), std::string::npos) << read.status();
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(NetworkFileTest, RejectsCorruptFiles) {
  const std::string good = FormatNetworkFile(*RandomNetwork(11));
  ASSERT_TRUE(ParseNetworkFile(good, "good.net").ok());
  // Edited: the checksum no longer matches.
  ExpectRejected(Replaced(good, "output-shift 7", "output-shift 6"), "checksum");
  ExpectRejected(Replaced(good, "data random data", "data random date"), "checksum");
  // Cut short, anywhere.
  ExpectRejected(good.substr(0, good.size() / 2), "");
  ExpectRejected(good.substr(0, good.find("hidden1-bias")), "ends early");
  ExpectRejected(good.substr(0, good.find("output-shift")), "ends early");
  // Another network, another version: refused, naming both.
  ExpectRejected(Replaced(good, "accumulator=32", "accumulator=64"), "this engine's is");
  ExpectRejected(Replaced(good, "divercite-net 1", "divercite-net 9"), "version 9");
  // Values out of range, too few, not numbers.
  ExpectRejected(Replaced(good, "output-shift 7", "output-shift 15"), "output-shift");
  ExpectRejected(Replaced(good, "\nhidden1 0 ", "\nhidden1 0 400 "), "values after 'hidden1 0'");
  ExpectRejected(Replaced(good, "\nhidden2 5 ", "\nhidden2 6 "), "expected 'hidden2 5 ...'");
  ExpectRejected(Replaced(good, "\noutput-bias ", "\noutput-bias x"), "not an integer");
  ExpectRejected(Replaced(good, "\nfeatures ", "\nfeatures 99999"), "within");
  // Not a weight file at all, or empty.
  ExpectRejected("hello\nchecksum 0000000000000000\n", "not a Divercite network file");
  ExpectRejected("", "");
}

// The pattern sum's tables, which EvalFile read until the network became the only evaluation,
// are refused by name, as is a file that cannot be opened.
TEST(NetworkFileTest, PatternFilesAreRefusedByName) {
  ExpectRejected("# the pattern sum's tables\ndivercite-eval 1\nlayout patterns-2\n",
                 "a pattern weight file (divercite-eval), which the engine no longer reads");
  const absl::StatusOr<std::shared_ptr<const NetworkWeights>> missing =
      ReadNetworkFile("/nonexistent/weights.net");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/weights.net"), std::string::npos)
      << missing.status();
}

}  // namespace
}  // namespace divercite
