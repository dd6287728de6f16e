"""Our games as course recordings, which the course's web GUI replays ("Load JSON").

Any game of `divercite-match -records` (one JSON line a game) or of `divercite-analyze
--json` becomes the file that the course's `main_divercite.py -r` writes (`__REC__*.json`,
through `course.write_recording`): the course's GUI (its divercite/GUI/index.html) replays it
with its "Load JSON" button, and the course's `GameStateDivercite.from_json` reads its states.

    python3 -m divercite.course.export match.jsonl --game 3 -o game3.json
    python3 -m divercite.course.export match.jsonl -d replays/     # every game, one file each
    divercite-analyze --records=match.jsonl --game=3 --json | \\
        python3 -m divercite.course.export - -o game3.json

From Python: `recording_game(record)` gives a record's moves from the empty board and its
players' names, `export(record, path)` writes its recording, `read_games(path)` reads either
kind of file.

A course recording holds a game from the empty board, as every game of the course's master
starts: a game that starts from a position string (its record's `start` is "fen ...") has
no such recording, and is refused. An unfinished game (lost on time, by an illegal move, a
crash, a stall or a resource limit, or adjudicated before the board was full) is refused
too, unless `unfinished=True` (`--unfinished`) asks for the plies it has, which the GUI
replays as far as they go.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple, Union

from .._core import Position
from ..records import AnalysisRecord, GameRecord, read_analyses, read_records
from .recordings import write_recording
from .states import CourseError

__all__ = ["recording_game", "export", "read_games", "select", "main"]

Record = Union[GameRecord, AnalysisRecord]
PLIES = 40


def _label(record: Record) -> str:
    return "the game" if record.game is None else f"game {record.game}"


def _from_empty_board(start: Optional[str]) -> bool:
    if start in (None, "", "startpos"):
        return True
    try:
        return start.startswith("fen ") and Position(start[4:]) == Position()
    except ValueError:
        return False


def recording_game(record: Record, unfinished: bool = False) -> Tuple[List[str],
                                                                      Tuple[str, str]]:
    """The moves from the empty board (the opening's first) and the players' names (first,
    second) of a GameRecord or an AnalysisRecord. CourseError says why it has no course
    recording: a start other than the empty board, a move that does not play, final scores
    or a result that are not its board's, or an unfinished game (unless `unfinished`)."""
    label = _label(record)
    if not _from_empty_board(record.start):
        raise CourseError(f"{label} starts from a position ({record.start!r}), not the empty "
                          "board: a course recording is a game from the empty board (where "
                          "every game of the course's master starts), and the record has no "
                          "moves that lead to its start")
    if isinstance(record, AnalysisRecord):
        moves = [move.move for move in record.moves or []]
    else:
        moves = record.opening_moves() + [move.move for move in record.moves or []]
    try:
        position = Position.from_moves(moves)
    except (ValueError, TypeError) as error:
        raise CourseError(f"{label}: {error}") from None
    if not position.is_over():
        if not unfinished:
            ending, why = getattr(record, "termination", None), ""
            if ending:
                reason = getattr(record, "reason", None)
                why = f" (termination {ending}{': ' + reason if reason else ''})"
            raise CourseError(f"{label} is unfinished: it ends after {position.ply} of "
                              f"{PLIES} plies{why}. A course recording is a whole game; "
                              f"--unfinished (unfinished=True) writes its {position.ply} "
                              "plies as they are")
    else:
        if record.final is not None and list(record.final) != list(position.scores):
            raise CourseError(f"{label}: its final scores {list(record.final)} are not its "
                              f"board's {list(position.scores)}")
        if record.result and record.result != position.result():
            raise CourseError(f"{label}: its result {record.result} is not its board's "
                              f"{position.result()}")
    first, second = record.p1 or "first", record.p2 or "second"
    if first == second:  # the course's GUI tells its players apart by name
        first, second = f"{first} (first)", f"{second} (second)"
    return moves, (first, second)


def export(record: Record, path, unfinished: bool = False) -> None:
    """Writes the course recording of a record's game to `path` (nothing on CourseError)."""
    moves, names = recording_game(record, unfinished)
    write_recording(moves, path, names)


def read_games(source) -> List[Record]:
    """The games of a `divercite-match -records` file or of `divercite-analyze --json` output
    (a path, or "-" for standard input), told apart by their first line. CourseError names
    the file (and the line) that is neither."""
    name = "<stdin>" if str(source) == "-" else str(source)
    try:
        text = sys.stdin.read() if str(source) == "-" else Path(source).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CourseError(f"{name}: {getattr(error, 'strerror', None) or error}") from None
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not numbered:
        raise CourseError(f"{name}: no game in it (an empty file)")
    number, first = numbered[0]
    try:
        first = json.loads(first)
    except json.JSONDecodeError as error:
        raise CourseError(f"{name}:{number}: not a line of JSON ({error}): expected the lines "
                          "of divercite-match -records or divercite-analyze --json") from None
    if isinstance(first, list):
        raise CourseError(f"{name}:{number}: a JSON array (a course recording already?), not "
                          "the lines of divercite-match -records or divercite-analyze --json")
    analysis = isinstance(first, dict) and ("settings" in first or "summary" in first)
    stream = io.StringIO(text)
    stream.name = name
    try:
        return list((read_analyses if analysis else read_records)(stream))
    except ValueError as error:
        raise CourseError(f"{error} (expected the lines of divercite-match -records or "
                          "divercite-analyze --json)") from None


def _listing(numbers: Sequence[Optional[int]]) -> str:
    known = sorted({n for n in numbers if n is not None})
    if known and known == list(range(known[0], known[-1] + 1)) and len(known) > 2:
        return f"games {known[0]} to {known[-1]}"
    return "games " + ", ".join(map(str, known[:10])) + (", ..." if len(known) > 10 else "")


def select(games: Sequence[Record], game: Optional[int], name: str = "the file") -> List[Record]:
    """The games numbered `game` (their "game" member), or all of them if None; CourseError
    if there is no such game, or more than one."""
    if game is None:
        return list(games)
    chosen = [record for record in games if record.game == game]
    if not chosen:
        raise CourseError(f"{name}: no game {game} (it holds {_listing([g.game for g in games])}"
                          "; the match's text counts games from 1, the records from 0)")
    if len(chosen) > 1:
        raise CourseError(f"{name}: {len(chosen)} games are numbered {game} (records of "
                          "several matches in one file?)")
    return chosen


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m divercite.course.export",
        description="Writes games of divercite-match -records or divercite-analyze --json as "
        "course recordings (__REC__*.json), which the course's GUI replays with its "
        "\"Load JSON\" button.")
    parser.add_argument("records", help="the records file, or - for standard input")
    parser.add_argument("--game", type=int, help="the game numbered N (its \"game\" member, "
                        "from 0); by default the file's only game (-o) or every game (-d)")
    output = parser.add_mutually_exclusive_group(required=True)
    output.add_argument("-o", "--output", type=Path, help="the recording of one game")
    output.add_argument("-d", "--dir", type=Path, help="a folder (made if missing) that gets "
                        "one recording a game, __REC__<records file's name>_<game>.json")
    parser.add_argument("--unfinished", action="store_true", help="write an unfinished game "
                        "(lost on time, by an illegal move, a crash, a stall or a resource "
                        "limit, or adjudicated) as far as it goes, instead of refusing it")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line (`python3 -m divercite.course.export --help`): prints each file
    written; 0 if every game asked for was written, 1 otherwise (the reasons on stderr)."""
    args = _parser().parse_args(argv)
    prefix = "divercite.course.export: "
    name = "<stdin>" if args.records == "-" else args.records
    try:
        games = select(read_games(args.records), args.game, name)
        if args.output is not None:
            if len(games) > 1:
                raise CourseError(f"{name} holds {len(games)} games "
                                  f"({_listing([g.game for g in games])}): name one with "
                                  "--game N, or write each with -d DIR")
            try:
                export(games[0], args.output, args.unfinished)
            except CourseError as error:
                raise CourseError(f"{name}: {error}") from None
            print(args.output)
            return 0
        args.dir.mkdir(parents=True, exist_ok=True)
    except (CourseError, OSError) as error:
        print(prefix + str(error), file=sys.stderr)
        return 1
    stem = "stdin" if args.records == "-" else Path(args.records).stem
    refused = 0
    for index, record in enumerate(games):
        path = args.dir / f"__REC__{stem}_{index if record.game is None else record.game}.json"
        try:
            export(record, path, args.unfinished)
        except (CourseError, OSError) as error:
            print(f"{prefix}{name}: {error}; not written", file=sys.stderr)
            refused += 1
            continue
        print(path)
    if refused:
        print(f"{prefix}{refused} of {len(games)} games not written", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
