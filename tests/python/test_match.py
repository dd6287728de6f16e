"""divercite.match: matches and round robins played by divercite-match, read back as records
and standings; a refused match is a MatchError with the runner's reason; a records file is
resumed."""

import pytest

from divercite import match, programs
from divercite.records import GameRecord

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
