#!/usr/bin/env bash
# A class's ladder on Slurm (python3 -m divercite.ladder --slurm N, issue 34), on a single-node
# cluster the test starts itself (tests/slurm_cluster.sh):
#
#   tests/ladder_slurm_test.sh PYTHON PACKAGE_DIR COURSE_DIR MATCH
#
# Four teams (the course's random and greedy players, two habit agents of issue 22), each
# agent sandboxed, in 3 shards of a job array and the report as a job after it: every pair's
# game played once, the standings printed and written. Then a fifth team, in 2 shards: only its
# 4 games are played, the other pairs' records stay byte for byte; meanwhile a second
# submission is refused and the waiting command interrupted (its jobs go on). Exits 77 (SKIP)
# where Slurm cannot be had (not root, packages missing and not installable).
set -euo pipefail

python=${1:?usage: ladder_slurm_test.sh PYTHON PACKAGE_DIR COURSE_DIR MATCH}
package=$(realpath "${2:?the folder holding the divercite package}")
course=$(realpath "${3:?the course folder}")
export DIVERCITE_MATCH
DIVERCITE_MATCH=$(realpath "${4:?the divercite-match binary}")
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
agents=$source_dir/tests/seahorse/agents

source "$source_dir/tests/script_support.sh"
source "$source_dir/tests/slurm_cluster.sh"
slurm_need_root_and_packages

work=$(mktemp -d /tmp/divercite-ladder-slurm-test.XXXXXX)
chmod 755 "$work"
trap 'slurm_test_exit $? "$work" "$work/ladder/slurm/*.out"' EXIT
trap 'exit 130' INT TERM

slurm_cluster_start "$work/cluster"

team() {  # NAME AGENT [FILES BESIDE IT...]
  mkdir -p "$work/class/$1"
  cp "$2" "$work/class/$1/my_player.py"
  if [ $# -gt 2 ]; then cp "${@:3}" "$work/class/$1/"; fi
}
team random "$course/divercite/random_player_divercite.py"
team greedy "$course/divercite/greedy_player_divercite.py"
team globals "$agents/globals_player.py" "$agents/simple_moves.py"
team class_state "$agents/class_state_player.py" "$agents/simple_moves.py"

ladder() {
  PYTHONPATH=$package "$python" -m divercite.ladder "$work/class" --out "$work/ladder" \
    --course "$course" --games 1 --tc 30 --memory-mb 512 --interval 1 "$@"
}
pair_hashes() { (cd "$work/ladder/pairs" && sha256sum -- *.jsonl); }
# Every game played to its end: these agents neither crash nor lose on time.
games_ended_normally() {
  "$python" - "$work"/ladder/pairs/*.jsonl <<'EOF' || fail "a game did not end normally"
import json, sys
for path in sys.argv[1:]:
    for line in open(path):
        record = json.loads(line)
        assert record["termination"] == "normal", (path, record.get("reason"))
EOF
}

start=$(now)
ladder --slurm 3 >"$work/first.out" 2>&1 || { cat "$work/first.out"; fail "the ladder failed"; }
log "4 teams in 3 shards on Slurm: $(seconds_since "$start") s"
grep -q "4 teams, 6 pairs; 6 games to play" "$work/first.out" || fail "not 6 games to play"
grep -q "Submitted 3 shards as job array" "$work/first.out" || fail "no job array"
grep -q "report: $work/ladder/index.html" "$work/first.out" ||
  { cat "$work/first.out"; fail "the report job printed no standings"; }
grep -qx "6 games (6 normal)" "$work/first.out" ||
  { cat "$work/first.out"; fail "the standings do not say that 6 games ended normally"; }
[ "$(find "$work/ladder/pairs" -name "*.jsonl" | wc -l)" = 6 ] || fail "not 6 pairs' records"
for k in 1 2 3; do
  grep -q "teams, 6 pairs" "$work/ladder/slurm/shard-$k.out" ||
    fail "shard $k wrote nothing (shard-$k.out)"
done
"$python" - "$work/ladder/standings.json" <<'EOF' || fail "standings.json"
import json, sys
standings = json.load(open(sys.argv[1]))
assert standings["teams"] == 4, standings
assert sorted(s["games"] for s in standings["standings"]) == [3, 3, 3, 3], standings
EOF
games_ended_normally
pair_hashes >"$work/before.sha256"

# A fifth team. Its jobs are held (--sbatch=--hold) until the user has tried to start the
# ladder a second time (refused: its jobs are queued) and stopped the waiting command (Ctrl-C:
# the jobs go on); then released.
team zz_late "$agents/globals_player.py" "$agents/simple_moves.py"
set -m  # a process group of its own, which SIGINT reaches (a script's background jobs ignore it)
ladder --slurm 2 --sbatch=--hold >"$work/second.out" 2>&1 &
waiting=$!
set +m
for _ in $(seq 300); do grep -q "Submitted the report" "$work/second.out" && break; sleep 0.1; done
grep -q "5 teams, 10 pairs; 4 games to play" "$work/second.out" ||
  { cat "$work/second.out"; fail "not the 4 new games to play"; }
status=0
ladder --slurm 2 >"$work/twice.out" 2>&1 || status=$?
if [ $status != 2 ] || ! grep -q "still queued or running" "$work/twice.out"; then
  cat "$work/twice.out"
  fail "a second submission while the first's jobs are queued was not refused (status $status)"
fi
kill -INT -- -"$waiting"
status=0
wait "$waiting" || status=$?
if [ $status != 130 ] || ! grep -q "The jobs go on without this command" "$work/second.out"; then
  cat "$work/second.out"
  fail "Ctrl-C while waiting: status $status"
fi
read -r -a held <"$work/ladder/slurm/jobs"
scontrol release "${held[@]}"
for _ in $(seq 1800); do squeue -h | grep -q . || break; sleep 0.1; done
squeue -h | grep -q . && fail "the released jobs did not end within 3 minutes: $(squeue -h)"
(cd "$work/ladder/pairs" && sha256sum --quiet -c "$work/before.sha256") ||
  fail "an earlier pair's records changed"
[ "$(find "$work/ladder/pairs" -name "*.jsonl" | wc -l)" = 10 ] || fail "not 10 pairs' records"
"$python" - "$work/ladder/standings.json" <<'EOF' || fail "standings.json after the fifth team"
import json, sys
standings = json.load(open(sys.argv[1]))
assert standings["teams"] == 5, standings
assert sorted(s["games"] for s in standings["standings"]) == [4] * 5, standings
EOF
games_ended_normally

# Nothing left to play: no array, the report alone (the interrupted command's report job had
# written standings.json already).
ladder --slurm 2 >"$work/third.out" 2>&1 || { cat "$work/third.out"; fail "the third run failed"; }
grep -q "0 games to play" "$work/third.out" || fail "the third run found games to play"
grep -q "Submitted .* shards" "$work/third.out" && fail "the third run submitted shards"
grep -q "report: $work/ladder/index.html" "$work/third.out" || fail "the third run's standings"
log "OK: the ladder on Slurm played its 6 games, then the fifth team's 4 alone"
