#!/usr/bin/env bash
# Runs a divercite-match in N shards on a Slurm cluster, then merges them:
#
#   tools/match/slurm/submit.sh --shards N --dir DIR [options] -- <match flags>
#   tools/match/slurm/submit.sh --resume --dir DIR [--indices 3,7] [options]
#
# Submits a job array (shard.sbatch: task K plays -shard K/N into DIR/shard-K.jsonl) and a
# merge job that waits for it (merge.sbatch, --dependency=afterok: DIR/merged.jsonl and
# DIR/report.txt, the report of one run of the whole match). Then, unless --no-wait, it merges
# what the shards have written every --interval seconds (DIR/progress.txt), and with -sprt
# among the flags cancels the array and the merge job as soon as the merged SPRT decides, and
# writes the final merge itself. It returns once the match is merged (exit 0, the report on
# stdout) or once a shard failed (exit 1, with the command that resumes).
#
# --resume submits again the shards of DIR that did not finish (no DIR/shard-K.done; or the
# --indices given) and a new merge job: each shard resumes from its records, so nothing is
# lost or played twice. The flags, the number of shards and the binary are those of the
# first submission (kept in DIR).
#
# DIR, the binaries and the engines must be on a filesystem that the nodes and this host
# share. Options:
#   --match PATH     divercite-match (default: build/bin/divercite-match of this checkout,
#                    or bin/divercite-match of the prefix these scripts are installed in)
#   --cpus N         CPUs per shard (default: the flags' -concurrency, else 1)
#   --sbatch "ARGS"  more sbatch arguments for both jobs (partition, time limit, account),
#                    after this command's own
#   --interval S     seconds between progress merges (default 30)
#   --no-wait        return once submitted (print the job ids)
#
# It needs python3 and the package divercite, its pure-Python part: divercite.slurm.shards
# does all of the above through the project's one Slurm submitter, divercite.slurm. The
# package is this checkout's python/, or the one installed in the prefix these scripts are
# installed in (lib/python3*/*-packages), or the one python3 imports.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for package in "$here/../../../python" "$here"/../../../lib/python3*/*-packages; do
  if [ -f "$package/divercite/slurm/shards.py" ]; then
    PYTHONPATH=$(cd "$package" && pwd)${PYTHONPATH:+:$PYTHONPATH}
    export PYTHONPATH
    break
  fi
done
exec python3 -m divercite.slurm.shards "$here" "$@"
