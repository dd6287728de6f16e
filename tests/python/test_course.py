"""divercite.course against the course's own framework (DIVERCITE_COURSE_DIR): its states
read along the reference games, its actions both ways, its recordings read and written, and
an agent searching with divercite.Position in full games under its master."""

import json
from pathlib import Path

import pytest

import divercite
from course_support import (AGENTS, GREEDY, RANDOM, GameStateDivercite, PlayerDivercite,
                            course_states, initial_state, players, run_master)
from divercite import course
from reference_data import reference_games

GAMES = reference_games()
# The recordings every reader must read alike (the file says how they were made).
RECORDINGS = Path(__file__).resolve().parents[1] / "data"
SHARED = json.loads((RECORDINGS / "recordings.json").read_text())["recordings"]
SOME = GAMES[::40]  # ten games of every kind, for the slower checks


def game_states(moves):
    return course_states(moves, initial_state(*players()))


def scores_of(state):
    return tuple(state.get_scores()[p.get_id()] for p in state.get_players())


@pytest.mark.parametrize("game", GAMES[::8], ids=lambda g: f"{g['kind']}-{g['seed']}")
def test_from_course_state_along_reference_games(game):
    for ply, state in enumerate(game_states(game["moves"])):
        position = divercite.Position.from_course_state(state)
        assert position == divercite.Position.from_moves(game["moves"][:ply]), f"ply {ply}"
        assert position.scores == scores_of(state), f"ply {ply}"
        assert position.ply == ply and position.last_move is None
    assert position.scores == tuple(game["final"])


def test_from_course_state_refuses_a_state_whose_scores_are_not_its_board():
    state = game_states(GAMES[0]["moves"][:12])[-1]
    state.scores = dict(state.scores)
    state.scores[state.get_players()[0].get_id()] += 1
    with pytest.raises(course.CourseError, match="scores"):
        divercite.Position.from_course_state(state)
    with pytest.raises(course.CourseError):
        course.position_from_course_state(object())


@pytest.mark.parametrize("game", SOME[:4], ids=lambda g: f"{g['kind']}-{g['seed']}")
def test_action_and_move_of_over_every_legal_move(game):
    for ply, state in enumerate(game_states(game["moves"])[:-1:3]):
        position = divercite.Position.from_course_state(state)
        light = state.get_possible_light_actions()
        assert {course.move_of(a) for a in light} == set(position.legal_moves())
        for move in position.legal_moves():
            action = course.action(move, state)
            assert action in light and course.move_of(action) == move
        heavy = list(state.get_possible_heavy_actions())[:10]
        for action in heavy:
            move = course.move_of(action)
            assert course.action(move).get_heavy_action(state) == action


def test_action_refuses_what_is_no_move():
    state = game_states(["RC14"])[-1]
    with pytest.raises(course.CourseError, match="occupied"):
        course.action("GC14", state)
    with pytest.raises(course.CourseError, match="colour"):
        course.action("XC14")
    with pytest.raises(TypeError):
        course.action(14)
    with pytest.raises(course.CourseError):
        course.move_of("RC14")


def master_states(moves, ids=course.RECORDING_IDS, names=course.DEFAULT_NAMES):
    """The JSON the course's master sends (and its recorder writes) for each state."""
    states = course_states(moves, initial_state(*players(names, ids)))
    return [json.loads(json.dumps(s.to_json(), default=lambda x: x.to_json())) for s in states]


@pytest.mark.parametrize("game", SOME[:3], ids=lambda g: f"{g['kind']}-{g['seed']}")
def test_a_recording_we_write_is_the_course_s_own(game, tmp_path):
    path = tmp_path / "__REC__ours.json"
    course.write_recording(game["moves"], path)
    written = json.loads(path.read_text())
    assert written == master_states(game["moves"])
    # Read back by the course's own code, every state equal to the one its rules play.
    own = game_states(game["moves"])
    for ply, (data, state) in enumerate(zip(written, own)):
        mover = PlayerDivercite.from_json(json.dumps(data["next_player"]))
        back = GameStateDivercite.from_json(json.dumps(data), next_player=mover)
        assert scores_of(back) == scores_of(state), f"state {ply}"
        assert back.get_rep().get_env().keys() == state.get_rep().get_env().keys()
        assert [p.get_type() for p in back.get_rep().get_env().values()] == \
            [state.get_rep().get_env()[c].get_type() for c in back.get_rep().get_env()]
        assert back.step == state.step == ply
        assert list(back.players_pieces_left.values()) == \
            list(state.players_pieces_left.values())
        assert back.next_player.piece_type == state.next_player.piece_type
    read = course.read_recording(path)
    assert read.moves == game["moves"] and read.names == course.DEFAULT_NAMES
    assert read.scores[1:] == [tuple(s) for s in game["scores"]]
    assert read.position() == divercite.Position.from_moves(game["moves"])


def test_write_recording_refuses_an_illegal_game(tmp_path):
    with pytest.raises(ValueError, match="occupied"):
        course.write_recording(["RC14", "GC14"], tmp_path / "bad.json")
    assert not (tmp_path / "bad.json").exists()


def test_read_recording_refuses_a_broken_one(tmp_path):
    states = master_states(GAMES[0]["moves"][:6])
    states[4]["scores"]["1"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(states))
    with pytest.raises(course.CourseError, match="state 4: the recording's scores"):
        course.read_recording(tmp_path / "bad.json")
    (tmp_path / "two.json").write_text(json.dumps(states[:2] + states[3:]))
    with pytest.raises(course.CourseError, match="2 pieces appeared"):
        course.read_recording(tmp_path / "two.json")


@pytest.mark.parametrize("expected", SHARED, ids=lambda e: e["file"])
def test_the_shared_recordings_read_as_every_reader_reads_them(expected):
    path = RECORDINGS / "recordings" / expected["file"]
    if "moves" in expected:
        game = course.read_recording(path)
        assert list(game.names) == expected["names"]
        assert game.moves == expected["moves"]
        assert [list(s) for s in game.scores] == expected["scores"]
    else:
        with pytest.raises(course.CourseError) as refused:
            course.read_recording(path)
        if expected["refused_at"]:
            assert expected["refused_at"] + ": " in str(refused.value)
        assert str(refused.value).endswith(expected["why"])  # the C++ reader's words


def test_a_recording_the_course_wrote(tmp_path):
    log = run_master([RANDOM, GREEDY], tmp_path, record=True)
    assert "has won the game" in log, log[-3000:]
    [recording] = tmp_path.glob("__REC__*.json")
    game = course.read_recording(recording)
    assert len(game.moves) == 40 and len(game.scores) == 41
    assert game.names == ("random_player_divercite_1", "greedy_player_divercite_2")
    states = json.loads(recording.read_text())
    assert game.position().scores == \
        tuple(states[-1]["scores"][str(p["id"])] for p in states[-1]["players"])


@pytest.mark.parametrize("order", ["first", "second"])
def test_an_agent_searching_with_divercite_plays_under_the_course_master(order, tmp_path):
    agent = AGENTS / "search_player.py"
    files = [agent, GREEDY] if order == "first" else [GREEDY, agent]
    log = run_master(files, tmp_path)
    for bad in ("Time credit expired", "Action not permitted", "disqualified", "Traceback"):
        assert bad not in log, log[-3000:]
    assert "has won the game" in log, log[-3000:]
    assert log.count("Player now playing : search_player") == 20
