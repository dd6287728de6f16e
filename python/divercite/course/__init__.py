"""The INF8175 course's framework (seahorse) and `divercite`, both ways.

A student's agent can search with the fast rules and answer the course's master:

    import divercite
    from divercite import course

    class MyPlayer(PlayerDivercite):
        def compute_action(self, current_state, remaining_time=1e9, **kwargs):
            position = divercite.Position.from_course_state(current_state)
            return course.action(my_search(position))  # my_search: a move string

Names offered here (from the modules below, imported when first used):
`position_from_course_state`, `action`, `move_of`, `CourseError` (states); `CourseGame`,
`game_of_states`, `read_recording`, `recording_states`, `write_recording`, `DEFAULT_NAMES`,
`RECORDING_IDS` (recordings).

Modules:
    states      course states and actions as positions and moves (the compiled rules)
    recordings  the course's recordings (`__REC__*.json`), read and written
    export      our games (match records, analyses) as course recordings, for the course's
                GUI: `python3 -m divercite.course.export records.jsonl -d replays/`
    engine      a course agent as an engine of our protocol, for divercite-match:
                `python3 -m divercite.course.engine my_player.py`
    bridged     that engine as a player of divercite.match (`agent_player`): how the ladder
                and the arena seat a course agent
    bridge      the modules of that engine: the protocol loop, the agents' processes, the
                course's own rules
    player      our engine as a course player (`MyPlayer`), which the course's master runs
                through tools/seahorse/divercite_player.py

The engine, the bridge and the player are pure Python, on any Python the course runs on:
only `states`, `recordings`, `export` and `bridged` (through divercite.match) need the
compiled rules.
"""

import importlib

_NAMES = {
    "states": ("position_from_course_state", "action", "move_of", "CourseError"),
    "recordings": ("CourseGame", "game_of_states", "read_recording", "recording_states",
                   "write_recording", "DEFAULT_NAMES", "RECORDING_IDS"),
}
_MODULE_OF = {name: module for module, names in _NAMES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
