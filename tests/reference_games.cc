#include "tests/reference_games.h"

#include <fstream>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tools/common/json.h"

namespace divercite::testing {
namespace {

constexpr int kMovesPerGame = 40;  // every game fills the board

}  // namespace

std::vector<std::vector<std::string>> ReferenceGames(int count) {
  std::ifstream in(std::string(DIVERCITE_REFERENCE_DIR) + "/games.jsonl");
  EXPECT_TRUE(in.is_open()) << DIVERCITE_REFERENCE_DIR << "/games.jsonl";
  std::vector<std::vector<std::string>> games;
  std::string line;
  while (static_cast<int>(games.size()) < count && std::getline(in, line)) {
    std::vector<std::string> moves;
    absl::StatusOr<Json> json = ParseJson(line);
    EXPECT_TRUE(json.ok()) << json.status();
    const absl::StatusOr<const Json*> list = json.ok()
                                                 ? JsonArrayMember(*json, "moves", kMovesPerGame)
                                                 : absl::StatusOr<const Json*>(json.status());
    EXPECT_TRUE(list.ok()) << list.status();
    if (list.ok()) {
      for (const Json& move : **list) {
        absl::StatusOr<std::string> text = JsonToString(move, "a move");
        EXPECT_TRUE(text.ok()) << text.status();
        moves.push_back(text.value_or(""));
      }
    }
    games.push_back(std::move(moves));
  }
  return games;
}

std::vector<std::string> ReferenceGameMoves(int index) {
  std::vector<std::vector<std::string>> games = ReferenceGames(index + 1);
  EXPECT_EQ(static_cast<int>(games.size()), index + 1) << "no reference game " << index;
  return games.size() == static_cast<size_t>(index) + 1 ? std::move(games.back())
                                                        : std::vector<std::string>{};
}

}  // namespace divercite::testing
