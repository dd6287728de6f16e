"""divercite.engine against our engine and against fake engines that die, hang or answer
garbage (tests/python/fake_engines/fake_engine.py): each failure a clear error, in seconds."""

import os
import shutil
import subprocess
import sys
import time

import pytest

import divercite
from divercite.engine import (Engine, EngineError, EngineTerminatedError, EngineTimeoutError,
                              PlayResult)
from reference_data import REPO, build_binary

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engines",
                    "fake_engine.py")
# Ply 26 of the first reference game: the engine proves the first player's win in ~10 ms
# (a lower bound, not the exact margin); ply 28: solved exactly to the end at depth 20.
PROVEN_WIN = "B/bG1/yy1B1/2y1rBy/2YY1rg1b/G1RYBrB/2Yyb/gR1/1 w"
NEAR_END = "B/bG1/yy1B1/1by1rBy/2YY1rg1b/G1RYBrB/1RYyb/gR1/1 w"


@pytest.fixture(scope="module")
def engine():
    with Engine.popen(build_binary("divercite"), {"Hash": 16}) as engine:
        yield engine


def fake(mode, **kwargs):
    return Engine.popen([sys.executable, FAKE, mode], **kwargs)


# -- our engine

def test_handshake_lists_id_and_options(engine):
    assert engine.id["name"].startswith("Divercite")
    hash_option = engine.options["Hash"]
    assert (hash_option.type, hash_option.min, hash_option.max) == ("spin", 1, 65536)
    assert "skypiea_v5" in engine.options["Agent"].var
    assert engine.options["EvalFile"].type == "string"


@pytest.mark.parametrize("limit", [{"depth": 3}, {"nodes": 2000}, {"movetime": 50},
                                   {"wtime": 2000, "btime": 2000}])
def test_play_with_each_limit(engine, limit):
    position = divercite.Position.from_moves(["RC14", "RR04"])
    result = engine.play(position, **limit)
    assert isinstance(result, PlayResult)
    assert result.move in position.legal_moves()
    assert isinstance(result.score, int) and result.bound == "exact"
    assert result.depth >= 1 and result.nodes >= 1 and result.pv[0] == result.move
    assert result.info["time"] == result.time_ms
    if "depth" in limit:
        assert result.depth == 3


def test_exact_and_proven_near_the_end(engine):
    result = engine.play(divercite.Position(NEAR_END), depth=20)
    assert (result.exact, result.proven, result.bound) == (True, "win", "exact")
    assert result.move == "GR44" and result.score == 300


def test_proven_win_bounds_the_score(engine):
    result = engine.play(PROVEN_WIN, movetime=2000, prove=True)  # a position string will do
    assert (result.proven, result.bound, result.exact) == ("win", "lower", False)
    assert result.score > 0 and result.time_ms < 1500
    alone = engine.play(PROVEN_WIN, prove=True)  # `go prove`: the proof is its own limit
    assert (alone.proven, alone.bound) == ("win", "lower")


def test_analyse_one_line_and_no_multipv(engine):
    info = engine.analyse(divercite.Position(NEAR_END), depth=20)
    assert info.score == 300 and info.exact is True and info.proven == "win"
    assert info.move == "GR44" == info.pv[0]
    # The margin from either player's view: NEAR_END has the first player to move.
    assert info.side_to_move == "w" and info.margin() == info.margin("first") == 3.0
    assert info.margin("b") == info.margin("second") == -3.0
    with pytest.raises(ValueError, match="give 'w' or 'first'"):
        info.margin("white")
    with fake("good") as no_multipv:
        with pytest.raises(EngineError, match="the engine has no MultiPV option"):
            no_multipv.analyse(divercite.Position(), depth=2, multipv=3)


def test_finished_game_gives_no_move(engine):
    game = divercite.Position(NEAR_END)
    while not game.is_over():
        game.play(game.legal_moves()[0])
    assert engine.play(game, depth=1).move is None


def test_options_are_checked_before_they_are_sent(engine):
    with pytest.raises(ValueError, match=r"option Hash: 0 is out of range \(a whole number "
                                         r"from 1 to 65536\)"):
        engine.configure({"Hash": 0})
    with pytest.raises(ValueError, match=r"option Hsh: the engine has no such option \(it "
                                         r"has: Agent, EvalFile, Hash,"):
        engine.configure({"Hsh": 64})
    with pytest.raises(ValueError, match="option Agent: 'nobody' is not one of engine, random"):
        engine.configure({"agent": "nobody"})
    with pytest.raises(ValueError, match="option Threads: 'two' is not a whole number"):
        Engine.popen(build_binary("divercite"), {"Threads": "two"})
    engine.configure({"threads": 1, "Agent": "engine"})  # names match whatever their case


def test_refused_option_is_the_engines_error(engine):
    with pytest.raises(EngineError, match=r"the engine refused the option "
                                          r"EvalFile=/nonexistent/w.bin: setoption: "):
        engine.configure({"EvalFile": "/nonexistent/w.bin"})
    assert engine.play(divercite.Position(), depth=1).move  # still usable


