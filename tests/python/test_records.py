"""divercite.records: real records of divercite-match and divercite-analyze --json read and
written again unchanged, replayed, as rows; malformed lines named by file and line; the lines
every reader of records reads alike (tests/data/records.json)."""

import io
import json
import subprocess
from pathlib import Path

import pytest

import divercite
from divercite.records import (AnalysisLine, AnalysisRecord, GameRecord, MoveRecord,
                               read_analyses, read_records, to_rows, write_records)
from reference_data import build_binary, match_and_analysis


@pytest.fixture(scope="module")
def match_records(tmp_path_factory):
    """Two games at depth 2 (one with a two-ply opening), and their analysis."""
    return match_and_analysis(
        tmp_path_factory.mktemp("records"),
        ["-engine", "cmd={engine}", "name=one", "depth=2", "-engine", "cmd={engine}", "name=two",
         "depth=2", "-games", "2", "-openings", "random", "plies=2", "-seed", "7"],
        ["--depth=2", "--prove-movetime=20"])


SHARED = json.loads((Path(__file__).resolve().parents[1] / "data" / "records.json")
                    .read_text(encoding="utf-8"))["records"]


def lines(path):
    return [line for line in path.read_text().splitlines() if line.strip()]


def test_game_records_round_trip(match_records, tmp_path):
    path = match_records / "games.jsonl"
    records = list(read_records(path))
    assert [record.game for record in records] == [0, 1]
    for record, line in zip(records, lines(path)):
        assert record.to_json() == line  # the same text, members in the writer's order
        assert record.p1 in ("one", "two") and record.result in ("1-0", "0-1", "1/2-1/2")
        assert len(record.opening_moves()) == 2 and record.termination == "normal"
        assert all(isinstance(move, MoveRecord) and move.exact is not None
                   for move in record.moves)
        final = record.positions()[-1]
        assert final.is_over() and list(final.scores) == record.final
        assert final.result() == record.result
    write_records(records, tmp_path / "again.jsonl")
    assert lines(tmp_path / "again.jsonl") == lines(path)


def test_analysis_lines_round_trip(match_records):
    """--multipv=3: each move's `lines` read as AnalysisLines, best first, and written back
    unchanged."""
    analyzed = subprocess.run([build_binary("divercite-analyze"),
                               f"--engine={build_binary('divercite')}",
                               f"--records={match_records / 'games.jsonl'}", "--game=1", "--json",
                               "--depth=2", "--prove-movetime=20", "--solve-plies=8",
                               "--multipv=3"],
                              check=True, capture_output=True, text=True, timeout=120).stdout
    (analysis,) = read_analyses(io.StringIO(analyzed))
    assert analysis.to_json() == analyzed.strip() and analysis.settings["multipv"] == 3
    for move in analysis.moves[:-3]:  # the last plies may have fewer moves up to symmetry
        assert len(move.lines) == 3 and all(isinstance(line, AnalysisLine) for line in move.lines)
        assert move.lines[0].move == move.best and move.lines[0].value == move.value
        assert len({line.move for line in move.lines}) == 3
        assert [line.value for line in move.lines] == sorted(
            (line.value for line in move.lines), reverse=True)
        assert all(line.pv[0] == line.move for line in move.lines)
    assert analysis.moves[-1].lines[0].exact is True


def test_analysis_round_trip(match_records):
    path = match_records / "analysis.jsonl"
    (analysis,) = read_analyses(path)
    assert isinstance(analysis, AnalysisRecord) and analysis.game == 1
    assert analysis.to_json() == lines(path)[0]
    assert len(analysis.moves) == 40 and analysis.moves[0].opening is True
    assert analysis.moves[-1].exact is True and analysis.moves[-1].proven_before is not None
    assert analysis.summary["p1"]["name"] == analysis.p1
    assert "proven_ply" in analysis.summary and analysis.settings["depth"] == 2
    assert all(move.lines is None for move in analysis.moves)  # no --multipv: no `lines`
    rows = to_rows([analysis])
    assert len(rows) == 40 and rows[1]["engine"] == analysis.p2 and rows[1]["side"] == "p2"


