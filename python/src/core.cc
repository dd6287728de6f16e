// divercite._core: the rules library as the Python class `divercite.Position`.
//
// Every method is a thin wrapper over engine/: the rules, the position strings and the move
// notation are the C++ ones, errors included (their messages become the Python exceptions').
// The Python-facing contract (names, types, errors) is written in python/divercite/_core.pyi.
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "engine/move.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "perft/perft.h"
#include "python/src/standings_tables.h"
#include "tools/board_svg/board_svg.h"
#include "tools/records/course_recording.h"
#include "tools/uci/board_picture.h"

namespace py = pybind11;

namespace divercite {
namespace {

// What Python holds: a Position and the last move this object played (play, from_moves), for
// divercite.svg to mark. The rules' Position keeps no history (it is one cache line); a
// position read from a string or a board has no last move.
// What push() changed, for pop(): the position is 64 bytes, so keeping it beats undoing
// each incremental update (scores, tie-break, key) by hand.
struct PlayedMove {
  Position before;
  Move move;
  Move last_move_before;
};

struct BoundPosition {
  Position position;
  Move last_move = Move::None();
  // The moves played on this object (play/push, from_moves), oldest first: python-chess's
  // move_stack. A position read from a string or a board starts with none.
  std::vector<PlayedMove> stack = {};
  friend bool operator==(const BoundPosition& a, const BoundPosition& b) {
    return a.position == b.position;  // the pieces make the position, not how it was reached
  }
};

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
// Plays a legal move, keeping what pop() restores.
void Push(BoundPosition& bound, Move move) {
  bound.stack.push_back({bound.position, move, bound.last_move});
  bound.position.Play(move);
  bound.last_move = move;
}

void PlayText(BoundPosition& bound, py::handle value) {
  Position& position = bound.position;
  const std::string text = Text(value, "a move");
  absl::StatusOr<Move> move = ParseMove(text);
  if (!move.ok()) throw py::value_error(std::string(move.status().message()));
  if (position.IsGameOver()) {
    throw py::value_error(
        absl::StrCat("illegal move ", text, ": the game is over (", kTotalPlies, " plies played)"));
  }
  const absl::Status legal = position.CheckLegal(*move);
  if (!legal.ok()) throw py::value_error(std::string(legal.message()));
  Push(bound, *move);
}

// Takes back the last move of the stack: IndexError when there is none.
py::object Pop(BoundPosition& bound) {
  if (bound.stack.empty()) throw py::index_error("pop from an empty move stack");
  const PlayedMove played = bound.stack.back();
  bound.stack.pop_back();
  bound.position = played.before;
  bound.last_move = played.last_move_before;
  return MoveStrings()[played.move.Index()];
}

py::list MoveStack(const BoundPosition& bound) {
  py::list moves;
  for (const PlayedMove& played : bound.stack) moves.append(MoveStrings()[played.move.Index()]);
  return moves;
}

// The move texts of a sequence of str (`function` takes it); a str or a non-str move is a
// TypeError. Strings are checked before any rule, so that a non-str is a TypeError wherever it
// is.
std::vector<std::string> MoveTexts(py::handle moves, absl::string_view function) {
  if (py::isinstance<py::str>(moves)) {
    throw py::type_error(absl::StrCat(function,
                                      " takes a list of move strings, not one string (split it: "
                                      "'RC14 GR04'.split())"));
  }
  std::vector<std::string> texts;
  for (py::handle move : py::iter(moves)) {
    texts.push_back(Text(move, absl::StrCat("move ", texts.size() + 1).c_str()));
  }
  return texts;
}

BoundPosition FromMoves(py::handle moves) {
  const std::vector<std::string> texts = MoveTexts(moves, "from_moves");
  const std::vector<absl::string_view> views(texts.begin(), texts.end());
  absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), views);
  if (!position.ok()) throw py::value_error(std::string(position.status().message()));
  // Played, so well formed and legal: played again onto the stack.
  BoundPosition bound{Position::Start()};
  for (const std::string& text : texts) Push(bound, *ParseMove(text));
  return bound;
}

