"""divercite.course.export: games that divercite-match played, written as course recordings by
`python3 -m divercite.course.export`, read back by the course's own code, and replayed by the
course's own web GUI (its GUI/index.html, in place) in Debian's headless Chromium (driven by
Selenium) through its "Load JSON" button, as a person would; and the games it refuses, with why.

The browser test leaves its last screen in the working folder (ctest's: build/tests/python/)
as course_gui_replay.png."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from course_support import (GameStateDivercite, PlayerDivercite, course_states, initial_state,
                            players)
from divercite import course
from divercite.records import read_records
from reference_data import REPO, match_and_analysis

sys.path.insert(0, os.path.join(REPO, "tests", "browser"))
# tests/browser/course_gui.py: the course's page in headless Chromium.
import course_gui  # noqa: E402


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """Two games of our engine against its random agent at 2+0.05 s, a two-ply opening each
    (the colours swapped), and the second game's analysis (divercite-analyze --json)."""
    return match_and_analysis(
        tmp_path_factory.mktemp("match"),
        ["-engine", "cmd={engine}", "name=divercite", "tc=2+0.05", "-engine", "cmd={engine}",
         "name=random", "option.Agent=random", "tc=2+0.05", "-games", "2", "-repeat",
         "-openings", "random", "plies=2", "-seed", "11"],
        ["--depth=2", "--prove-movetime=0"])


def export(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "divercite.course.export", *map(str, args)],
                          capture_output=True, text=True, timeout=60, stdin=stdin)


