// divercite._core: the rules library as the Python class `divercite.Position`.
//
// Every method is a thin wrapper over engine/: the rules, the position strings and the move
// notation are the C++ ones, errors included (their messages become the Python exceptions').
// The Python-facing contract (names, types, errors) is written in python/divercite/_core.pyi.
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/move.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "perft/perft.h"
#include "tools/uci/board_picture.h"

namespace py = pybind11;

namespace divercite {
namespace {

// The text of an argument that must be a str; anything else is a TypeError naming its type.
std::string Text(py::handle value, const char* what) {
  if (!py::isinstance<py::str>(value)) {
    const std::string type = py::str(value.get_type().attr("__name__"));
    throw py::type_error(absl::StrCat(what, " must be a str, not ", type));
  }
  return value.cast<std::string>();
}

Position Parse(const std::string& fen) {
  absl::StatusOr<Position> position = ParsePositionString(fen);
  if (!position.ok()) throw py::value_error(std::string(position.status().message()));
  return *position;
}

// The 164 move strings, made once: legal_moves() hands out references to them instead of
// building a new str per move, which is most of its cost.
const std::array<py::object, kNumMoveIndices>& MoveStrings() {
  static const auto* strings = [] {
    auto* made = new std::array<py::object, kNumMoveIndices>;  // kept until exit, on purpose
    for (int index = 0; index < kNumMoveIndices; ++index) {
      (*made)[index] = py::str(MoveToString(Move::FromIndex(index)));
    }
    return made;
  }();
  return *strings;
}

py::list LegalMoveList(const Position& position) {
  const auto& strings = MoveStrings();
  py::list moves(position.CountLegalMoves());
  py::ssize_t i = 0;
  ForEachLegalMove(position, [&](Move move) { moves[i++] = strings[move.Index()]; });
  return moves;
}

// Plays `value` (a move string) or raises, leaving the position as it was.
void PlayText(Position& position, py::handle value) {
  const std::string text = Text(value, "a move");
  absl::StatusOr<Move> move = ParseMove(text);
  if (!move.ok()) throw py::value_error(std::string(move.status().message()));
  if (position.IsGameOver()) {
    throw py::value_error(
        absl::StrCat("illegal move ", text, ": the game is over (", kTotalPlies, " plies played)"));
  }
  const absl::Status legal = position.CheckLegal(*move);
  if (!legal.ok()) throw py::value_error(std::string(legal.message()));
  position.Play(*move);
}

Position FromMoves(py::handle moves) {
  if (py::isinstance<py::str>(moves)) {
    throw py::type_error(
        "from_moves takes a list of move strings, not one string (split it: "
        "'RC14 GR04'.split())");
  }
  // Strings are checked before any rule, so that a non-str is a TypeError wherever it is.
  std::vector<std::string> texts;
  for (py::handle move : py::iter(moves)) {
    texts.push_back(Text(move, absl::StrCat("move ", texts.size() + 1).c_str()));
  }
  const std::vector<absl::string_view> views(texts.begin(), texts.end());
  absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), views);
  if (!position.ok()) throw py::value_error(std::string(position.status().message()));
  return *position;
}

const char* ResultText(GameResult result) {
  switch (result) {
    case GameResult::kFirstWins:
      return "1-0";
    case GameResult::kSecondWins:
      return "0-1";
    case GameResult::kDraw:
      return "1/2-1/2";
    case GameResult::kOngoing:
      break;
  }
  return "*";
}

// {"w": {"RC": 2, "RR": 3, "GC": 2, ...}, "b": {...}}: the course's piece names, in its order.
py::dict PiecesLeft(const Position& position) {
  py::dict sides;
  for (const Player player : {Player::kFirst, Player::kSecond}) {
    py::dict pieces;
    for (int c = 0; c < kNumColours; ++c) {
      for (const Kind kind : {Kind::kCity, Kind::kResource}) {
        const Colour colour = static_cast<Colour>(c);
        const char name[] = {ColourLetter(colour), kind == Kind::kCity ? 'C' : 'R', '\0'};
        pieces[name] = position.PiecesLeft(player, kind, colour);
      }
    }
    sides[player == Player::kFirst ? "w" : "b"] = pieces;
  }
  return sides;
}

