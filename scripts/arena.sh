#!/usr/bin/env bash
# A demo of the class's arena on this machine, nothing to configure: the course's three example
# players uploaded as teams, playing each other and the house opponents (replicas of the
# course's agents, our engine at 0.1 s, 1 s and 10 s a game) until Ctrl-C; the address printed.
#
#   scripts/arena.sh [DIR]      (default build/arena-demo; HOST=0.0.0.0 PORT=8080 to change)
#
# Installs what the arena needs (the tier "arena" of scripts/install-deps.sh: the C++ build,
# Django, bubblewrap and libseccomp for the sandbox), builds the engine, the match runner, the
# analyser and the Python package in build/, creates the arena once (its administrator's
# login and the teams' tokens are printed then, and the tokens kept in DIR/tokens.txt), and
# serves it. Run again, it serves the same arena: the games played are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cmake-options.sh
source scripts/cmake-options.sh
scripts/install-deps.sh arena
# As scripts/main.sh: the Release tree without the tests (scripts/build.sh turns them on again),
# with the Release build's options whatever the tree had.
configure_release_tree -DDIVERCITE_TESTS=OFF
cmake --build build --target divercite divercite-match divercite-analyze divercite_python_core

dir="${1:-build/arena-demo}"
course="${DIVERCITE_COURSE_DIR:-../shared/course}"
export PYTHONPATH="$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}"
export DIVERCITE_ENGINE="$PWD/build/bin/divercite" DIVERCITE_MATCH="$PWD/build/bin/divercite-match"
export DIVERCITE_ANALYZE="$PWD/build/bin/divercite-analyze"
arena() { /usr/bin/python3 -m divercite.arena "$@"; }

if [ ! -f "$dir/arena.json" ]; then
  arena init "$dir" --course "$course"
  arena team add "$dir" example-random example-greedy example-template >"$dir/tokens.txt"
  echo "Teams and their tokens (log in on the pages with them), kept in $dir/tokens.txt:"
  cat "$dir/tokens.txt"
  players="$(cd "$course" && [ -d divercite ] && echo "$PWD/divercite" || echo "$PWD")"
  arena upload "$dir" example-random "$players/random_player_divercite.py"
  arena upload "$dir" example-greedy "$players/greedy_player_divercite.py"
  # The course's template raises in compute_action: its check game rejects it, with why.
  arena upload "$dir" example-template "$players/my_player.py"
fi
exec /usr/bin/python3 -m divercite.arena serve "$dir" --host "${HOST:-127.0.0.1}" \
  --port "${PORT:-8000}"
