"""divercite.engine with a course agent behind the bridge, run by its launcher
(tools/seahorse/course_engine.py) or as `python3 -m divercite.course.engine`: the course's own
greedy player (its code in place, DIVERCITE_COURSE_DIR) answers our protocol, and plays legal
moves from the start and from a position taken from a reference game."""

import os
import sys
from pathlib import Path

import pytest

import divercite
from course_support import COURSE_DIR, GREEDY
from divercite.engine import Engine
from reference_data import REPO

BRIDGE = Path(REPO) / "tools" / "seahorse" / "course_engine.py"
# Ply 26 of the first reference game (test_engine.py's PROVEN_WIN).
MIDDLE_GAME = "B/bG1/yy1B1/2y1rBy/2YY1rg1b/G1RYBrB/2Yyb/gR1/1 w"


def course_agent(bridge=(str(BRIDGE),)):
    return Engine.popen([sys.executable, *bridge, str(GREEDY)], timeout=60,
                        env=dict(os.environ, DIVERCITE_COURSE_DIR=str(COURSE_DIR)))


@pytest.mark.parametrize("bridge", [(str(BRIDGE),), ("-m", "divercite.course.engine")],
                         ids=["launcher", "module"])
def test_a_course_agent_plays_a_game_through_the_bridge(bridge):
    with course_agent(bridge) as engine:
        assert "Seed" in engine.options
        engine.configure({"Seed": 7})
        position = divercite.Position()
        while not position.is_over() and position.ply < 8:
            result = engine.play(position, wtime=900000, btime=900000)
            assert result.move in position.legal_moves()
            position.play(result.move)
        position = divercite.Position(MIDDLE_GAME)
        result = engine.play(position, wtime=900000, btime=900000)
        assert result.move in position.legal_moves()


def test_a_course_agent_on_a_finished_game_names_no_move():
    with course_agent() as engine:
        game = divercite.Position(MIDDLE_GAME)
        while not game.is_over():
            game.play(game.legal_moves()[0])
        assert engine.play(game, wtime=1000, btime=1000).move is None
