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
#   --sbatch "ARGS"  more sbatch arguments for both jobs (partition, time limit, account)
#   --interval S     seconds between progress merges (default 30)
#   --no-wait        return once submitted (print the job ids)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
die() {
  echo "submit.sh: $*" >&2
  exit 2
}

shards="" dir="" match="" cpus="" extra="" interval=30 wait=1 resume=0 indices=""
while [ $# -gt 0 ]; do
  case $1 in
    --shards) shards=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --match) match=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --sbatch) extra=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --no-wait) wait=0; shift ;;
    --resume) resume=1; shift ;;
    --indices) indices=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) die "unknown option '$1' (the match's flags go after --)" ;;
  esac
done
[ -n "$dir" ] || die "--dir is needed"
for command in sbatch squeue scancel; do
  command -v "$command" >/dev/null || die "$command not found: is this a Slurm submit host?"
done
dir=$(realpath -m "$dir")

flags=()
if [ "$resume" = 1 ]; then
  [ -f "$dir/flags" ] || die "$dir holds no submission to resume"
  mapfile -d '' flags <"$dir/flags"
  shards=$(cat "$dir/shards")
  match=$(cat "$dir/match")
  [ -n "$cpus" ] || cpus=$(cat "$dir/cpus")
  [ -n "$extra" ] || extra=$(cat "$dir/sbatch-args")
else
  [ $# -gt 0 ] || die "the match's flags are needed after --"
  [[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards N is needed (a positive number)"
  flags=("$@")
  if [ -z "$match" ]; then
    # A checkout keeps the scripts in tools/match/slurm/ and the binaries in build/bin/; an
    # installed copy in share/divercite/slurm/ and bin/ of the same prefix.
    match="$here/../../../build/bin/divercite-match"
    [ -x "$match" ] || match="$here/../../../bin/divercite-match"
  fi
  match=$(realpath "$match")
  [ -x "$match" ] || die "$match is not an executable"
  if [ -z "$cpus" ]; then
    cpus=1
    for ((i = 0; i + 1 < ${#flags[@]}; i++)); do
      [ "${flags[i]}" = "-concurrency" ] && cpus=${flags[i + 1]}
    done
  fi
  # The flags must make a match here before they make N failed shards there.
  if ! errors=$("$match" "${flags[@]}" -merge /dev/null 2>&1 >/dev/null); then
    die "the match's flags: ${errors%%$'\n'Merged*}"
  fi
  mkdir -p "$dir"
  if compgen -G "$dir/shard-*.jsonl" >/dev/null; then
    die "$dir already holds shards' records: --resume them, or choose another --dir"
  fi
  printf '%s\0' "${flags[@]}" >"$dir/flags"
  echo "$shards" >"$dir/shards"
  echo "$match" >"$dir/match"
  echo "$cpus" >"$dir/cpus"
  echo "$extra" >"$dir/sbatch-args"
fi
sprt=0
for flag in "${flags[@]}"; do [ "$flag" = "-sprt" ] && sprt=1; done
read -r -a extra_args <<<"$extra"

queued() { [ -n "$1" ] && squeue -h -j "$1" -o %i 2>/dev/null | grep -q .; }

if [ "$resume" = 1 ]; then
  queued "$(cat "$dir/array.jobid" 2>/dev/null)" &&
    die "shards of $dir are still queued or running (job $(cat "$dir/array.jobid")): wait, or scancel them first"
  if [ -z "$indices" ]; then
    missing=()
    for ((k = 1; k <= shards; k++)); do [ -f "$dir/shard-$k.done" ] || missing+=("$k"); done
    indices=$(IFS=,; echo "${missing[*]}")
  fi
  old_merge=$(cat "$dir/merge.jobid" 2>/dev/null || true)
  queued "$old_merge" && scancel "$old_merge"
  rm -f "$dir/report.txt"
else
  indices="1-$shards"
fi

dependency=()
if [ -n "$indices" ]; then
  array=$(sbatch --parsable "${extra_args[@]}" --array="$indices" --cpus-per-task="$cpus" \
    --output="$dir/shard-%a.out" --open-mode=append \
    "$here/shard.sbatch" "$match" "$shards" "$dir" "${flags[@]}")
  array=${array%%;*}
  echo "$array" >"$dir/array.jobid"
  dependency=(--dependency="afterok:$array")
  echo "Submitted shards $indices of $shards as job array $array"
else
  array=""
  echo "" >"$dir/array.jobid"
  echo "Every shard of $dir is done"
fi
merge=$(sbatch --parsable "${extra_args[@]}" "${dependency[@]}" --output="$dir/merge.out" \
  "$here/merge.sbatch" "$match" "$dir" "${flags[@]}")
merge=${merge%%;*}
echo "$merge" >"$dir/merge.jobid"
echo "Submitted the merge as job $merge (${dependency[*]:-no dependency})"
[ "$wait" = 1 ] || exit 0

# Merges what is there now into DIR/progress.txt; its last LLR line, if any.
progress() {
  local files=("$dir"/shard-*.jsonl)
  [ ${#files[@]} -gt 0 ] || return 0
  "$match" "${flags[@]}" -merge "${files[@]}" >"$dir/progress.txt" 2>"$dir/progress.notes" || true
  echo "$(date -u +%T) $(head -n1 "$dir/progress.notes" 2>/dev/null)" \
    "$(grep -E '^(Elo|LLR)' "$dir/progress.txt" | tail -n2 | tr '\n' ' ')"
}

shopt -s nullglob
while :; do
  sleep "$interval"
  status=$(progress)
  [ -n "$status" ] && echo "$status"
  if [ "$sprt" = 1 ] && queued "$array" &&
    grep '^LLR:' "$dir/progress.txt" 2>/dev/null | tail -n1 | grep -q 'accepted$'; then
    echo "The SPRT decided: cancelling the shards ($array) and the merge job ($merge)"
    scancel "$array" "$merge" || true
    while queued "$array"; do sleep 1; done
    files=("$dir"/shard-*.jsonl)
    "$match" "${flags[@]}" -merge "${files[@]}" -records "$dir/merged.jsonl" \
      >"$dir/report.txt.new" 2>"$dir/merge.out"
    mv "$dir/report.txt.new" "$dir/report.txt"
    cat "$dir/report.txt"
    exit 0
  fi
  if queued "$merge"; then
    reason=$(squeue -h -j "$merge" -o %r 2>/dev/null || true)
    if [ "$reason" = "DependencyNeverSatisfied" ]; then
      scancel "$merge" || true
      break
    fi
    continue
  fi
  queued "$array" || break
done

if [ -f "$dir/report.txt" ]; then
  cat "$dir/report.txt"
  exit 0
fi
failed=()
for ((k = 1; k <= shards; k++)); do [ -f "$dir/shard-$k.done" ] || failed+=("$k"); done
echo "submit.sh: shards ${failed[*]:-?} did not finish (see $dir/shard-K.out); resume with:" >&2
echo "  $here/submit.sh --resume --dir $dir" >&2
exit 1