// {"w": {"RC": 2, "RR": 3, "GC": 2, ...}, "b": {...}}: the course's piece names, in its order.
py::dict PiecesLeft(const Position& position) {
  py::dict sides;
  for (const Player player : {Player::kFirst, Player::kSecond}) {
    py::dict pieces;
    for (int c = 0; c < kNumColours; ++c) {
      for (const Kind kind : {Kind::kCity, Kind::kResource}) {
        const Colour colour = static_cast<Colour>(c);
        const char name[] = {ColourLetter(colour), KindLetter(kind), '\0'};
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

// {(row, col): "RCW", ...}: the pieces on the board, by cell, in the course's names.
py::dict Board(const Position& position) {
  py::dict board;
  for (int cell = 0; cell < kNumCells; ++cell) {
    const std::optional<Piece> piece = position.PieceAt(cell);
    if (!piece) continue;
    board[py::make_tuple(CellRow(cell), CellColumn(cell))] =
        CoursePieceType(*piece, KindOfCell(cell));
  }
  return board;
}

// The position of a board {(row, col): "RCW", ...} (Board's inverse), or ValueError naming the
// first cell or count that no game can have.
Position FromBoard(py::handle board) {
  if (!py::isinstance<py::dict>(board)) {
    throw py::type_error(absl::StrCat("from_board takes a dict {(row, col): piece}, not a ",
                                      std::string(py::str(board.get_type().attr("__name__")))));
  }
  std::array<std::optional<Piece>, kNumCells> cells;
  for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(board)) {
    const std::string where = py::repr(key);
    int row = -1, col = -1;
    if (py::isinstance<py::tuple>(key) && py::len(key) == 2) {
      try {
        row = py::reinterpret_borrow<py::tuple>(key)[0].cast<int>();
        col = py::reinterpret_borrow<py::tuple>(key)[1].cast<int>();
      } catch (const py::cast_error&) {
        row = col = -1;
      }
    }
    const int cell =
        row >= 0 && row < kGridSize && col >= 0 && col < kGridSize ? CellAt(row, col) : kNoCell;
    if (cell == kNoCell) {
      throw py::value_error(absl::StrCat("board: ", where,
                                         " is not a cell (row, col) of the "
                                         "board (|row - 4| + |col - 4| <= 4)"));
    }
    const std::string name = Text(value, absl::StrCat("the piece on ", where).c_str());
    const std::string colours = "RGBY";
    const char kind = KindLetter(KindOfCell(cell));
    if (name.size() != 3 || colours.find(name[0]) == std::string::npos ||
        (name[1] != 'C' && name[1] != 'R') || (name[2] != 'W' && name[2] != 'B')) {
      throw py::value_error(absl::StrCat("board: the piece '", name, "' on ", where,
                                         " is not <colour RGBY><kind CR><owner WB>, like RCW"));
    }
    if (name[1] != kind) {
      throw py::value_error(absl::StrCat("board: the piece '", name, "' on ", where, " is a ",
                                         name[1] == 'C' ? "city" : "resource", " on a ",
                                         kind == 'C' ? "city" : "resource", " cell"));
    }
    cells[cell] = Piece{static_cast<Colour>(colours.find(name[0])),
                        name[2] == 'W' ? Player::kFirst : Player::kSecond};
  }
  absl::StatusOr<Position> position = Position::FromBoard(cells);
  if (!position.ok()) {
    throw py::value_error(absl::StrCat("board: ", position.status().message()));
  }
  return *position;
}

py::object LastMove(const BoundPosition& bound) {
  if (bound.last_move.IsNone()) return py::none();
  return MoveStrings()[bound.last_move.Index()];
}

// Pickled as (the position before the move stack, its last move or None, the move stack):
// the stack is played again. Older pickles are read too: (position string, last move or None),
// and a bare position string.
py::object Pickle(const BoundPosition& bound) {
  BoundPosition root = bound;
  root.stack.clear();
  if (!bound.stack.empty()) {
    root.position = bound.stack.front().before;
    root.last_move = bound.stack.front().last_move_before;
  }
  return py::make_tuple(ToPositionString(root.position), LastMove(root), MoveStack(bound));
}

BoundPosition Unpickle(py::handle state) {
  if (py::isinstance<py::str>(state)) return {Parse(state.cast<std::string>())};
  const py::tuple fields = py::reinterpret_borrow<py::tuple>(state);
  BoundPosition bound{Parse(fields[0].cast<std::string>())};
  if (!fields[1].is_none()) {
    absl::StatusOr<Move> move = ParseMove(fields[1].cast<std::string>());
    if (!move.ok()) throw py::value_error(std::string(move.status().message()));
    bound.last_move = *move;
  }
  if (fields.size() > 2) {
    for (py::handle move : fields[2]) PlayText(bound, move);
  }
  return bound;
}

// A move of a picture (divercite.svg's arrow or last move): a move string or None; anything
// else is a ValueError naming it.
Move PictureMove(py::handle value, const char* what) {
  if (value.is_none()) return Move::None();
  if (py::isinstance<py::str>(value)) {
    absl::StatusOr<Move> move = ParseMove(value.cast<std::string>());
    if (move.ok()) return *move;
  }
  throw py::value_error(
      absl::StrCat(what, " ", std::string(py::repr(value)), " is not a move string like 'RC14'"));
}

std::string BoardSvgOf(const BoundPosition& bound, py::handle arrow, py::handle last_move,
                       py::handle size) {
  BoardSvgOptions options;
  options.arrow = PictureMove(arrow, "arrow");
  options.last_move = PictureMove(last_move, "last_move");
  options.size = size.is_none() ? 0 : size.cast<int>();
  return BoardSvg(bound.position, options);
}

}  // namespace
}  // namespace divercite

PYBIND11_MODULE(_core, m) {
  using divercite::BoundPosition;
  using divercite::Position;
  m.doc() = "The Divercité rules in C++ (see the package divercite).";
  m.attr("__version__") = DIVERCITE_VERSION;
  m.attr("START_FEN") = std::string(divercite::kStartPositionString);
  m.attr("BOARD_SVG_CANVAS") = divercite::kBoardSvgCanvas;

  py::class_<BoundPosition>(m, "Position",
                            "A Divercité position: the pieces on the board, the pieces each "
                            "player has left, the scores (the course code's, its last-move "
                            "tie-break included) and the side to move. Mutable (play); copy() "
                            "is independent. Equal positions hash alike; the hash changes with "
                            "play(). Full contract: divercite/_core.pyi.")
      .def(py::init([](py::object fen) {
             return BoundPosition{
                 fen.is_none() ? Position::Start()
                               : divercite::Parse(divercite::Text(fen, "a position string"))};
           }),
           py::arg("fen") = py::none(),
           "The start position, or that of a position string '<rows> <side>'; ValueError "
           "naming the problem with the string.")
      .def_static(
          "from_moves", [](py::object moves) { return divercite::FromMoves(moves); },
          py::arg("moves"),
          "The position after these move strings from the start; ValueError 'move K of N: "
          "<reason>' on the first bad one.")
      .def_static(
          "from_board", [](py::object board) { return BoundPosition{divercite::FromBoard(board)}; },
          py::arg("board"),
          "The position with these pieces {(row, col): 'RCW', ...} (colour, kind, owner W or "
          "B, as the course names them); ValueError naming a cell or count no game has.")
      .def(
          "legal_moves",
          [](const BoundPosition& b) { return divercite::LegalMoveList(b.position); },
          "The legal moves, in the course code's order.")
      .def(
          "play", [](BoundPosition& b, py::object move) { divercite::PlayText(b, move); },
          py::arg("move"),
          "Plays a move string ('RC14') and puts it on the move stack; ValueError with the "
          "reason on a malformed or illegal one, the position unchanged.")
      .def(
          "push", [](BoundPosition& b, py::object move) { divercite::PlayText(b, move); },
          py::arg("move"), "play(move), as python-chess names it.")
      .def(
          "pop", [](BoundPosition& b) { return divercite::Pop(b); },
          "Takes back the last move of the move stack and returns it; IndexError when the "
          "stack is empty.")
      .def(
          "peek",
          [](const BoundPosition& b) {
            if (b.stack.empty()) throw py::index_error("peek at an empty move stack");
            return divercite::MoveStrings()[b.stack.back().move.Index()];
          },
          "The last move of the move stack; IndexError when the stack is empty.")
      .def_property_readonly(
          "move_stack", [](const BoundPosition& b) { return divercite::MoveStack(b); },
          "The moves played on this position (play, push, from_moves), oldest first: a new "
          "list. A position read from a string or a board starts with none.")
      .def(
          "copy", [](const BoundPosition& b) { return b; }, "An independent copy.")
      .def("__copy__", [](const BoundPosition& b) { return b; })
      .def(
          "__deepcopy__", [](const BoundPosition& b, py::handle) { return b; }, py::arg("memo"))
      .def_property_readonly(
          "scores",
          [](const BoundPosition& b) {
            return std::make_pair(b.position.Score(divercite::Player::kFirst),
                                  b.position.Score(divercite::Player::kSecond));
          },
          "(first player's score, second player's score).")
      .def(
          "is_over", [](const BoundPosition& b) { return b.position.IsGameOver(); },
          "True once the 40 plies are played.")
      .def(
          "result",
          [](const BoundPosition& b) { return std::string(GameResultText(b.position.Result())); },
          "'1-0', '0-1', '1/2-1/2', or '*' while the game goes on.")
      .def(
          "fen", [](const BoundPosition& b) { return divercite::ToPositionString(b.position); },
          "The position string '<rows> <side>'.")
      .def(
          "board", [](const BoundPosition& b) { return divercite::Board(b.position); },
          "The pieces on the board: {(row, col): 'RCW', ...} (colour, kind, owner W or B).")
      .def_property_readonly(
          "last_move", [](const BoundPosition& b) { return divercite::LastMove(b); },
          "The move that play() or from_moves() played last on this position, or None.")
      .def_property_readonly(
          "ply", [](const BoundPosition& b) { return b.position.Ply(); },
          "Plies played (pieces on the board).")
      .def_property_readonly(
          "side_to_move",
          [](const BoundPosition& b) {
            return b.position.SideToMove() == divercite::Player::kFirst ? "w" : "b";
          },
          "'w' (first player) or 'b' (second).")
      .def(
          "pieces_left", [](const BoundPosition& b) { return divercite::PiecesLeft(b.position); },
          "Pieces each player has left: {'w': {'RC': 2, 'RR': 3, 'GC': ..., 'YR': 3}, "
          "'b': {...}}, colour then kind (C city, R resource).")
      .def(
          "perft",
          [](const BoundPosition& b, int depth) {
            return divercite::PerftChecked(b.position, depth);
          },
          py::arg("depth"), "Leaves of the move tree of that depth, counted in C++.")
      // is_operator: compared with anything else, Python is told NotImplemented (so False).
      .def(
          "__eq__", [](const BoundPosition& a, const BoundPosition& b) { return a == b; },
          py::is_operator())
      .def("__hash__",
           [](const BoundPosition& b) { return static_cast<py::ssize_t>(b.position.Key()); })
      .def("__repr__",
           [](const BoundPosition& b) {
             return absl::StrCat("Position('", divercite::ToPositionString(b.position), "')");
           })
      .def("__str__",
           [](const BoundPosition& b) {
             std::string picture = divercite::BoardPicture(b.position);
             picture.pop_back();  // print() adds the last line's end
             return picture;
           })
      .def(py::pickle([](const BoundPosition& b) { return divercite::Pickle(b); },
                      [](py::object state) { return divercite::Unpickle(state); }));

  m.def(
      "board_svg",
      [](const BoundPosition& b, py::object arrow, py::object last_move, py::object size) {
        return divercite::BoardSvgOf(b, arrow, last_move, size);
      },
      py::arg("position"), py::arg("arrow") = py::none(), py::arg("last_move") = py::none(),
      py::arg("size") = 400,
      "The SVG picture of a position (tools/board_svg, divercite.svg.board's drawing); arrow "
      "and last_move are move strings or None; size in pixels, None to scale.");
  m.def(
      "board_skeleton_svg",
      [](py::object size) {
        return divercite::BoardSkeletonSvg(size.is_none() ? 0 : size.cast<int>());
      },
      py::arg("size") = py::none(),
      "The board without pieces, with the templates web/board.js places (tools/board_svg's "
      "BoardSkeletonSvg); size in pixels, None to scale.");
  m.def(
      "read_course_recording",
      [](const std::string& text) {
        absl::StatusOr<divercite::CourseRecording> game = divercite::ReadCourseRecording(text);
        if (!game.ok()) throw py::value_error(std::string(game.status().message()));
        py::list moves, scores;
        for (const divercite::Move move : game->moves) moves.append(MoveToString(move));
        for (const auto& [first, second] : game->scores)
          scores.append(py::make_tuple(first, second));
        return py::make_tuple(py::make_tuple(game->p1, game->p2), moves, scores);
      },
      py::arg("text"),
      "The game of a course recording's JSON text (tools/records/course_recording.h, the one "
      "reader): ((first's name, second's name), moves, every state's (first, second) scores); "
      "ValueError naming the state at fault.");
  m.def(
      "write_course_recording",
      [](py::handle moves, const std::string& first, const std::string& second) {
        const std::vector<std::string> texts =
            divercite::MoveTexts(moves, "write_course_recording");
        const std::vector<absl::string_view> views(texts.begin(), texts.end());
        absl::StatusOr<std::string> text = divercite::WriteCourseRecording(views, {first, second});
        if (!text.ok()) throw py::value_error(std::string(text.status().message()));
        return *text;
      },
      py::arg("moves"), py::arg("first"), py::arg("second"),
      "The course recording of the game of `moves` from the start, its players named `first` "
      "and `second`, as one line of JSON (tools/records/course_recording.h, the one writer); "
      "ValueError naming the first bad move.");
  m.def(
      "cell_centre",
      [](int row, int col) {
        const divercite::SvgPoint centre = divercite::CellCentre(row, col);
        return py::make_tuple(centre.x, centre.y);
      },
      py::arg("row"), py::arg("col"), "The centre of a cell in the board picture's units.");
  divercite::BindStandingsTables(m);
}
