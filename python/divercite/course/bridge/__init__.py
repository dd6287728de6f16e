"""The bridge: a course Divercité agent as an engine of this project's protocol.

The INF8175 course gives students the `seahorse` framework and a Divercité folder; an agent is
a file (usually `my_player.py`) defining `MyPlayer(PlayerDivercite)` with
`compute_action(current_state=..., remaining_time=...)`. These modules run such a file,
unchanged, behind the UCI-style protocol of `divercite` (docs/protocol.md), so that
`divercite-match` can play it against anything; their command line is
`divercite.course.engine` (`python3 -m divercite.course.engine AGENT.py`, or the launcher
`tools/seahorse/course_engine.py`).

Modules, by role:
    protocol       the command loop (Session): positions, games, the move being thought
    agent_process  the bridge's side of the agents' processes, one per side and per game
    agent_child    what runs in an agent's process: the agent, its MyPlayer, its moves
    actions        the agent's answer read as the course's master reads it
    rules          the course's own code (rules, legal moves, scores) and its states
    locations      where the course's code lies
    interpreter    the Python that has the course's packages, with a fixed hash seed
    streams        private protocol streams; everything printed goes to stderr

Standard library only, plus divercite.notation and the course's code, imported from where it
lies (never copied).
"""