std::uint64_t PerftChecked(const Position& position, int depth) {
  if (depth < 0) throw py::value_error(absl::StrCat("perft depth ", depth, " is negative"));
  // The walk is on a copy and touches no Python object: other threads may run meanwhile, even
  // play on this position.
  const Position root = position;
  py::gil_scoped_release release;
  return Perft(root, depth);
}

}  // namespace
}  // namespace divercite

PYBIND11_MODULE(_core, m) {
  using divercite::Position;
  m.doc() = "The Divercité rules in C++ (see the package divercite).";
  m.attr("__version__") = DIVERCITE_VERSION;
  m.attr("START_FEN") = std::string(divercite::kStartPositionString);

  py::class_<Position>(m, "Position",
                       "A Divercité position: the pieces on the board, the pieces each player "
                       "has left, the scores (the course code's, its last-move tie-break "
                       "included) and the side to move. Mutable (play); copy() is independent. "
                       "Equal positions hash alike; the hash changes with play(). "
                       "Full contract: divercite/_core.pyi.")
      .def(py::init([](py::object fen) {
             return fen.is_none() ? Position::Start()
                                  : divercite::Parse(divercite::Text(fen, "a position string"));
           }),
           py::arg("fen") = py::none(),
           "The start position, or that of a position string '<rows> <side>'; ValueError "
           "naming the problem with the string.")
      .def_static(
          "from_moves", [](py::object moves) { return divercite::FromMoves(moves); },
          py::arg("moves"),
          "The position after these move strings from the start; ValueError 'move K of N: "
          "<reason>' on the first bad one.")
      .def(
          "legal_moves", [](const Position& p) { return divercite::LegalMoveList(p); },
          "The legal moves, in the course code's order.")
      .def(
          "play", [](Position& p, py::object move) { divercite::PlayText(p, move); },
          py::arg("move"),
          "Plays a move string ('RC14'); ValueError with the reason on a malformed or illegal "
          "one, the position unchanged.")
      .def(
          "copy", [](const Position& p) { return p; }, "An independent copy.")
      .def("__copy__", [](const Position& p) { return p; })
      .def(
          "__deepcopy__", [](const Position& p, py::handle) { return p; }, py::arg("memo"))
      .def_property_readonly(
          "scores",
          [](const Position& p) {
            return std::make_pair(p.Score(divercite::Player::kFirst),
                                  p.Score(divercite::Player::kSecond));
          },
          "(first player's score, second player's score).")
      .def("is_over", &Position::IsGameOver, "True once the 40 plies are played.")
      .def(
          "result", [](const Position& p) { return divercite::ResultText(p.Result()); },
          "'1-0', '0-1', '1/2-1/2', or '*' while the game goes on.")
      .def(
          "fen", [](const Position& p) { return divercite::ToPositionString(p); },
          "The position string '<rows> <side>'.")
      .def_property_readonly("ply", &Position::Ply, "Plies played (pieces on the board).")
      .def_property_readonly(
          "side_to_move",
          [](const Position& p) { return p.SideToMove() == divercite::Player::kFirst ? "w" : "b"; },
          "'w' (first player) or 'b' (second).")
      .def(
          "pieces_left", [](const Position& p) { return divercite::PiecesLeft(p); },
          "Pieces each player has left: {'w': {'RC': 2, 'RR': 3, 'GC': ..., 'YR': 3}, "
          "'b': {...}}, colour then kind (C city, R resource).")
      .def(
          "perft", [](const Position& p, int depth) { return divercite::PerftChecked(p, depth); },
          py::arg("depth"), "Leaves of the move tree of that depth, counted in C++.")
      // is_operator: compared with anything else, Python is told NotImplemented (so False).
      .def(
          "__eq__", [](const Position& a, const Position& b) { return a == b; }, py::is_operator())
      .def("__hash__", [](const Position& p) { return static_cast<py::ssize_t>(p.Key()); })
      .def("__repr__",
           [](const Position& p) {
             return absl::StrCat("Position('", divercite::ToPositionString(p), "')");
           })
      .def("__str__",
           [](const Position& p) {
             std::string picture = divercite::BoardPicture(p);
             picture.pop_back();  // print() adds the last line's end
             return picture;
           })
      .def(py::pickle([](const Position& p) { return divercite::ToPositionString(p); },
                      [](const std::string& fen) { return divercite::Parse(fen); }));
}
