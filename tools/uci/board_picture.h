// A readable text picture of a position, for people (the protocol's `d` command).
#ifndef DIVERCITE_TOOLS_UCI_BOARD_PICTURE_H_
#define DIVERCITE_TOOLS_UCI_BOARD_PICTURE_H_

#include <string>

#include "engine/position.h"

namespace divercite {

// The diamond on its 9x9 grid: cities in brackets, resources between spaces, first-player
// pieces in upper case and second-player pieces in lower case (as in position strings),
// followed by the side to move and the pieces each player has left. Lines end with '\n'.
std::string BoardPicture(const Position& position);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_UCI_BOARD_PICTURE_H_
