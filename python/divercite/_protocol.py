"""The protocol's lines as data, for divercite.engine: `option` lines, their check against a
value a client means to set, `info` lines and the answer to a `go` (docs/protocol.md).

Parsing follows the C++ client (tools/client/): an option's name runs up to `type` and may
hold spaces, as may a default or a `var`; names match whatever their case, values as
written; a spin's value is a whole number within the bounds the engine gives.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

_OPTION_KEYWORDS = ("name", "type", "default", "min", "max", "var")

# The words of an info line followed by a whole number, kept under the same name.
_INFO_INTEGERS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time",
                  "tbhits", "currmovenumber")


@dataclasses.dataclass(frozen=True)
class Option:
    """An option an engine advertises after `uci` (`option name Hash type spin default 16
    min 1 max 65536`): its name as the engine spells it, its type (`spin`, `check`, `combo`,
    `string`, `button` or another word), default, bounds (spin) and choices (combo)."""

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    var: tuple = ()

    def check(self, value) -> str:
        """`value` as the text `setoption` sends; ValueError naming the option if the engine
        would not take it (not a whole number, out of range, not a choice, not a boolean)."""
        text = option_text(value)
        if self.type == "spin":
            try:
                number = int(text)
            except ValueError:
                raise ValueError(f"option {self.name}: {text!r} is not a whole number "
                                 f"({self._range()})") from None
            if (self.min is not None and number < self.min) or \
                    (self.max is not None and number > self.max):
                raise ValueError(f"option {self.name}: {number} is out of range "
                                 f"({self._range()})")
        elif self.type == "check" and text not in ("true", "false"):
            raise ValueError(f"option {self.name}: {text!r} is not true or false")
        elif self.type == "combo" and text not in self.var:
            raise ValueError(f"option {self.name}: {text!r} is not one of "
                             f"{', '.join(self.var)}")
        return text

    def _range(self) -> str:
        return f"a whole number from {self.min} to {self.max}"


def option_text(value) -> str:
    """A value as `setoption` sends it: a bool as true/false, anything else as str()."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_option_line(line: str) -> Optional[Option]:
    """The Option an `option name N type T ...` line advertises, None for any other line."""
    words = line.split()
    if len(words) < 3 or words[0] != "option" or words[1] != "name":
        return None
    fields: dict = {}
    choices: list = []
    key = None
    for word in words[1:]:
        if word in _OPTION_KEYWORDS and (key != "name" or word == "type"):
            key = word
            if key == "var":
                choices.append([])
            else:
                fields[key] = []
        elif key == "var":
            choices[-1].append(word)
        elif key is not None:
            fields[key].append(word)
    name = " ".join(fields.get("name", []))
    if not name:
        return None

    def integer(key):
        try:
            return int(" ".join(fields[key])) if key in fields else None
        except ValueError:
            return None

    default = " ".join(fields["default"]) if "default" in fields else None
    return Option(name=name, type=" ".join(fields.get("type", [])) or "", default=default,
                  min=integer("min"), max=integer("max"),
                  var=tuple(" ".join(choice) for choice in choices))


def find_option(options: dict, name: str) -> Option:
    """The option called `name` (whatever its case) in `options` (name -> Option);
    ValueError naming it and the options there are if the engine has none so called."""
    for option in options.values():
        if option.name.lower() == name.lower():
            return option
    names = ", ".join(sorted(options)) or "none"
    raise ValueError(f"option {name}: the engine has no such option (it has: {names})")


def parse_info(line: str) -> dict:
    """An `info ...` line as a dict: `depth`, `seldepth`, `multipv`, `nodes`, `nps`,
    `hashfull`, `time` (ms) as ints; `score` (centipoints, the side to move's view) with
    `bound` (`"lower"`, `"upper"`, or `"exact"` for a plain score); `pv` (a list of moves,
    the rest of the line); `string` (the rest of the line). Unknown words are skipped."""
    words = line.split()
    info: dict = {}
    i = 1
    while i < len(words):
        word = words[i]
        if word == "string":
            info["string"] = line.split("string", 1)[1].strip()
            break
        if word == "pv":
            info["pv"] = words[i + 1:]
            break
        if word in _INFO_INTEGERS and i + 1 < len(words) and _is_int(words[i + 1]):
            info[word] = int(words[i + 1])
            i += 2
            continue
        if word == "score" and i + 2 < len(words) and words[i + 1] == "cp" and \
                _is_int(words[i + 2]):
            info["score"] = int(words[i + 2])
            info["bound"] = "exact"
            i += 3
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                info["bound"] = words[i][:5]
                i += 1
            continue
        i += 1
    return info


