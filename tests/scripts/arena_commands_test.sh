#!/usr/bin/env bash
# scripts/arena.sh's printed commands work pasted into a fresh shell (issue 57): each is run
# by `env -i bash -c LINE` (no PYTHONPATH, no variable of ours, another folder), with its
# placeholders filled in: the arena's `team add`, `team list`, `upload` and `audit` while the
# demo serves, and `init`'s own "Next" lines (`team add`, then `serve`, stopped once it
# serves). The demo runs in a copy of the checkout whose install-deps.sh and cmake do nothing,
# its build/ the build tree's package and programs; WORKERS reaches serve (0, then 1 when the
# printed "again" line runs it, whose PATH keeps the fake cmake: the real one would build).
#
#   arena_commands_test.sh SOURCE_DIR PACKAGE_DIR COURSE_DIR
#   (PACKAGE_DIR: a build tree's python/, its programs in ../bin)
set -euo pipefail
source_dir=$(cd "$1" && pwd)
package=$(cd "$2" && pwd)
course=$(cd "$3" && pwd)
if ! /usr/bin/python3 -c "import django" 2>/dev/null; then
  echo "SKIPPED: the arena needs Django in /usr/bin/python3 (python3-django)"
  exit 77
fi
tmp=$(mktemp -d)
served=""
stop_serving() {
  if [ -n "$served" ]; then
    kill -TERM -- "-$served" 2>/dev/null || true
    wait "$served" 2>/dev/null || true
    served=""
  fi
}
trap 'stop_serving; rm -rf "$tmp"' EXIT
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# The copy: the checkout's entries linked but scripts/ (copied, install-deps.sh doing nothing)
# and build/ (the build tree's package and programs).
repo=$tmp/main
mkdir -p "$repo/build" "$tmp/bin" "$tmp/work"
for entry in "$source_dir"/* "$source_dir"/.[!.]*; do
  [ -e "$entry" ] || continue
  case "${entry##*/}" in
    scripts | build* | .git) ;;
    *) ln -s "$entry" "$repo/${entry##*/}" ;;
  esac
done
cp -r "$source_dir/scripts" "$repo/scripts"
printf '#!/bin/sh\nexit 0\n' >"$repo/scripts/install-deps.sh"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/cmake"
chmod +x "$tmp/bin/cmake"
ln -s "$package" "$repo/build/python"
ln -s "$package/../bin" "$repo/build/bin"
fresh_path="$tmp/bin:/usr/bin:/bin"
port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# serve_in LOG COMMAND...: started in a session of its own, until its address is printed.
serve_in() {
  local log=$1
  shift
  setsid "$@" >"$log" 2>&1 &
  served=$!
  for _ in $(seq 600); do
    grep -q "The arena is at" "$log" && return 0
    kill -0 "$served" 2>/dev/null || break
    sleep 0.2
  done
  tail -30 "$log" >&2
  fail "$* did not serve"
}

# pasted LINE: the line run as pasted into a fresh shell, in another folder; its output.
pasted() {
  (cd "$tmp/work" && env -i bash -c "$1" 2>&1) || fail "pasted, it failed: $1"
}

# The demo, from the root folder, with nothing of the caller's environment.
# A folder whose name has a space: the printed commands quote it.
demo="$tmp/demo dir"
cd /
[ "$(env -i PATH="$fresh_path" WORKERS=x bash "$repo/scripts/arena.sh" "$demo" 2>&1)" = \
  "scripts/arena.sh: WORKERS=x: a number of games played at once (0 or more)" ] ||
  fail "WORKERS=x was not refused"
serve_in "$tmp/demo.log" env -i PATH="$fresh_path" DIVERCITE_COURSE_DIR="$course" \
  WORKERS=0 PORT="$(port)" bash "$repo/scripts/arena.sh" "$demo"
grep -q "(0 game workers)" "$tmp/demo.log" || fail "WORKERS=0 did not reach serve"
grep -q "^Next" "$tmp/demo.log" && fail "the demo printed init's Next lines, which it does itself"
mapfile -t commands < <(sed -n '/^The arena.s commands, from any shell/,/^This demo again/p' \
  "$tmp/demo.log" | grep '^  ' | sed 's/^  //')
[ "${#commands[@]}" -eq 4 ] || fail "not the 4 commands expected: ${commands[*]}"
cp "$course/divercite/random_player_divercite.py" "$tmp/work/my_player.py" 2>/dev/null ||
  cp "$course/random_player_divercite.py" "$tmp/work/my_player.py"
for line in "${commands[@]}"; do
  line=${line/NAME.../pasted-team}
  line=${line/TEAM/example-greedy}
  said=$(pasted "$line")
  case "$line" in
    *" team add "*) expected="^pasted-team [A-Za-z0-9_-]+$" ;;
    *" team list "*) expected="^example-random +versions: 1" ;;
    *" upload "*) expected="^example-greedy version 2 \(id [0-9]+\): checking$" ;;
    *" audit "*) expected=$'command line\tteam add\tpasted-team' ;;
  esac
  grep -Eq "$expected" <<<"$said" || fail "pasted, '$line' said: $said"
  echo "pasted: $line"
done
again=$(sed -n 's/^This demo again (the games played are kept): //p' "$tmp/demo.log")
stop_serving

# The demo again, as printed (the fake cmake still first on PATH), with one worker.
serve_in "$tmp/again.log" env -i PATH="$fresh_path" DIVERCITE_COURSE_DIR="$course" WORKERS=1 \
  PORT="$(port)" bash -c "$again"
grep -q "(1 game worker)" "$tmp/again.log" || fail "WORKERS=1 did not reach serve"
grep -q "^Administrator" "$tmp/again.log" && fail "run again, the demo made its arena anew"
echo "pasted: $again"
stop_serving

# init's own Next lines, from the command the demo prints.
program=${commands[0]%% team add *}
said=$(pasted "$program init $(printf %q "$tmp/second arena") --tc 5 --course $(printf %q "$course")")
mapfile -t next < <(sed -n '/^Next, from any shell/,$p' <<<"$said" | grep '^  ' | sed 's/^  //')
[ "${#next[@]}" -eq 2 ] || fail "init's Next lines are not team add and serve: $said"
said=$(pasted "${next[0]/NAME.../alpha beta}")
grep -Eq "^beta [A-Za-z0-9_-]+$" <<<"$said" || fail "pasted, '${next[0]}' said: $said"
echo "pasted: ${next[0]}"
serve_in "$tmp/second.log" env -i bash -c "cd $(printf %q "$tmp/work") && ${next[1]} --port $(port) --workers 0"
echo "pasted: ${next[1]}"
stop_serving
echo "PASSED"
