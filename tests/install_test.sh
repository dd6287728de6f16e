#!/usr/bin/env bash
# An installed copy works outside the checkout:
#
#   tests/install_test.sh CMAKE BUILD_DIR COURSE_DIR PYTHON PACKAGE_DIR [compiled]
#
# installs BUILD_DIR into a temporary prefix P (`cmake --install`), then, from a folder that
# is neither the checkout nor the build tree, with nothing pointing at either:
#   - P/bin/divercite bench prints the search's signature;
#   - P/bin/divercite-match plays two games of P/bin/divercite against its random agent;
#   - the course's own framework (COURSE_DIR, run by PYTHON) plays a game between
#     P/share/divercite/seahorse/divercite_player.py, which must find P/bin/divercite and
#     the package's engine client (P/PACKAGE_DIR/divercite/engine.py) by itself, and the
#     course's random player;
#   - P/bin/divercite-match plays a course agent through P/share/divercite/seahorse/
#     course_engine.py;
#   - with `compiled` (the package's compiled rules built): PYTHON imports the Python
#     package installed in P/PACKAGE_DIR/divercite (lib/python3/dist-packages, Debian's
#     layout) and plays moves.
set -euo pipefail

cmake=${1:?usage: install_test.sh CMAKE BUILD_DIR COURSE_DIR PYTHON PACKAGE_DIR [compiled]}
build=$(realpath "${2:?the build tree}")
course=$(realpath "${3:?the folder of the course framework}")
python=${4:?the Python that runs the course framework}
package_dir=${5:?the folder of the Python package in the prefix}
compiled=${6:-}

log() { echo "[$(date -u +%T)] $*"; }
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

work=$(mktemp -d /tmp/divercite-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
mkdir -p "$work/elsewhere"
cd "$work/elsewhere"
# Nothing may lead the installed programs back to the checkout.
unset DIVERCITE_ENGINE DIVERCITE_MATCH DIVERCITE_OPTIONS DIVERCITE_SOURCE_DIR

log "cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || {
  cat "$work/install.log"
  fail "cmake --install"
}
for file in bin/divercite bin/divercite-perft bin/divercite-match bin/divercite-analyze \
  share/divercite/seahorse/divercite_player.py \
  share/divercite/seahorse/course_engine.py "$package_dir/divercite/engine.py" \
  share/divercite/plot_tournament.py share/divercite/slurm/submit.sh; do
  [ -e "$prefix/$file" ] || fail "$file is not installed"
done
[ -x "$prefix/share/divercite/seahorse/course_engine.py" ] || fail "course_engine.py lost its x bit"

if [ "$compiled" = compiled ]; then
  log "the Python package from $package_dir"
  check_package='import divercite, sys
assert divercite.__file__.startswith(sys.argv[1]), divercite.__file__
position = divercite.Position.from_moves(["RC14", "RR04"])
position.play("GC23")
assert position.scores == (1, 0) and position.ply == 3, position
assert position.perft(1) == len(position.legal_moves()) == 152, position.perft(1)
try:
    position.play("RC14")
except ValueError as error:
    assert "occupied" in str(error), error
else:
    raise AssertionError("an illegal move was played")
print(divercite.__version__, repr(position))'
  PYTHONPATH="$prefix/$package_dir" PYTHONDONTWRITEBYTECODE=1 \
    "$python" -c "$check_package" "$prefix/$package_dir/divercite/" >package.txt 2>&1 || {
    cat package.txt
    fail "the installed Python package"
  }
fi

log "divercite bench"
"$prefix/bin/divercite" bench >bench.txt
grep -q '^Nodes searched: [0-9]\+$' bench.txt || fail "no bench signature: $(cat bench.txt)"

log "divercite-match: the installed engine against its random agent, 2 games"
"$prefix/bin/divercite-match" \
  -engine cmd="$prefix/bin/divercite" name=engine tc=2 \
  -engine cmd="$prefix/bin/divercite" name=random option.Agent=random tc=inf \
  -games 2 -repeat -records match.jsonl >match.txt 2>&1 || {
  cat match.txt
  fail "divercite-match"
}
[ "$(wc -l <match.jsonl)" -eq 2 ] || fail "2 records expected: $(cat match.jsonl)"

log "the course framework: the installed divercite_player.py against the course's random player"
game_log=$work/course-game.log
(cd "$course/divercite" &&
  DIVERCITE_MOVETIME=50 PYTHONPATH="$course/seahorse" PYTHONDONTWRITEBYTECODE=1 \
    timeout 180 "$python" main_divercite.py -t local -g -l INFO -p "$(shuf -i 20000-40000 -n 1)" \
    "$prefix/share/divercite/seahorse/divercite_player.py" random_player_divercite.py) \
  >"$game_log" 2>&1 || true
grep -q VERDICT "$game_log" || {
  tail -40 "$game_log"
  fail "the course game did not end with a verdict"
}
if grep -qi "traceback\|DiverciteEngineError\|fallback" "$game_log"; then
  tail -40 "$game_log"
  fail "the installed player did not play cleanly"
fi

log "divercite-match: a course agent through the installed course_engine.py"
DIVERCITE_COURSE_DIR=$course "$prefix/bin/divercite-match" \
  -engine cmd="$prefix/share/divercite/seahorse/course_engine.py" \
  arg="$course/divercite/random_player_divercite.py" name=course-random tc=inf \
  -engine cmd="$prefix/bin/divercite" name=engine tc=2 \
  -games 2 -repeat -records bridge.jsonl >bridge.txt 2>&1 || {
  cat bridge.txt
  fail "divercite-match with course_engine.py"
}
check_records='import json, sys
records = [json.loads(line) for line in open(sys.argv[1])]
assert len(records) == 2, f"{len(records)} records"
assert all(r["termination"] == "normal" for r in records), [r["termination"] for r in records]'
"$python" -c "$check_records" bridge.jsonl || fail "the games through the bridge: $(cat bridge.jsonl)"
log "passed"
