"""A divercite-match run in N shards on a Slurm cluster, then merged: the program of
tools/match/slurm/submit.sh, which runs it as

    python3 -m divercite.slurm.shards SCRIPTS_DIR [submit.sh's arguments]

SCRIPTS_DIR is submit.sh's folder: its job scripts (shard.sbatch, merge.sbatch), its usage
(the comment at its top, which --help prints), the default runner beside it. Every job goes
through the project's one submitter (divercite.slurm). What it does, its options and its
files are submit.sh's usage's and docs/matches.md's; it needs the runner, not the compiled
rules.
"""

import glob
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import List, NoReturn, Optional

from . import SlurmError, cancel, pending_reason, queued, require, submit

PROG = "submit.sh"


def die(message: str) -> NoReturn:
    print(f"{PROG}: {message}", file=sys.stderr)
    raise SystemExit(2)


def usage(scripts: Path) -> NoReturn:
    """The comment at the top of submit.sh (its second line to `set -euo`), on stderr."""
    lines = (scripts / PROG).read_text().splitlines()[1:]
    for line in lines:
        if line.startswith("set -euo"):
            break
        if line.startswith("#"):
            line = line[2:] if line.startswith("# ") else line[1:]
        print(line, file=sys.stderr)
    raise SystemExit(2)


class Options:
    """submit.sh's options, as given (None: not given)."""

    def __init__(self, argv: List[str], scripts: Path):
        self.shards = self.dir = self.match = self.cpus = self.extra = None
        self.indices = ""
        self.interval = "30"
        self.wait = True
        self.resume = False
        valued = {"--shards": "shards", "--dir": "dir", "--match": "match", "--cpus": "cpus",
                  "--sbatch": "extra", "--interval": "interval", "--indices": "indices"}
        words = list(argv)
        while words:
            word = words.pop(0)
            if word in valued:
                if not words:
                    die(f"{word} needs a value")
                setattr(self, valued[word], words.pop(0))
            elif word == "--no-wait":
                self.wait = False
            elif word == "--resume":
                self.resume = True
            elif word == "--":
                break
            elif word in ("-h", "--help"):
                usage(scripts)
            else:
                die(f"unknown option '{word}' (the match's flags go after --)")
        self.flags = words  # the match's
        try:
            self.seconds = float(self.interval)
        except ValueError:
            die(f"--interval {self.interval}: expected seconds")


def read(path: Path) -> str:
    """A value kept in DIR, as `$(cat path)` reads it: its last newlines dropped."""
    return path.read_text().rstrip("\n")


