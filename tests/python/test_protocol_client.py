"""The Python client reads the protocol's transcripts as tests/data/protocol_readings.json
says: every answer to a `go` in docs/protocol.md goes through divercite._protocol's
read_search (what Engine.play() and analyse() read), every option line through
parse_option_line, as the file's "Reading a transcript" says. The C++ client reads the same
(tests/protocol_client_test.cc)."""

import json
import os

import pytest
import transcripts
from divercite._protocol import ERROR_PREFIX, parse_option_line, read_search
from reference_data import REPO

READINGS = os.path.join(REPO, "tests", "data", "protocol_readings.json")
TRANSCRIPTS = transcripts.read_transcripts()


def reading_json(read, ended):
    """A reading in the file's form, defaults left out."""
    lines = []
    for _, report in sorted(read["reports"].items()):
        info = report["info"]
        line = {"score": info["score"]}
        if info["bound"] != "exact":
            line["bound"] = info["bound"]
        if report["exact"]:
            line["exact"] = True
        if report["proven"]:
            line["proven"] = report["proven"]
        line["pv"] = " ".join(info.get("pv", []))
        lines.append(line)
    reading = {"bestmove": read["bestmove"] if ended else None, "lines": lines}
    if read["errors"]:
        reading["error"] = read["errors"][-1]
    return reading


def readings(transcript):
    """The reading of each search of the block, as the C++ test walks it."""
    found, open_lines = [], None
    for exchange in transcript.exchanges:
        opens = open_lines is None and exchange.command.startswith("go") and \
            not exchange.command.startswith("go perft")
        if opens:
            open_lines = []
        if open_lines is None:
            continue
        refused = False
        for line in exchange.expected:
            if line == transcripts.ANY_LINES or open_lines is None:
                continue
            refused = refused or line.startswith(ERROR_PREFIX)
            open_lines.append(line)
            if line.startswith("bestmove"):
                found.append(reading_json(read_search(open_lines), True))
                open_lines = None
        if opens and open_lines is not None and refused and \
                not transcripts.is_open(exchange.expected):
            found.append(reading_json(read_search(open_lines), False))
            open_lines = None
    return found


def option_json(option):
    json_option = {"name": option.name, "type": option.type, "default": option.default}
    if option.type == "spin":
        json_option.update(min=option.min, max=option.max)
    if option.var:
        json_option["var"] = list(option.var)
    return json_option


def options(transcript):
    return [option_json(option) for exchange in transcript.exchanges
            for line in exchange.expected if (option := parse_option_line(line)) is not None]


@pytest.fixture(scope="module")
def expected():
    with open(READINGS, encoding="utf-8") as readings_file:
        return json.load(readings_file)


def test_every_search_of_the_transcripts_is_read_as_the_readings_say(expected):
    read = {t.name: r for t in TRANSCRIPTS if (r := readings(t))}
    assert read.keys() == expected["searches"].keys()
    for name, searches in read.items():
        assert searches == expected["searches"][name], name


def test_every_option_line_is_read_as_the_readings_say(expected):
    read = {t.name: o for t in TRANSCRIPTS if (o := options(t))}
    assert read == expected["options"]


def test_a_limit_line_is_read_as_the_engine_s_reason():
    # A sandboxed engine's answer when a limit ended its move (docs/protocol.md).
    read = read_search(["info string limit: memory limit: its processes may use 256 MB "
                        "together (300 MB in use)", "bestmove (none)"])
    assert read["bestmove"] == "(none)"
    assert read["errors"] == ["memory limit: its processes may use 256 MB together (300 MB "
                              "in use)"]