ERROR_PREFIX = "info string error:"
# A resource limit of the engine's sandbox ended its move (`info string limit: <reason>`).
LIMIT_PREFIX = "info string limit:"


def read_search(lines) -> dict:
    """What a client reads of the answer to one `go`, its lines up to `bestmove`, as
    Engine.play() and analyse() read them: `bestmove` (the word after it, None if no
    `bestmove` came or it names nothing), `reports` (line k of the last report, k from
    `multipv`, 1 without it: {"info": parse_info's dict, "exact": `info string exact`
    followed it, "proven": the `info string proven` word, or None}) and `errors` (the
    reasons of the `info string error` and `info string limit` lines).

    >>> read_search(["info depth 6 score cp 500 pv GR44 RR24", "info string proven win",
    ...              "info string exact", "bestmove GR44"])["reports"][1]["proven"]
    'win'
    """
    reader = SearchReader()
    for line in lines:
        if reader.feed(line):
            break
    return {"bestmove": reader.bestmove, "reports": reader.reports, "errors": reader.errors}


class SearchReader:
    """read_search one line at a time, for a client that reads as the lines come:
    feed(line) is True at `bestmove`; `searched` once an `info` line other than a string
    came (the engine took the `go`)."""

    def __init__(self) -> None:
        self.reports: dict = {}
        self.errors: list = []
        self.bestmove: Optional[str] = None
        self.searched = False
        self._current: dict = {}

    def feed(self, line: str) -> bool:
        if line.startswith("bestmove"):
            words = line.split()
            self.bestmove = words[1] if len(words) > 1 else None
            return True
        if line.startswith(ERROR_PREFIX):
            self.errors.append(line[len(ERROR_PREFIX):].strip())
        elif line.startswith(LIMIT_PREFIX):
            self.errors.append(line[len(LIMIT_PREFIX):].strip())
        elif line.startswith("info "):
            info = parse_info(line)
            self.searched = self.searched or "string" not in info
            if "score" in info:
                self._current = self.reports[info.get("multipv", 1)] = \
                    {"info": info, "exact": False, "proven": None}
            elif info.get("string") == "exact":
                self._current["exact"] = True
            elif info.get("string", "").startswith("proven "):
                self._current["proven"] = info["string"].split()[1]
        return False


def _is_int(text: str) -> bool:
    return text.lstrip("+-").isdigit()


def go_command(limits: dict, side_to_move: str) -> tuple:
    """(`go ...` for play()'s keyword `limits`, the seconds the search may take by them: its
    movetime or its side's clock, the shorter, else None). ValueError for a value that is
    not a whole number from 0 up, no limit or an empty `searchmoves`, TypeError for an
    unknown limit."""
    limits = dict(limits)
    go = ["go"]
    for key in ("wtime", "btime", "winc", "binc", "movetime", "depth", "nodes"):
        value = limits.pop(key, None)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key}={value!r}: a whole number from 0 up")
            go += [key, str(value)]
    clock = dict(zip(go[1::2], go[2::2]))
    if limits.pop("prove", False):
        go.append("prove")
    searchmoves = limits.pop("searchmoves", None)
    if searchmoves is not None:
        if isinstance(searchmoves, str) or not searchmoves or \
                not all(isinstance(move, str) and move.strip() for move in searchmoves):
            raise ValueError(f"searchmoves={searchmoves!r}: a non-empty list of moves")
        go += ["searchmoves", *(move.strip() for move in searchmoves)]  # the rest of the line
    if limits:
        raise TypeError(f"unknown limits: {', '.join(limits)}")
    if "prove" not in go and \
            not any(key in clock for key in ("wtime", "btime", "movetime", "depth", "nodes")):
        raise ValueError("give a limit: movetime, depth, nodes, wtime, btime or prove")
    own = "wtime" if side_to_move == "w" else "btime"
    seconds = [int(clock[key]) / 1000 for key in ("movetime", own) if key in clock]
    return " ".join(go), (min(seconds) if seconds else None)
