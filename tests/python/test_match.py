"""divercite.match: matches and round robins played by divercite-match, read back as records
and standings; a refused match is a MatchError with the runner's reason; a records file is
resumed; a stopped match ends at once and keeps its finished games."""

import threading
import time

import pytest

from divercite import match, programs
from divercite.records import GameRecord, read_records

FAST = match.Player(name="engine", st=0.01, options={"Hash": 16})
GREEDY = match.Player(name="greedy", options={"Agent": "greedy"})
RANDOM = match.Player(name="random", options={"Agent": "random"})


def test_the_programs_are_found_beside_the_package():
    assert programs.installed("divercite-match") == match.runner()
    assert programs.installed("divercite") is not None


def test_a_match_gives_its_records_and_standings():
    result = match.run([FAST, GREEDY], games=2, openings="random plies=2", seed=8175)
    assert len(result.records) == 2 and result.records_path is None
    assert all(isinstance(game, GameRecord) for game in result.records)
    assert {(game.p1, game.p2) for game in result.records} == {("engine", "greedy"),
                                                               ("greedy", "engine")}
    assert all(game.result in ("1-0", "0-1", "1/2-1/2") for game in result.records)
    assert all(len(game.positions()[-1].legal_moves()) == 0 for game in result.records)
    assert [standing.name for standing in result.standings][0] == "engine"
    assert sum(standing.points for standing in result.standings) == 2
    assert "Score of engine vs greedy" in result.output


def test_a_round_robin_plays_every_pair_and_keeps_its_records(tmp_path):
    records = tmp_path / "rr.jsonl"
    result = match.run([FAST, GREEDY, RANDOM], games=2, openings="random plies=2", seed=1,
                       records=records)
    pairs = {frozenset((game.p1, game.p2)) for game in result.records}
    assert len(result.records) == 6 and len(pairs) == 3
    assert sorted(s.name for s in result.standings) == ["engine", "greedy", "random"]
    assert result.records_path == records and records.exists()
    # The same match again resumes: its games are all played, none is added.
    again = match.run([FAST, GREEDY, RANDOM], games=2, openings="random plies=2", seed=1,
                      records=records)
    assert [game.to_json() for game in again.records] == \
        [game.to_json() for game in result.records]
    assert [s.name for s in match.ratings(records)] == [s.name for s in result.standings]


def test_a_refused_match_says_why():
    with pytest.raises(match.MatchError, match="Hash"):
        match.run([match.Player(name="big", options={"Hash": 10 ** 9}), GREEDY], games=2)
    with pytest.raises(ValueError, match="one limit of tc, st, depth and nodes"):
        match.Player(tc="10", st=1).arguments()
    with pytest.raises(ValueError, match="two players or more"):
        match.run([FAST])


def test_a_stopped_match_ends_at_once_and_keeps_its_finished_games(tmp_path):
    records = tmp_path / "stopped.jsonl"
    stop = threading.Event()

    def stop_after_the_first_game():
        while not stop.is_set():
            if records.exists() and records.read_bytes().count(b"\n") >= 1:
                stop.set()
            time.sleep(0.05)
    watcher = threading.Thread(target=stop_after_the_first_game, daemon=True)
    watcher.start()
    slow = match.Player(name="slow", st=0.05, options={"Hash": 16})
    # 40 games of 40 moves at 0.05 s a move for one side: a minute at the least, were it
    # not stopped; the timeout only bounds a failure.
    with pytest.raises(match.MatchStopped, match="stopped"):
        match.run([slow, GREEDY], games=40, records=records, stop=stop, timeout=600)
    watcher.join()
    kept = list(read_records(records))
    assert 1 <= len(kept) < 40
    assert all(len(game.positions()[-1].legal_moves()) == 0 for game in kept)
