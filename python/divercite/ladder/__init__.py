"""A class's ladder: the offline round robin of a class's agents, every team's course agent
against every other, sandboxed, resumable, on this machine or as Slurm jobs:

    python3 -m divercite.ladder CLASS_DIR [--out DIR] [--tc 900] [--games 2] [--slurm N]

(`--help`, and docs/arena.md's "A class's ladder", say the rest.) From Python, the same
steps:

    from pathlib import Path
    from divercite import ladder
    settings = ladder.Settings(class_dir=Path("class"), out=Path("class-ladder"), tc="900")
    teams, refused = ladder.find_teams(settings.class_dir, settings.agent_file,
                                       settings.limits)
    failures = ladder.play(settings, teams)
    result = ladder.report(settings, teams, refused)
    print(ladder.text_report(result, teams, settings, None))
    ladder.write_report(result, teams, settings)   # OUT/index.html, OUT/standings.json

Modules, each over those below it:
    cli          the command line (argparse), main, the report's files (write_report)
    cluster      --slurm N: the shards as a Slurm job array, the report after them
    pairs        each pair a match of divercite-match, its agents through the course bridge
    report_html  the standings as a page (index.html)
    standings    the standings of the pairs' records, as printed and as standings.json
    settings     the ladder's settings, and what its folder holds for each pair
    teams        the teams of a class folder, those refused and why, their pairs
"""

from .cli import main, write_report
from .pairs import play, play_pair
from .settings import Settings, finished_games
from .standings import Report, report, text_report
from .teams import LadderError, RefusedTeam, Team, find_teams

__all__ = ["main", "play", "play_pair", "Settings", "finished_games", "Report", "report",
           "text_report", "write_report", "LadderError", "RefusedTeam", "Team", "find_teams"]
