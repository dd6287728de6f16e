#!/usr/bin/env bash
# An arena's workers as a Slurm job array (`divercite-arena slurm URL --worker-token TOKEN
# --tasks N`, issue 46), on a single-node cluster of the test's own (tests/slurm_cluster.sh):
#
#   tests/arena/arena_slurm_test.sh PYTHON PACKAGE_DIR COURSE_DIR
#
# A real `serve` with no workers of its own; two teams (the course's random and greedy
# players) uploaded through the API; two tasks of a job array play their check games and the
# matchmaking's, each task's games claimed under its own name; the token on no job's command line;
# `scancel` stops the tasks, which give their games back at once. Every game kept replays
# legally. The two tasks share one folder of versions, as a node's tasks share their home's
# cache. Exits 77 (SKIP) where Slurm cannot be had (not root, packages missing).
set -euo pipefail

python=${1:?usage: arena_slurm_test.sh PYTHON PACKAGE_DIR COURSE_DIR}
package=$(realpath "${2:?the folder holding the divercite package}")
course=$(realpath "${3:?the course folder}")
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

source "$source_dir/tests/script_support.sh"
source "$source_dir/tests/slurm_cluster.sh"
slurm_need_root_and_packages

work=$(mktemp -d /tmp/divercite-arena-slurm-test.XXXXXX)
chmod 755 "$work"
serve=""
cleanup() {
  local status=$1
  if [ -n "$serve" ]; then kill "$serve" 2>/dev/null || true; fi
  slurm_test_exit "$status" "$work" "$work/out/*.out" "$work/serve.log"
}
trap 'cleanup $?' EXIT
trap 'exit 130' INT TERM

slurm_cluster_start "$work/cluster"
export PYTHONPATH=$package${PYTHONPATH:+:$PYTHONPATH}
arena() { "$python" -m divercite.arena "$@"; }
# The arena database's rows for a query, one a line, fields separated by spaces.
rows() {
  "$python" - "$work/arena/arena.sqlite3" "$1" <<'EOF'
import sqlite3, sys
with sqlite3.connect(sys.argv[1], timeout=30) as connection:
    for row in connection.execute(sys.argv[2]):
        print(*row)
EOF
}
wait_for() {  # SECONDS WHAT COMMAND...: the command's success within SECONDS
  local seconds=$1 what=$2 deadline
  deadline=$((SECONDS + seconds))
  until "${@:3}"; do
    [ $SECONDS -lt $deadline ] || fail "not within $seconds s: $what"
    sleep 1
  done
}

arena init "$work/arena" --tc 5 --course "$course" >/dev/null
arena team add "$work/arena" rand greed >"$work/teams"
token=$(arena worker-token add "$work/arena" cluster 2>/dev/null | cut -d' ' -f2)
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$python" -m divercite.arena serve "$work/arena" --port "$port" --workers 0 >"$work/serve.log" 2>&1 &
serve=$!
wait_for 60 "serve started" grep -q "The arena is at" "$work/serve.log"
url="http://127.0.0.1:$port/"

start=$(now)
arena slurm "$url" --worker-token "$token" --tasks 2 --output "$work/out" \
  --folder "$work/cache" >"$work/slurm.out" ||
  { cat "$work/slurm.out"; fail "divercite-arena slurm failed"; }
job=$(sed -n 's/^job \([0-9]*\):.*/\1/p' "$work/slurm.out")
[ -n "$job" ] || { cat "$work/slurm.out"; fail "no job id printed"; }
scontrol show job "$job" | grep -q -- "$token" && fail "the worker token is on the job's command"

upload() {  # TEAM FILE
  local team_token
  team_token=$(awk -v team="$1" '$1 == team { print $2 }' "$work/teams")
  curl -sf -H "Authorization: Token $team_token" -F "file=@$2;filename=my_player.py" \
    "${url}api/agents" >/dev/null || fail "the upload of $1 was refused"
}
upload rand "$course/divercite/random_player_divercite.py"
upload greed "$course/divercite/greedy_player_divercite.py"

ready() { [ "$(rows "SELECT count(*) FROM arena_version WHERE status = 'ready' AND house = '' \
  AND entry_id IN (SELECT id FROM arena_entry WHERE kind = 'team')")" = 2 ]; }
wait_for 180 "both versions checked and ready" ready
played() { [ "$(rows "SELECT count(*) FROM arena_game WHERE status = 'done'")" -ge 8 ]; }
wait_for 240 "8 games played by the job's tasks" played
log "2 tasks on Slurm: both versions ready and 8 games played in $(seconds_since "$start") s"
claims=$(rows "SELECT worker FROM arena_game WHERE status IN ('done', 'playing')")
for task in 1 2; do
  grep -q "^cluster/[^/]*-${job}_$task/" <<<"$claims" || fail "task $task played no game"
  grep -q "playing the games of $url" "$work/out/worker-${job}_$task.out" ||
    fail "task $task's output says nothing"
done

scancel "$job"
wait_for 60 "the tasks ended" bash -c "! squeue -h -j $job | grep -q ."
left=$(rows "SELECT id, worker FROM arena_game WHERE status = 'playing'")
[ -z "$left" ] || fail "games left playing by the cancelled tasks: $left"
"$python" - "$work/arena/arena.sqlite3" <<'EOF' || fail "a kept game does not replay"
import sqlite3, sys
from divercite.records import GameRecord
with sqlite3.connect(sys.argv[1]) as connection:
    rows = connection.execute("SELECT record, result FROM arena_game WHERE status = 'done'")
    for text, result in rows:
        record = GameRecord.from_json(text)
        record.positions()
        assert record.result == result
EOF
log "OK: the job's tasks played the arena's games and gave theirs back when cancelled"
