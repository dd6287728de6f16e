#!/usr/bin/env bash
# A demo of the class's arena on this machine, nothing to configure: the course's three example
# players uploaded as teams, playing each other and the house opponents (replicas of the
# course's agents, our engine at 0.1 s, 1 s and 10 s a game) until Ctrl-C; the address printed.
#
#   scripts/arena.sh [DIR]      (default build/arena-demo; DIR relative to where it is run)
#   WORKERS=N HOST=0.0.0.0 PORT=8080 scripts/arena.sh [DIR]
#                               games played at once (default: the cores less one), the
#                               address served (default 127.0.0.1:8000)
#
# Installs what the arena needs (the tier "arena" of scripts/install-deps.sh: the C++ build,
# Django, bubblewrap and libseccomp for the sandbox), builds the engine, the match runner, the
# analyser and the Python package in build/, creates the arena once (its administrator's
# login and the teams' tokens are printed then, and the tokens kept in DIR/tokens.txt), and
# serves it. Run again, it serves the same arena: the games played are kept. The commands it
# prints work pasted into any shell: each names the package, the Python and DIR in full.
set -euo pipefail
dir="$(realpath -m -- "${1:-$(dirname "$0")/../build/arena-demo}")"
workers="${WORKERS:-}"
if [ -n "$workers" ] && ! [[ "$workers" =~ ^[0-9]+$ ]]; then
  echo "scripts/arena.sh: WORKERS=$workers: a number of games played at once (0 or more)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cmake-options.sh
source scripts/cmake-options.sh
scripts/install-deps.sh arena
# As scripts/main.sh: the Release tree without the tests (scripts/build.sh turns them on again),
# with the Release build's options whatever the tree had.
configure_release_tree -DDIVERCITE_TESTS=OFF
cmake --build build --target divercite divercite-match divercite-analyze divercite_python_core

course="$(realpath -m -- "${DIVERCITE_COURSE_DIR:-../shared/course}")"
# The package of the build tree; the programs beside it (build/bin) are found from it.
package="$PWD/build/python"
export PYTHONPATH="$package${PYTHONPATH:+:$PYTHONPATH}"
arena() { /usr/bin/python3 -m divercite.arena "$@"; }
# The same, as words a fresh shell runs (printed below).
command="PYTHONPATH=$(printf %q "$package") /usr/bin/python3 -m divercite.arena"
where="$(printf %q "$dir")"

if [ ! -f "$dir/arena.json" ]; then
  # Its closing "Next" lines (add the teams, serve) are what this script does now.
  arena init "$dir" --course "$course" | sed '/^Next/,$d'
  arena team add "$dir" example-random example-greedy example-template >"$dir/tokens.txt"
  echo "Teams and their tokens (log in on the pages with them), kept in $dir/tokens.txt:"
  cat "$dir/tokens.txt"
  players="$(cd "$course" && [ -d divercite ] && echo "$PWD/divercite" || echo "$PWD")"
  arena upload "$dir" example-random "$players/random_player_divercite.py"
  arena upload "$dir" example-greedy "$players/greedy_player_divercite.py"
  # The course's template raises in compute_action: its check game rejects it, with why.
  arena upload "$dir" example-template "$players/my_player.py"
fi
cat <<END
The arena's commands, from any shell while it serves (docs/arena.md says more):
  $command team add $where NAME...
  $command team list $where
  $command upload $where TEAM my_player.py
  $command audit $where
This demo again (the games played are kept): $(printf %q "$PWD/scripts/arena.sh") $where
END
exec /usr/bin/python3 -m divercite.arena serve "$dir" --host "${HOST:-127.0.0.1}" \
  --port "${PORT:-8000}" ${workers:+--workers "$workers"}
