// The course code's reference games (../shared/reference/games.jsonl, CMake's
// DIVERCITE_REFERENCE_DIR), as the tests read them: each game's 40 moves as the file writes
// them. A line that does not read is a test failure (and no moves).
#ifndef DIVERCITE_TESTS_REFERENCE_GAMES_H_
#define DIVERCITE_TESTS_REFERENCE_GAMES_H_

#include <string>
#include <vector>

namespace divercite::testing {

// The first `count` games (fewer if the file has fewer).
std::vector<std::vector<std::string>> ReferenceGames(int count);

// Game `index` (from 0).
std::vector<std::string> ReferenceGameMoves(int index);

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_REFERENCE_GAMES_H_
