"""Jobs on a Slurm cluster, through its commands (sbatch, squeue): a job array, a job that
runs once another has ended, and the wait for both. For the ladder's --slurm; the runner's
own shards have tools/match/slurm/."""

import shutil
import subprocess
import time
from typing import Callable, Optional, Sequence


class SlurmError(RuntimeError):
    """Slurm's commands are missing or refused a job; the message has their words."""


def require():
    for command in ("sbatch", "squeue"):
        if shutil.which(command) is None:
            raise SlurmError(f"{command} not found: is this a Slurm submit host?")


def submit(shell_command: str, *, name: str, output: str, array: Optional[int] = None,
           cpus: int = 1, after: Optional[str] = None, extra: Sequence[str] = ()) -> str:
    """Submits `shell_command` (run by /bin/sh on the node, in this process's environment and
    folder) and returns the job's id. `array`: tasks 1..array, each with its
    $SLURM_ARRAY_TASK_ID; `after`: a job id this one waits for, whatever its end; `output`
    may hold %a (the array task) and is appended to, so that a task run again keeps its past."""
    command = ["sbatch", "--parsable", f"--job-name={name}", f"--output={output}",
               "--open-mode=append", f"--cpus-per-task={cpus}"]
    if array is not None:
        command.append(f"--array=1-{array}")
    if after is not None:
        command.append(f"--dependency=afterany:{after}")
    command += [*extra, "--wrap", shell_command]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SlurmError(f"sbatch refused the job {name}: "
                         f"{result.stderr.strip() or result.stdout.strip()}")
    return result.stdout.strip().split(";")[0]


def queued(job_ids: Sequence[str]) -> bool:
    """Whether any of the jobs (or of an array's tasks) is still pending or running."""
    for job in job_ids:
        result = subprocess.run(["squeue", "-h", "-o", "%i", "-j", job],
                                capture_output=True, text=True)
        # squeue refuses an id it no longer knows (a job long ended): nothing of it is queued.
        if result.returncode == 0 and result.stdout.strip():
            return True
    return False


def wait(job_ids: Sequence[str], interval: float, on_tick: Callable[[], None]):
    """Returns once none of the jobs is queued; calls on_tick every `interval` seconds."""
    while queued(job_ids):
        on_tick()
        time.sleep(interval)
