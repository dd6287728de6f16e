"""The reference data the course code produced, and the build's programs, as the Python
package's tests find them; a short match and its analysis played with them."""

import json
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def reference_path(name):
    """A file of DIVERCITE_REFERENCE_DIR (ctest sets it), else of ../shared/reference."""
    folder = os.environ.get("DIVERCITE_REFERENCE_DIR",
                            os.path.join(os.path.dirname(REPO), "shared", "reference"))
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        pytest.fail(f"no reference file {path} (set DIVERCITE_REFERENCE_DIR)")
    return path


def reference_games():
    with open(reference_path("games.jsonl")) as games:
        return [json.loads(line) for line in games if line.strip()]


def reference_perft():
    with open(reference_path("perft.json")) as perft:
        return json.load(perft)["positions"]


def build_binary(name):
    """A program of the build: $DIVERCITE_BIN_DIR/<name> (ctest sets it), else build/bin."""
    folder = os.environ.get("DIVERCITE_BIN_DIR", os.path.join(REPO, "build", "bin"))
    path = os.path.join(folder, name)
    if not os.access(path, os.X_OK):
        pytest.fail(f"no program {path} (set DIVERCITE_BIN_DIR)")
    return path


def match_and_analysis(folder, match_flags, analyse_flags):
    """Plays `divercite-match` with our engine (`{engine}` in `match_flags` stands for its
    path) into folder/games.jsonl, then analyses its game 1 with `divercite-analyze --json`
    and `analyse_flags` into folder/analysis.jsonl; returns `folder`."""
    engine = build_binary("divercite")
    subprocess.run([build_binary("divercite-match"),
                    *(flag.replace("{engine}", engine) for flag in match_flags),
                    "-records", str(folder / "games.jsonl")],
                   check=True, capture_output=True, timeout=120)
    with open(folder / "analysis.jsonl", "w") as out:
        subprocess.run([build_binary("divercite-analyze"), f"--engine={engine}",
                        f"--records={folder / 'games.jsonl'}", "--game=1", "--json",
                        *analyse_flags],
                       check=True, stdout=out, stderr=subprocess.PIPE, timeout=120)
    return folder
