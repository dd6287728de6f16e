#!/usr/bin/env bash
# The shards of a divercite-match run for real, against the same match run in one process:
#
#   tests/shards_test.sh parallel MATCH ENGINE   GNU parallel runs 4 shards on this machine
#   tests/shards_test.sh slurm MATCH ENGINE      a single-node Slurm cluster of Debian's
#                                                slurm-wlm and munge, started here
#
# Each merge must give the single run's report and records (sorted by game number, move
# timings aside) byte for byte. The Slurm case also kills one array task part-way, resumes it
# with submit.sh --resume and checks that no game is lost or played twice, and lets
# submit.sh cancel an SPRT match once its merged report decides.
#
# The cluster is the test's own (tests/slurm_cluster.sh), in a temporary directory removed at
# exit. Exits 77 (SKIP) when the packages are missing and cannot be installed.
set -euo pipefail

mode=${1:?usage: shards_test.sh parallel|slurm MATCH ENGINE}
match=$(realpath "${2:?the divercite-match binary}")
engine=$(realpath "${3:?the divercite engine binary}")
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scripts=$source_dir/tools/match/slurm

source "$source_dir/tests/script_support.sh"
source "$source_dir/tests/slurm_cluster.sh"

work=$(mktemp -d /tmp/divercite-shards-test.XXXXXX)
chmod 755 "$work"
trap 'slurm_test_exit $? "$work"' EXIT
trap 'exit 130' INT TERM

# The match: deterministic engines (depth-limited), 24 games in 12 colour swaps.
flags=(-engine "cmd=$engine" name=d5 depth=5 -engine "cmd=$engine" name=d4 depth=4
  -games 2 -rounds 12 -repeat -openings random plies=4 -seed 7)

# Records sorted by game number, move timings zeroed.
records() { sed -E 's/"ms":[0-9]+/"ms":0/g' "$1" | sort -t: -k2,2n; }

expect_single_run() {  # DIR: its merged.jsonl and report.txt against the single run's
  cmp "$work/single.out" "$1/report.txt" || {
    diff "$work/single.out" "$1/report.txt" | head -20 >&2
    fail "$1/report.txt differs from the single run's report"
  }
  cmp <(records "$work/single.jsonl") <(records "$1/merged.jsonl") ||
    fail "$1/merged.jsonl differs from the single run's records"
}

single_run() {
  local start
  start=$(now)
  "$match" "${flags[@]}" -concurrency 1 -records "$work/single.jsonl" >"$work/single.out"
  log "single process: $(wc -l <"$work/single.jsonl") games in $(seconds_since "$start") s"
}

if [ "$mode" = parallel ]; then
  need parallel parallel
  single_run
  start=$(now)
  "$scripts/parallel.sh" --shards 4 --jobs 2 --dir "$work/parallel" --match "$match" \
    -- "${flags[@]}" >/dev/null
  log "GNU parallel, 4 shards on 2 CPUs, merged: $(seconds_since "$start") s"
  expect_single_run "$work/parallel"
  # Run again: every shard is done, nothing is played, the merge is the same.
  "$scripts/parallel.sh" --shards 4 --dir "$work/parallel" --match "$match" \
    -- "${flags[@]}" >/dev/null
  grep -q "Resuming: 6 of 6 games" "$work/parallel/shard-1.out" ||
    fail "a second run did not resume (shard-1.out)"
  [ "$(grep -c '^Finished game' "$work/parallel/shard-1.out")" = 6 ] ||
    fail "a second run played shard 1's games again"
  expect_single_run "$work/parallel"
  log "OK: GNU parallel's 4 shards merge to the single run, and resume"
  exit 0
fi

[ "$mode" = slurm ] || fail "unknown mode '$mode'"
slurm_need_root_and_packages

slurm_cluster_start "$work/cluster"

single_run

# --- 4 shards as a job array, and the merge job ----------------------------------------------
start=$(now)
"$scripts/submit.sh" --shards 4 --dir "$work/slurm" --match "$match" --interval 1 \
  -- "${flags[@]}" >"$work/submit.out" || { cat "$work/submit.out"; fail "submit.sh failed"; }
log "Slurm, 4 shards on 2 CPUs, merged by the merge job: $(seconds_since "$start") s"
expect_single_run "$work/slurm"
log "OK: the merged records and report equal the single run's"

# --- a shard killed part-way, then resumed -------------------------------------------------
"$scripts/submit.sh" --shards 4 --dir "$work/killed" --match "$match" --no-wait \
  -- "${flags[@]}" >/dev/null
array=$(cat "$work/killed/array.jobid")
for _ in $(seq 600); do
  [ -s "$work/killed/shard-2.jsonl" ] && break
  sleep 0.05
done
scancel "${array}_2"
for _ in $(seq 200); do squeue -h -j "${array}_2" 2>/dev/null | grep -q . || break; sleep 0.1; done
[ -f "$work/killed/shard-2.done" ] && fail "shard 2 finished before it could be killed"
played=$(grep -c . "$work/killed/shard-2.jsonl" || true)
log "killed shard 2 after $played of its 6 games"
for _ in $(seq 600); do squeue -h -j "$array" 2>/dev/null | grep -q . || break; sleep 0.1; done
"$scripts/submit.sh" --resume --dir "$work/killed" --interval 1 >"$work/resume.out" ||
  { cat "$work/resume.out"; fail "submit.sh --resume failed"; }
grep -q "Submitted shards 2 of 4" "$work/resume.out" || fail "resume did not resubmit shard 2 alone"
grep -q "Resuming: $played of 6 games" "$work/killed/shard-2.out" ||
  fail "shard 2 did not resume from its $played games"
[ -z "$(grep -o '^{"game":[0-9]*' "$work/killed/shard-2.jsonl" | sort | uniq -d)" ] ||
  fail "shard 2 played a game twice"
[ "$(grep -c . "$work/killed/shard-2.jsonl")" = 6 ] || fail "shard 2 does not hold its 6 games"
expect_single_run "$work/killed"
log "OK: killed and resumed, nothing lost or played twice"

# --- an SPRT stopped by the helper ---------------------------------------------------------
sprt=(-engine "cmd=$engine" name=d3 depth=3 -engine "cmd=$engine" name=d1 depth=1
  -games 2 -rounds 500 -repeat -openings random plies=4 -sprt elo0=0 elo1=200 alpha=0.2 beta=0.2)
"$scripts/submit.sh" --shards 2 --dir "$work/sprt" --match "$match" --interval 1 \
  -- "${sprt[@]}" >"$work/sprt.out" || { cat "$work/sprt.out"; fail "submit.sh (SPRT) failed"; }
grep -q "The SPRT decided: cancelling" "$work/sprt.out" || fail "submit.sh did not cancel the array"
tail -n1 "$work/sprt/report.txt" | grep -q "H1 accepted$" || fail "the report states no decision"
games=$(grep -c . "$work/sprt/merged.jsonl")
[ "$games" -lt 1000 ] || fail "every game was played"
[ -f "$work/sprt/shard-1.done" ] && fail "shard 1 played its whole part"
log "OK: the SPRT decided after $games merged games of 1000 and the array was cancelled"
