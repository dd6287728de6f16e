#!/usr/bin/env bash
# Runs a divercite-match in N shards with GNU parallel (no Slurm needed), on this machine or
# over ssh on several (-S), then merges them:
#
#   tools/match/slurm/parallel.sh --shards N --dir DIR [--jobs J] [-S HOSTS] [--match PATH] \
#       -- <match flags>
#
# Shard K plays -shard K/N into DIR/shard-K.jsonl (its output in DIR/shard-K.out); once all
# are done, DIR/merged.jsonl holds the whole match's records and DIR/report.txt (also printed)
# the report of one run of it. Run the same command again to resume: every shard continues
# from its records, and finished ones play nothing.
#
#   --jobs J        shards at once per host (default: one per CPU, as parallel's -j)
#   -S HOSTS        parallel's --sshlogin: e.g. -S 4/node1,4/node2 or -S :,node2 (: is this
#                   machine); DIR, the binaries and the engines must then be at the same
#                   paths on every host (a shared filesystem)
#   --match PATH    divercite-match (default: build/bin/divercite-match of this checkout,
#                   or bin/divercite-match of the prefix these scripts are installed in)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() {
  echo "parallel.sh: $*" >&2
  exit 2
}

shards="" dir="" match="" jobs="" hosts=""
while [ $# -gt 0 ]; do
  case $1 in
    --shards) shards=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -S|--sshlogin) hosts=$2; shift 2 ;;
    --match) match=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    *) die "unknown option '$1' (the match's flags go after --)" ;;
  esac
done
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards N is needed (a positive number)"
[ -n "$dir" ] || die "--dir is needed"
[ $# -gt 0 ] || die "the match's flags are needed after --"
command -v parallel >/dev/null || die "GNU parallel not found (Debian: apt-get install parallel)"
if [ -z "$match" ]; then
  # A checkout keeps the scripts in tools/match/slurm/ and the binaries in build/bin/; an
  # installed copy in share/divercite/slurm/ and bin/ of the same prefix.
  match="$here/../../../build/bin/divercite-match"
  [ -x "$match" ] || match="$here/../../../bin/divercite-match"
fi
match=$(realpath "$match")
dir=$(realpath -m "$dir")
mkdir -p "$dir"

# The shard's command line, quoted for the shell that parallel (or ssh) runs it in.
command=$(printf '%q ' "$match" "$@")
options=(--halt now,fail=1 --line-buffer --joblog "$dir/parallel.joblog")
[ -n "$jobs" ] && options+=(-j "$jobs")
[ -n "$hosts" ] && options+=(-S "$hosts")
qdir=$(printf '%q' "$dir")
seq 1 "$shards" | parallel "${options[@]}" \
  "$command -shard {}/$shards -records $qdir/shard-{}.jsonl >>$qdir/shard-{}.out 2>&1"

files=()  # a shard with no game (more shards than colour swaps) writes no file
for ((k = 1; k <= shards; k++)); do
  [ -f "$dir/shard-$k.jsonl" ] && files+=("$dir/shard-$k.jsonl")
done
[ ${#files[@]} -gt 0 ] || die "no shard wrote records (see $dir/shard-K.out)"
"$match" "$@" -merge "${files[@]}" -records "$dir/merged.jsonl" >"$dir/report.txt"
cat "$dir/report.txt"
