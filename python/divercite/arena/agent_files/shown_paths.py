"""A game's reason as a team reads it: the folders where the arena or a worker keeps an
agent's files written away, so that a traceback says `my_player.py` and `lib/util.py`, the
names in the team's own upload.

A reason holds the text of the agent's exceptions and the last lines of its stderr, its
tracebacks (`File "/srv/arena/agents/8/my_player.py", line 3`) and the bridge's words
(`importing the agent /srv/.../my_player.py failed`): each with the folder its files were
played from, the arena's `agents/ID/` or a worker's `~/.cache/divercite-arena-worker/ID/`,
and the course's and the package's folders. A path under one of them is written relative to
it; the folder itself as words. Both its path and its real one (the sandbox resolves links)
are replaced, the longest first, so that a folder inside another is written as its own."""

from __future__ import annotations

import os
import re
from typing import Iterable, List, Optional, Tuple, Union

from ... import programs

PathText = Union[str, os.PathLike]
# The folder holding the package divercite: the bridge's own frames in a traceback.
PACKAGE_PARENT = programs.PACKAGE.parent
# What may follow a folder's own path in a reason, where it ends: a quote, a space, ':' ...
# (anything else continues a longer name, `agents/8` in `agents/80`).
_ENDS = r"(?=$|[\s'\",:;)\]])"


class ShownPaths:
    """Writes the given folders away in a reason (`shown(text)`)."""

    def __init__(self, agents: Iterable[PathText] = (), course: Optional[PathText] = None):
        """`agents`: the folders the agents were played from; `course`: the course's folder
        (the agents' tracebacks go through its files)."""
        named: List[Tuple[PathText, str]] = [(folder, "the agent's folder") for folder in agents]
        if course is not None:
            named.append((course, "the course's folder"))
        named.append((PACKAGE_PARENT, "the arena's package"))
        self.folders: List[Tuple[str, str]] = []
        for folder, words in named:
            for path in {os.path.abspath(folder), os.path.realpath(folder)}:
                if path != os.sep:
                    self.folders.append((path.rstrip(os.sep), words))
        self.folders.sort(key=lambda pair: len(pair[0]), reverse=True)

    def __call__(self, text: str) -> str:
        for folder, words in self.folders:
            text = text.replace(folder + os.sep, "")
            text = re.sub(re.escape(folder) + _ENDS, words, text)
        return text
