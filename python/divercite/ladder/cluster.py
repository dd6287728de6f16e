"""The ladder on a Slurm cluster (--slurm N): the missing games as a job array of N shards
(each `--shard K/N` of the same command), then the report as a job after it, through the
project's one submitter (divercite.slurm); the wait, with progress."""

from __future__ import annotations

import shlex
import sys
import time
from typing import List, Optional, Sequence

from .. import slurm
from .settings import Settings, games_played
from .teams import LadderError, Team, pairs_of


def command_line(settings: Settings) -> List[str]:
    """The command that runs this ladder again, with the same settings (for a Slurm node)."""
    command = [sys.executable, "-m", "divercite.ladder", str(settings.class_dir),
               "--out", str(settings.out), "--tc", settings.tc, "--games", str(settings.games),
               "--plies", str(settings.plies), "--seed", str(settings.seed),
               "--concurrency", str(settings.concurrency), "--agent-file", settings.agent_file,
               "--startup-timeout", f"{settings.startup_timeout:g}"]
    if not settings.sandbox:
        command.append("--no-sandbox")
    return command + list(settings.bridge_options)


def submit_to_slurm(settings: Settings, teams: Sequence[Team], shards: int, cpus: int,
                    sbatch: Sequence[str], wait: bool, interval: float,
                    estimate: Optional[int]) -> int:
    """The missing games as a Slurm job array of `shards` tasks (--shard K/N each), then the
    report as a job after it; with `wait`, returns when the report is written: 0 if every
    pair has its games, 1 otherwise (the same command plays what is missing)."""
    slurm.require()
    folder = settings.out / "slurm"
    folder.mkdir(parents=True, exist_ok=True)
    jobs_file = folder / "jobs"
    earlier = jobs_file.read_text().split() if jobs_file.exists() else []
    if slurm.queued(earlier):
        raise LadderError(f"this ladder's jobs {', '.join(earlier)} are still queued or "
                          "running: wait for them, or scancel them first")
    (settings.out / "pairs").mkdir(exist_ok=True)
    command = " ".join(shlex.quote(part) for part in command_line(settings))
    total = len(pairs_of(teams)) * settings.games
    before = games_played(settings, teams)
    print(f"{len(teams)} teams, {len(pairs_of(teams))} pairs; {total - before} games to play")
    jobs = []
    if before < total:
        jobs.append(slurm.submit(f"{command} --shard \"$SLURM_ARRAY_TASK_ID/{shards}\"",
                                 name="divercite-ladder", output=str(folder / "shard-%a.out"),
                                 array=shards, cpus=cpus, extra=sbatch))
        jobs_file.write_text(jobs[0] + "\n")  # kept at once: the report's sbatch may fail
        each = f"{cpus} CPU{'s' if cpus > 1 else ''} each"
        print(f"Submitted {shards} shards as job array {jobs[0]} ({each}): "
              f"{folder}/shard-K.out")
    report_out = folder / "report.out"
    report_out.unlink(missing_ok=True)  # this submission's report alone
    report_command = command + " --report" + (f" --estimate {estimate}" if estimate else "")
    jobs.append(slurm.submit(report_command, name="divercite-ladder-report",
                             output=str(report_out), after=jobs[0] if jobs else None,
                             extra=sbatch))
    print(f"Submitted the report as job {jobs[-1]}: {report_out}", flush=True)
    jobs_file.write_text(" ".join(jobs) + "\n")
    if not wait:
        return 0
    last = before

    def progress():
        nonlocal last
        played = games_played(settings, teams)
        if played != last:
            print(f"{time.strftime('%H:%M:%S')} {played} of {total} games", flush=True)
            last = played
    try:
        slurm.wait(jobs, interval, progress)
    except KeyboardInterrupt:
        print(f"\nThe jobs go on without this command (scancel {' '.join(jobs)} stops them); "
              "the same command, once they have ended, plays what they left", file=sys.stderr)
        return 130
    if report_out.exists():
        print(report_out.read_text(), end="")
    missing = total - games_played(settings, teams)
    if missing:
        print(f"divercite.ladder: {missing} games were not played (see {folder}/shard-*.out); "
              "the same command plays them", file=sys.stderr)
        return 1
    return 0
