#!/usr/bin/env bash
# A class's ladder on Slurm (python3 -m divercite.ladder --slurm N, issue 34), on a single-node
# cluster the test starts itself (tests/slurm_cluster.sh):
#
#   tests/ladder_slurm_test.sh PYTHON PACKAGE_DIR COURSE_DIR MATCH
#
# Four teams (the course's random and greedy players, two habit agents of issue 22), each
# agent sandboxed, in 3 shards of a job array and the report as a job after it: every pair's
# game played once, the standings printed and written. Then a fifth team, in 2 shards: only its
# 4 games are played, the other pairs' records stay byte for byte. Exits 77 (SKIP) where Slurm
# cannot be had (not root, packages missing and not installable).
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
cleanup() {
  local status=$?
  slurm_cluster_stop
  wait 2>/dev/null || true
  if [ $status -ne 0 ]; then
    tail -n 30 "$work"/ladder/slurm/*.out >&2 2>/dev/null || true
    tail -n 20 "$work"/cluster/log/* >&2 2>/dev/null || true
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT
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

team zz_late "$agents/globals_player.py" "$agents/simple_moves.py"
ladder --slurm 2 >"$work/second.out" 2>&1 || { cat "$work/second.out"; fail "the second ladder failed"; }
grep -q "5 teams, 10 pairs; 4 games to play" "$work/second.out" ||
  { cat "$work/second.out"; fail "not the 4 new games to play"; }
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

# Nothing left to play: no array, the report alone.
ladder --slurm 2 >"$work/third.out" 2>&1 || { cat "$work/third.out"; fail "the third run failed"; }
grep -q "0 games to play" "$work/third.out" || fail "the third run found games to play"
grep -q "Submitted .* shards" "$work/third.out" && fail "the third run submitted shards"
log "OK: the ladder on Slurm played its 6 games, then the fifth team's 4 alone"