def test_bad_limits_are_value_errors(engine):
    with pytest.raises(ValueError, match="give a limit"):
        engine.play(divercite.Position())
    with pytest.raises(ValueError, match=r"depth=-1: a whole number from 0 up"):
        engine.play(divercite.Position(), depth=-1)
    with pytest.raises(TypeError, match="unknown limits: mate"):
        engine.play(divercite.Position(), mate=3)


def test_close_and_context_manager():
    with Engine.popen(build_binary("divercite")) as engine:
        engine.new_game()
        pid = engine.pid
    assert engine.returncode == 0
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# -- engines that fail

def test_a_dying_engine():
    with fake("die") as engine:
        start = time.monotonic()
        with pytest.raises(EngineTerminatedError) as caught:
            engine.play(divercite.Position(), movetime=100)
    message = str(caught.value)
    assert "exited with code 3 while waiting for 'bestmove' to 'go movetime 100'" in message
    assert "its last stderr lines: fake: out of memory" in message
    assert caught.value.returncode == 3 and caught.value.stderr == ["fake: out of memory"]
    assert time.monotonic() - start < 3


def test_an_engine_hanging_in_its_search_is_stopped_then_killed():
    engine = fake("hang_go")
    start = time.monotonic()
    message = (r"no 'bestmove' to 'go depth 5' within 0.3 s and 1.0 s after 'stop' in time; "
               r"the engine was killed")
    with pytest.raises(EngineTimeoutError, match=message):
        engine.play(divercite.Position(), depth=5, timeout=0.3)
    assert time.monotonic() - start < 3
    assert engine.returncode is not None
    with pytest.raises(EngineTerminatedError):
        engine.play(divercite.Position(), depth=5)


def test_an_engine_that_never_gets_ready():
    start = time.monotonic()
    message = r"fake_engine.py: no 'readyok' to 'isready' in time; the engine was killed"
    with pytest.raises(EngineTimeoutError, match=message):
        fake("hang_ready", timeout=0.5, name="fake_engine.py")
    assert time.monotonic() - start < 3


@pytest.mark.parametrize("mode, message", [
    ("no_move", r"'bestmove' names no move"),
    ("illegal", r"'bestmove RC14' is not a legal move in r/1R1/5/7/9/7/5/3/1 w"),
    ("refused_go", r"the engine refused 'go depth 2': go: nope"),
    ("explained", r"'bestmove \(none\)' is not a legal move in .* \(the engine said: the "
                  r"fake gives up\)"),
])
def test_garbage_answers(mode, message):
    with fake(mode) as engine:
        with pytest.raises(EngineError, match=message):
            engine.play(divercite.Position.from_moves(["RC14", "RR04"]), depth=2, timeout=5)


def test_fake_refuses_options():
    with pytest.raises(EngineError, match=r"refused the option Style=wild: setoption: no"):
        fake("refuse_option", options={"Style": "wild"})
    with pytest.raises(ValueError, match="option Fast: 'yes' is not true or false"):
        fake("good", options={"Fast": "yes"})
    with fake("good", options={"Fast": True, "hash": 1024}) as engine:
        assert engine.play(divercite.Position(), depth=1).move == "RC14"


def test_a_missing_engine():
    with pytest.raises(EngineError, match="cannot start /nonexistent/divercite"):
        Engine.popen("/nonexistent/divercite")
    assert os.path.isdir(REPO)


def test_popen_without_a_command(tmp_path, monkeypatch):
    """Our engine beside the package (here the build tree's: <build>/python/divercite and
    <build>/bin), then DIVERCITE_ENGINE, then PATH; else an error naming the three."""
    monkeypatch.delenv("DIVERCITE_ENGINE", raising=False)
    with Engine.popen() as engine:
        assert os.path.samefile(engine.command[0], build_binary("divercite"))
        assert engine.play(divercite.Position(), depth=1).move in divercite.Position().legal_moves()

    # A copy of the package with no engine beside it, in a Python of its own.
    package = os.path.dirname(divercite.__file__)
    shutil.copytree(package, tmp_path / "site" / "divercite")
    (tmp_path / "path").mkdir()
    on_path = tmp_path / "path" / "divercite"
    on_path.symlink_to(build_binary("divercite"))
    find = "from divercite.engine import _default_engine; print(_default_engine())"

    def default_engine(**env):
        return subprocess.run([sys.executable, "-c", find], capture_output=True, text=True,
                              timeout=60, env={"PYTHONPATH": str(tmp_path / "site"),
                                               "PYTHONDONTWRITEBYTECODE": "1", **env})

    assert default_engine(DIVERCITE_ENGINE="/some/engine", PATH=str(tmp_path / "path")) \
        .stdout == "/some/engine\n"
    assert default_engine(PATH=str(tmp_path / "path")).stdout == f"{on_path}\n"
    missing = default_engine(PATH=str(tmp_path))
    assert missing.returncode == 1
    assert "no engine given and none found: divercite not found: not beside the divercite " \
        "package" in missing.stderr
    assert "DIVERCITE_ENGINE is not set, and no divercite is on PATH" in missing.stderr