def test_the_former_name_still_answers_and_names_the_new_one():
    done = subprocess.run([sys.executable, "-m", "divercite.course_export", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--unfinished" in done.stdout, done.stderr
    assert "former name of divercite.course.export" in done.stderr, done.stderr


def scores_of(state):
    return tuple(state.get_scores()[p.get_id()] for p in state.get_players())


def test_exported_games_are_read_back_by_the_course_s_code(match, tmp_path):
    done = export(match / "games.jsonl", "-d", tmp_path / "recordings")
    assert done.returncode == 0, done.stderr
    records = list(read_records(match / "games.jsonl"))
    paths = [tmp_path / "recordings" / f"__REC__games_{r.game}.json" for r in records]
    assert done.stdout.split() == [str(p) for p in paths]
    for record, path in zip(records, paths):
        assert len(record.opening_moves()) == 2 and record.termination == "normal"
        ours = record.positions()  # our replay: the opening, then the engines' moves
        moves = record.opening_moves() + [m.move for m in record.moves]
        states = json.loads(path.read_text())
        assert len(states) == len(ours) == 41
        # The course's own rules, played from its start along the same moves.
        played = course_states(moves, initial_state(*players((record.p1, record.p2), (1, 2))))
        for ply, (data, position, own) in enumerate(zip(states, ours, played)):
            mover = PlayerDivercite.from_json(json.dumps(data["next_player"]))
            back = GameStateDivercite.from_json(json.dumps(data), next_player=mover)
            board = {cell: piece.get_type() for cell, piece in back.get_rep().get_env().items()}
            assert board == position.board(), f"{path.name}, state {ply}"
            assert scores_of(back) == position.scores == scores_of(own), f"{path.name}, {ply}"
            assert back.step == ply
        assert [p.name for p in back.get_players()] == [record.p1, record.p2]
        assert list(scores_of(back)) == record.final
        game = course.read_recording(path)
        assert game.moves == moves and game.names == (record.p1, record.p2)


def test_an_analysis_line_exports_the_same_game(match, tmp_path):
    with open(match / "analysis.jsonl") as analysis:
        done = export("-", "-o", tmp_path / "analysed.json", stdin=analysis)
    assert done.returncode == 0, done.stderr
    again = export(match / "games.jsonl", "--game", 1, "-o", tmp_path / "recorded.json")
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "analysed.json").read_text() == (tmp_path / "recorded.json").read_text()


def edited(match, tmp_path, name, **changes):
    """A records file `name` of the first game with its members changed."""
    line = json.loads((match / "games.jsonl").read_text().splitlines()[0])
    path = tmp_path / name
    path.write_text(json.dumps({**line, **changes}) + "\n")
    return path


def test_refusals_say_why_and_write_nothing(match, tmp_path):
    out = tmp_path / "out.json"
    (tmp_path / "garbage.jsonl").write_text("not json\n")
    first = json.loads((match / "games.jsonl").read_text().splitlines()[0])
    cases = [
        ((tmp_path / "none.jsonl",), "none.jsonl: No such file or directory"),
        ((tmp_path / "garbage.jsonl",), "garbage.jsonl:1: not a line of JSON"),
        ((match / "games.jsonl",), "holds 2 games (games 0, 1): name one with --game N"),
        ((match / "games.jsonl", "--game", 5), "no game 5 (it holds games 0, 1;"),
        ((edited(match, tmp_path, "time.jsonl", moves=first["moves"][:20],
                 termination="time", reason="out of time"),),
         "game 0 is unfinished: it ends after 22 of 40 plies (termination time: out of "
         "time). A course recording is a whole game; --unfinished"),
        ((edited(match, tmp_path, "fen.jsonl", start="fen R/3/5/7/9/7/5/3/1 b"),),
         "game 0 starts from a position ('fen R/3/5/7/9/7/5/3/1 b'), not the empty board"),
        ((edited(match, tmp_path, "final.jsonl", final=[0, 0]),),
         "its final scores [0, 0] are not its"),
    ]
    for args, message in cases:
        done = export(*args, "-o", out)
        assert done.returncode == 1 and message in done.stderr, (args, done.stderr)
        assert not out.exists()
    # Asked for, an unfinished game's plies as they are; in a folder, each game refused
    # is named and the others written.
    short = edited(match, tmp_path, "short.jsonl", game=2, moves=first["moves"][:20],
                   termination="time")
    done = export(short, "--unfinished", "-o", out)
    assert done.returncode == 0 and len(course.read_recording(out).moves) == 22
    both = tmp_path / "both.jsonl"
    both.write_text((match / "games.jsonl").read_text() + short.read_text())
    done = export(both, "-d", tmp_path / "some")
    assert done.returncode == 1 and "game 2 is unfinished" in done.stderr
    assert "1 of 3 games not written" in done.stderr
    assert sorted(p.name for p in (tmp_path / "some").iterdir()) == \
        ["__REC__both_0.json", "__REC__both_1.json"]


# What the page draws, seen through its canvases' drawing calls (its board is one <canvas>,
# not an element a piece): for each canvas, the images and texts drawn since it was last
# cleared whole; the number of times the board was; whether the page's images have loaded.
DRAWN = """
(() => {
  const drawn = {board: [], player1: [], player2: []};
  window.__drawn = drawn;
  window.__boards = 0;
  const images = [];
  const NativeImage = window.Image;
  window.Image = function (...args) { const image = new NativeImage(...args);
                                      images.push(image); return image; };
  window.__imagesLoaded = () => images.length > 0 &&
      images.every(image => image.complete && image.naturalWidth > 0);
  const context = CanvasRenderingContext2D.prototype;
  const { clearRect, drawImage, fillText } = context;
  context.clearRect = function (x, y, width, height) {
    const id = this.canvas.id;
    if (id in drawn && width >= this.canvas.width && height >= this.canvas.height) {
      drawn[id] = [];
      if (id === 'board') window.__boards++;
    }
    return clearRect.apply(this, arguments);
  };
  context.drawImage = function (image, x, y, width, height) {
    if (this.canvas.id in drawn) {
      const centre = this.getTransform().transformPoint(new DOMPoint(x + width / 2,
                                                                     y + height / 2));
      drawn[this.canvas.id].push({image: image.src.split('/').pop(), x: centre.x,
                                  y: centre.y});
    }
    return drawImage.apply(this, arguments);
  };
  context.fillText = function (text) {
    if (this.canvas.id in drawn) drawn[this.canvas.id].push({text: String(text)});
    return fillText.apply(this, arguments);
  };
  // No master: the page tries the port in its box when loaded; a port nobody listens on.
  document.addEventListener('DOMContentLoaded', () => {
    document.getElementById('port').value = '%PORT%'; });
})();
"""


def image_of(piece):
    """The page's image of a piece (GUI/assets): a city's shows its owner, a resource's not."""
    return f"{piece[:2]}{piece[2] if piece[1] == 'C' else ''}.png"


def drawn_board(drawn):
    """{cell: image} of the pieces the page drew on its board."""
    board = {}
    for item in drawn["board"]:
        if item.get("image") in (None, "Plateau.webp", "piece_bg.webp"):
            continue  # the board itself, the hover mark
        cell = min(((r, c) for r in range(9) for c in range(9)),
                   key=lambda rc: sum((a - b) ** 2 for a, b in
                                      zip(course_gui.cell_centre(*rc), (item["x"], item["y"]))))
        assert cell not in board, f"two pieces drawn on {cell}"
        board[cell] = item["image"]
    return board


def texts(drawn, canvas):
    return [item["text"] for item in drawn[canvas] if "text" in item]


def replay_in_the_gui(recording, record, screenshot):
    with course_gui.open_page() as page:
        page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": DRAWN.replace("%PORT%", str(course_gui.free_port()))})
        page.open(course_gui.PAGE.as_uri(), "window.__boards > 0 && window.__imagesLoaded()",
                  30)
        # A person's "Load JSON": the button, then the file picked for the input it clicks
        # (headless, the chooser it opens is not shown; the input takes the file).
        boards = page.evaluate("window.__boards")
        page.click_in("loadJsonButton")
        page.choose_file("#loadJson", recording)
        page.wait_for(f"window.__boards > {boards}", 10, "a board drawn after Load JSON")
        drawn = page.evaluate("window.__drawn")
        assert drawn_board(drawn) == {}
        assert texts(drawn, "player1")[:2] == [record.p1, "Score  0"]
        assert texts(drawn, "player2")[:2] == [record.p2, "Score  0"]
        # Next, state by state: each board the page draws is the game's after one more ply.
        for ply, position in enumerate(record.positions()[1:], start=1):
            boards = page.evaluate("window.__boards")
            page.click_in("next")
            page.wait_for(f"window.__boards > {boards}", 10,
                          f"a board drawn after Next (ply {ply})")
            drawn = page.evaluate("window.__drawn")
            assert drawn_board(drawn) == {cell: image_of(piece) for cell, piece
                                          in position.board().items()}, f"ply {ply}"
        # The end: Next draws nothing more.
        page.click_in("next")
        time.sleep(0.5)
        assert page.evaluate("window.__boards") == boards + 1
        drawn = page.evaluate("window.__drawn")
        page.screenshot(screenshot)
        status = page.evaluate("document.getElementById('status').textContent.trim()")
        assert not page.uncaught(), page.uncaught()
    return drawn, status


def test_the_course_s_gui_replays_an_exported_game(match, tmp_path):
    lacking = course_gui.missing()
    if lacking:
        pytest.fail(f"the course's page cannot be opened here: {lacking}")
    record = list(read_records(match / "games.jsonl"))[0]
    recording = tmp_path / "__REC__games_0.json"
    done = export(match / "games.jsonl", "--game", 0, "-o", recording)
    assert done.returncode == 0, done.stderr
    screenshot = Path.cwd() / "course_gui_replay.png"
    drawn, status = replay_in_the_gui(recording, record, screenshot)
    assert status == "Disconnected"  # no master: the file alone
    final = record.positions()[-1]
    assert final.is_over() and list(final.scores) == record.final
    assert drawn_board(drawn) == {cell: image_of(p) for cell, p in final.board().items()}
    assert len(drawn_board(drawn)) == 40
    assert texts(drawn, "player1")[:2] == [record.p1, f"Score  {record.final[0]}"]
    assert texts(drawn, "player2")[:2] == [record.p2, f"Score  {record.final[1]}"]
    assert screenshot.stat().st_size > 10_000
