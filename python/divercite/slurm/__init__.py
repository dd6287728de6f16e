"""Jobs on a Slurm cluster, through its commands (sbatch, squeue, scancel): the project's one
Slurm submitter. Every job the project submits is submitted here: a job array, a job that
runs once another has ended, their state, their cancel, the wait for them.

Its users:
    divercite.ladder          a class's ladder as a job array of shards, then its report
                              (`python3 -m divercite.ladder CLASS_DIR --slurm N`)
    divercite.arena           the arena's workers as a job array (`divercite-arena slurm`)
    divercite.slurm.shards    a divercite-match run in shards, then their merge: the program
                              of tools/match/slurm/submit.sh
"""

import shutil
import subprocess
import time
from typing import Callable, Optional, Sequence, Union


class SlurmError(RuntimeError):
    """Slurm's commands are missing or refused a job; the message has their words."""


def require(commands: Sequence[str] = ("sbatch", "squeue")) -> None:
    """SlurmError unless every one of `commands` is on PATH."""
    for command in commands:
        if shutil.which(command) is None:
            raise SlurmError(f"{command} not found: is this a Slurm submit host?")


def submit(shell_command: Optional[str] = None, *, script: Sequence[str] = (),
           name: Optional[str] = None, output: str, array: Union[int, str, None] = None,
           cpus: Union[int, str, None] = 1, after: Optional[str] = None,
           after_success: bool = False, append: bool = True, extra: Sequence[str] = ()) -> str:
    """Submits a job and returns its id. The job is `shell_command` (run by /bin/sh on the
    node) or `script`, a job script's path and its arguments; either runs in this process's
    environment and folder.

    `name`: the job's (None: the script's own #SBATCH --job-name). `array`: tasks 1..array,
    or the indices as sbatch takes them ("2,5"), each task with its $SLURM_ARRAY_TASK_ID.
    `cpus`: per task (None: the cluster's default). `after`: a job id this one waits for,
    whatever its end, or with `after_success` for its success (afterok; a failure leaves this
    one pending for ever, its reason DependencyNeverSatisfied). `output` may hold %a (the array
    task) and %A (the array's job); `append`: it is appended to, so that a task run again keeps
    its past (else the cluster's default, truncate). `extra`: the caller's own sbatch
    arguments (partition, time, account), last, so that they have the last word."""
    if (shell_command is None) == (not script):
        raise ValueError("submit: a shell command or a script, one of them")
    command = ["sbatch", "--parsable"]
    if name is not None:
        command.append(f"--job-name={name}")
    command.append(f"--output={output}")
    if append:
        command.append("--open-mode=append")
    if cpus is not None:
        command.append(f"--cpus-per-task={cpus}")
    if array is not None:
        command.append(f"--array={f'1-{array}' if isinstance(array, int) else array}")
    if after is not None:
        command.append(f"--dependency={'afterok' if after_success else 'afterany'}:{after}")
    command += extra
    command += ["--wrap", shell_command] if shell_command is not None else [*script]
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise SlurmError(f"sbatch cannot be run: {error}") from None
    if result.returncode != 0:
        job = name or (script[0] if script else "job")
        raise SlurmError(f"sbatch refused the job {job}: "
                         f"{result.stderr.strip() or result.stdout.strip()}")
    return result.stdout.strip().split(";")[0]


def queued(job_ids: Sequence[str]) -> bool:
    """Whether any of the jobs (or of an array's tasks) is still pending or running."""
    for job in job_ids:
        if not job:
            continue
        result = subprocess.run(["squeue", "-h", "-o", "%i", "-j", job],
                                capture_output=True, text=True)
        # squeue refuses an id it no longer knows (a job long ended): nothing of it is queued.
        if result.returncode == 0 and result.stdout.strip():
            return True
    return False


def pending_reason(job_id: str) -> str:
    """Why Slurm holds the job back (squeue's %r: Dependency, DependencyNeverSatisfied, ...);
    "" for a job it no longer knows."""
    result = subprocess.run(["squeue", "-h", "-j", job_id, "-o", "%r"],
                            capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""


def cancel(job_ids: Sequence[str]) -> None:
    """scancel the jobs (or an array's tasks, "ARRAY_K"); one already ended is no error."""
    ids = [job for job in job_ids if job]
    if ids:
        subprocess.run(["scancel", *ids], capture_output=True)


def wait(job_ids: Sequence[str], interval: float, on_tick: Callable[[], None]) -> None:
    """Returns once none of the jobs is queued; calls on_tick every `interval` seconds."""
    while queued(job_ids):
        on_tick()
        time.sleep(interval)