class Submission:
    """A sharded match's folder (DIR) and what it keeps there: the match's flags, the number of
    shards, the runner, the CPUs and sbatch's arguments of the first submission."""

    def __init__(self, options: Options, scripts: Path):
        self.scripts = scripts
        self.dir = Path(os.path.realpath(options.dir))
        if options.resume:
            self.resume(options)
        else:
            self.first(options)
        self.sprt = "-sprt" in self.flags
        self.extra = shlex.split(self.extra_text)

    def resume(self, options: Options) -> None:
        if not (self.dir / "flags").is_file():
            die(f"{self.dir} holds no submission to resume")
        kept = (self.dir / "flags").read_text()
        self.flags = kept.split("\0")[:-1] if kept else []
        self.shards = int(read(self.dir / "shards"))
        self.match = read(self.dir / "match")
        self.cpus = options.cpus or read(self.dir / "cpus")
        self.extra_text = options.extra or read(self.dir / "sbatch-args")

    def first(self, options: Options) -> None:
        if not options.flags:
            die("the match's flags are needed after --")
        if not re.fullmatch(r"[1-9][0-9]*", options.shards or ""):
            die("--shards N is needed (a positive number)")
        self.shards = int(options.shards)
        self.flags = options.flags
        match = options.match
        if not match:
            # A checkout keeps the scripts in tools/match/slurm/ and the binaries in build/bin/;
            # an installed copy in share/divercite/slurm/ and bin/ of the same prefix.
            match = self.scripts / "../../../build/bin/divercite-match"
            if not os.access(match, os.X_OK):
                match = self.scripts / "../../../bin/divercite-match"
        self.match = os.path.realpath(match)
        if not (os.path.isfile(self.match) and os.access(self.match, os.X_OK)):
            die(f"{self.match} is not an executable")
        self.cpus = options.cpus
        if self.cpus and not re.fullmatch(r"[1-9][0-9]*", self.cpus):
            die(f"--cpus {self.cpus}: expected a positive number")
        if not self.cpus:
            self.cpus = "1"
            for flag, value in zip(self.flags, self.flags[1:]):
                if flag == "-concurrency":
                    self.cpus = value
        self.extra_text = options.extra or ""
        # The flags must make a match here before they make N failed shards there.
        checked = subprocess.run([self.match, *self.flags, "-merge", "/dev/null"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                 errors="replace")
        if checked.returncode != 0:
            errors = checked.stderr.rstrip("\n").split("\nMerged")[0]
            die(f"the match's flags: {errors}")
        self.dir.mkdir(parents=True, exist_ok=True)
        if glob.glob(glob.escape(str(self.dir)) + "/shard-*.jsonl"):
            die(f"{self.dir} already holds shards' records: --resume them, or choose another "
                "--dir")
        (self.dir / "flags").write_text("".join(flag + "\0" for flag in self.flags))
        for name, value in (("shards", self.shards), ("match", self.match),
                            ("cpus", self.cpus), ("sbatch-args", self.extra_text)):
            (self.dir / name).write_text(f"{value}\n")

    def shard_files(self) -> List[str]:
        return sorted(glob.glob(glob.escape(str(self.dir)) + "/shard-*.jsonl"))

    def unfinished(self) -> List[int]:
        return [k for k in range(1, self.shards + 1)
                if not (self.dir / f"shard-{k}.done").exists()]

    def merge(self, files: List[str], records: Optional[Path], report, notes) -> int:
        """The runner's -merge of `files`: its report to `report`, its notes to `notes`; its
        exit status."""
        more = ["-records", str(records)] if records is not None else []
        return subprocess.run([self.match, *self.flags, "-merge", *files, *more],
                              stdout=report, stderr=notes).returncode


def submit_jobs(job: Submission, options: Options):
    """The shards' array (those unfinished, with --resume) and the merge job after it; their
    ids (the array's "" when every shard is done)."""
    folder = job.dir
    if options.resume:
        array = read(folder / "array.jobid") if (folder / "array.jobid").exists() else ""
        if queued([array]):
            die(f"shards of {folder} are still queued or running (job {array}): wait, or "
                "scancel them first")
        indices = options.indices or ",".join(str(k) for k in job.unfinished())
        old_merge = read(folder / "merge.jobid") if (folder / "merge.jobid").exists() else ""
        if queued([old_merge]):
            cancel([old_merge])
        (folder / "report.txt").unlink(missing_ok=True)
    else:
        indices = f"1-{job.shards}"
    if indices:
        array = submit(script=[str(job.scripts / "shard.sbatch"), job.match, str(job.shards),
                               str(folder), *job.flags],
                       name="divercite-shard", array=indices, cpus=job.cpus,
                       output=str(folder / "shard-%a.out"), extra=job.extra)
        (folder / "array.jobid").write_text(array + "\n")
        print(f"Submitted shards {indices} of {job.shards} as job array {array}")
    else:
        array = ""
        (folder / "array.jobid").write_text("\n")
        print(f"Every shard of {folder} is done")
    merge = submit(script=[str(job.scripts / "merge.sbatch"), job.match, str(folder),
                           *job.flags],
                   name="divercite-merge", output=str(folder / "merge.out"), cpus=None,
                   append=False, after=array or None, after_success=True, extra=job.extra)
    (folder / "merge.jobid").write_text(merge + "\n")
    dependency = f"--dependency=afterok:{array}" if array else "no dependency"
    print(f"Submitted the merge as job {merge} ({dependency})")
    return array, merge


def progress(job: Submission) -> Optional[str]:
    """Merges what is there now into DIR/progress.txt; the line saying so (the time, the
    merge's first note, its last Elo and LLR lines), None while no shard has records."""
    files = job.shard_files()
    if not files:
        return None
    with open(job.dir / "progress.txt", "w") as report, \
            open(job.dir / "progress.notes", "w") as notes:
        job.merge(files, None, report, notes)
    said = (job.dir / "progress.notes").read_text(errors="replace").splitlines()
    lines = [line for line in (job.dir / "progress.txt").read_text(errors="replace")
             .splitlines() if line.startswith(("Elo", "LLR"))]
    return (f"{time.strftime('%H:%M:%S', time.gmtime())} {said[0] if said else ''} "
            + "".join(line + " " for line in lines[-2:]))


def sprt_decided(job: Submission) -> bool:
    path = job.dir / "progress.txt"
    if not path.exists():
        return False
    llr = [line for line in path.read_text(errors="replace").splitlines()
           if line.startswith("LLR:")]
    return bool(llr) and llr[-1].endswith("accepted")


def follow(job: Submission, array: str, merge: str, seconds: float) -> int:
    """Merges the shards' records every `seconds` until the merge job has ended (or, with
    -sprt, until the merged SPRT decides: then it cancels the jobs and merges itself)."""
    while True:
        time.sleep(seconds)
        line = progress(job)
        if line:
            print(line)
        if job.sprt and queued([array]) and sprt_decided(job):
            print(f"The SPRT decided: cancelling the shards ({array}) and the merge job "
                  f"({merge})")
            cancel([array, merge])
            while queued([array]):
                time.sleep(1)
            with open(job.dir / "report.txt.new", "w") as report, \
                    open(job.dir / "merge.out", "w") as notes:
                status = job.merge(job.shard_files(), job.dir / "merged.jsonl", report, notes)
            if status != 0:
                return status  # its notes are in DIR/merge.out
            os.replace(job.dir / "report.txt.new", job.dir / "report.txt")
            sys.stdout.write((job.dir / "report.txt").read_text())
            return 0
        if queued([merge]):
            if pending_reason(merge) == "DependencyNeverSatisfied":
                cancel([merge])
                break
            continue
        if not queued([array]):
            break
    report = job.dir / "report.txt"
    if report.exists():
        sys.stdout.write(report.read_text())
        return 0
    failed = " ".join(str(k) for k in job.unfinished()) or "?"
    print(f"{PROG}: shards {failed} did not finish (see {job.dir}/shard-K.out); resume with:",
          file=sys.stderr)
    print(f"  {job.scripts}/{PROG} --resume --dir {job.dir}", file=sys.stderr)
    return 1


def main(argv: List[str]) -> int:
    sys.stdout.reconfigure(line_buffering=True)  # each line as it is said, as echo does
    if not argv:
        print(f"usage: python3 -m divercite.slurm.shards SCRIPTS_DIR [{PROG}'s arguments]",
              file=sys.stderr)
        return 2
    scripts = Path(argv[0])
    try:
        options = Options(argv[1:], scripts)
        if not options.dir:
            die("--dir is needed")
        try:
            require(("sbatch", "squeue", "scancel"))
        except SlurmError as error:
            die(str(error))
        job = Submission(options, scripts)
        try:
            array, merge = submit_jobs(job, options)
        except SlurmError as error:
            print(f"{PROG}: {error}", file=sys.stderr)
            return 1
        if not options.wait:
            return 0
        return follow(job, array, merge, options.seconds)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