def test_unknown_and_missing_members_round_trip():
    line = ('{"game":3,"p1":"a","p2":"b","result":"1/2-1/2","moves":[{"move":"RC14",'
            '"ms":5,"exact":false,"proven":"draw","nps":9}],"comment":{"by":"hand"}}')
    record = GameRecord.from_json(line)
    assert record.extra == {"comment": {"by": "hand"}} and record.round is None
    assert record.moves[0].extra == {"nps": 9} and record.moves[0].score is None
    assert record.to_json() == line
    assert GameRecord.from_json(json.loads(line)) == record


def test_malformed_lines_name_the_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game":0,"p1":"a","p2":"b","result":"1-0"}\n\n{"game":1,\n')
    records = read_records(path)
    assert next(records).game == 0
    with pytest.raises(ValueError, match=rf"^{path}:3: "):
        next(records)
    stream = io.StringIO('[1, 2]\n')
    with pytest.raises(ValueError, match=r"^<stream>:1: GameRecord: expected a JSON object"):
        list(read_records(stream))
    with pytest.raises(ValueError, match=r"<stream>:1: GameRecord: no result, p2"):
        list(read_records(io.StringIO('{"game":0,"p1":"a"}\n')))


def test_a_limit_and_bytes_that_are_not_utf8_are_read(tmp_path):
    """A game lost by a resource limit of the engine's sandbox reads as any other; a file
    holding bytes that are not UTF-8 (a reason of an older runner) reads with U+FFFD."""
    line = ('{"game":0,"p1":"a","p2":"b","result":"0-1","termination":"limit",'
            '"reason":"memory limit: its processes may use 2048 MB together (2057 MB in use) '
            '(a)"}')
    path = tmp_path / "limit.jsonl"
    path.write_bytes(line.encode() + b"\n" + line.replace('"game":0', '"game":1').replace(
        "(a)", "(a); its stderr ended: caf\xe9").encode("latin-1") + b"\n")
    first, second = read_records(path)
    assert first.termination == "limit" and first.reason.startswith("memory limit: ")
    assert first.to_json() == line
    assert second.reason.endswith("its stderr ended: caf\ufffd")


def test_positions_name_a_move_that_does_not_play():
    record = GameRecord(game=5, p1="a", p2="b", result="1-0", start="startpos",
                        opening="RC14", moves=[MoveRecord(move="RC14")])
    with pytest.raises(ValueError, match="game 5, ply 1: "):
        record.positions()
    record.moves = [MoveRecord(move="RR04")]
    assert record.positions()[-1] == divercite.Position.from_moves(["RC14", "RR04"])
    fen = GameRecord(game=6, p1="a", p2="b", result="1-0", start="fen " + divercite.START_FEN)
    assert len(fen.positions()) == 1


def test_rows_one_per_move(match_records):
    records = list(read_records(match_records / "games.jsonl"))
    rows = to_rows(records)
    assert len(rows) == sum(len(record.moves) for record in records)
    first = rows[0]
    assert first["game"] == 0 and first["ply"] == 2 and first["mover"] == "p1"
    assert first["engine"] == records[0].p1 and first["move"] == records[0].moves[0].move
    assert set(first) == {"game", "round", "ply", "mover", "engine", "move", "ms", "score",
                          "exact", "proven", "result", "termination"}
    assert rows[1]["mover"] == "p2" and rows[1]["engine"] == records[0].p2


@pytest.mark.parametrize("expected", SHARED, ids=lambda e: e["name"])
def test_the_shared_lines_read_as_every_reader_reads_them(expected):
    """The same players, start, moves, result and final scores as the C++ and the page's
    readers (tests/records_test.cc, tests/web/formats_js_test.mjs); a refusal where they
    refuse, when the line is read or when its game is replayed."""
    source = io.StringIO(expected["line"] + "\n")
    if "moves" not in expected:
        with pytest.raises(ValueError):
            for record in read_records(source):
                record.positions()
        return
    [record] = read_records(source)
    positions = record.positions()
    assert [record.p1, record.p2] == expected["names"]
    assert (record.start or "startpos") == expected["start"]
    assert record.opening_moves() + [m.move for m in record.moves] == expected["moves"]
    assert record.result == expected["result"]
    assert list(positions[-1].scores) == expected["scores"]
