#!/usr/bin/env bash
# `pip install` from a clean copy of the checkout, into a fresh venv of each Python given:
#
#   tests/pip_install_test.sh SOURCE_DIR CACHE_DIR COURSE_DIR PYTHON...
#
# For each PYTHON (a path, or a name looked up on PATH; two names for one interpreter are
# tested once):
#   - copies SOURCE_DIR's files as a clean checkout of its working tree would have them (what
#     git tracks, and the untracked files it does not ignore; outside a checkout, all but the
#     build trees) into a new folder;
#   - makes a venv with --system-site-packages and installs the copy offline, as docs/python.md's
#     "Python: pip install" says: `pip install --no-build-isolation --no-index COPY` (a Python
#     whose setuptools needs `wheel` and lacks it gets Debian's, python3-wheel-whl, first);
#   - from a folder that is neither the copy nor the checkout, the venv not activated and
#     nothing pointing at the engine: `import divercite` comes from the venv and
#     Position().perft(3) == 4093440; Engine.popen() without a command starts VENV/bin/divercite
#     and plays a legal move; VENV/bin/divercite-perft counts perft 3; VENV/bin/divercite-match
#     plays a 2-game match whose records replay, by the rules, to finished games with the
#     recorded results; VENV/bin/divercite-analyze analyses one (with the engine beside it);
#   - the arena's pages and migrations are in the package and VENV/bin/divercite-arena runs:
#     `init` and `team add` where the venv's Python has Django, else a clear error (status 2);
#   - `pip uninstall -y divercite` leaves the venv's files as they were before the install.
# With the first venv, before its uninstall: the installed package without its compiled core
# (_core*.so), on PYTHONPATH, is the course player's engine client (the copy's
# tools/seahorse/divercite_player.py, in COURSE_DIR's framework, run by the first PYTHON, which
# has the course's packages): it plays a course move from the course's start state, the
# engine's move and not a fallback.
#
# Compilation goes through ccache when it is on PATH (Debian's ccache), with its cache in
# CACHE_DIR (kept between runs): the second Python's build then compiles its extension only.
# Each install's time is printed.
set -euo pipefail

source_dir=$(realpath "${1:?usage: pip_install_test.sh SOURCE_DIR CACHE_DIR COURSE_DIR PYTHON...}")
cache_dir=${2:?the ccache folder}
course=$(realpath "${3:?the folder of the course framework}")
shift 3
[ $# -gt 0 ] || {
  echo "no Python given" >&2
  exit 2
}

log() { echo "[$(date -u +%T)] $*"; }
fail() {
  echo "FAILED: $*" >&2
  exit 1
}
# Runs a command with a deadline, its output to a file shown only if it fails.
run_logged() {
  local seconds=$1 output=$2
  shift 2
  timeout --kill-after=10 "$seconds" "$@" >"$output" 2>&1 || {
    local status=$?
    tail -60 "$output"
    fail "exit $status (124: past ${seconds} s): $*"
  }
}

work=$(mktemp -d /tmp/divercite-pip-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/elsewhere" "$cache_dir"
cd "$work/elsewhere"

# Nothing may lead the installed package or programs back to the checkout, and the user's
# pip and Python settings do not apply.
unset DIVERCITE_ENGINE DIVERCITE_MATCH DIVERCITE_OPTIONS DIVERCITE_SOURCE_DIR PYTHONPATH \
  PYTHONHOME VIRTUAL_ENV CMAKE_ARGS CMAKE_GENERATOR
while IFS= read -r variable; do
  unset "$variable"
done < <(env | sed -n 's/^\(PIP_[A-Z_]*\)=.*/\1/p')
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_NO_CACHE_DIR=1
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
if command -v ccache >/dev/null; then
  # Paths under $work are hashed relative to the build folder, so that two copies (and two
  # runs) share their objects; the build folder itself is not hashed.
  export CMAKE_ARGS="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache" CCACHE_DIR=$cache_dir \
    CCACHE_BASEDIR=$work CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=1G
else
  log "ccache is not on PATH: each install compiles everything (scripts/install-deps.sh tests)"
fi

copy_source() {
  mkdir -p "$1"
  if ! git -C "$source_dir" rev-parse --show-toplevel >/dev/null 2>&1; then
    # Not a checkout (an unpacked archive): all but build trees and installed packages.
    tar -C "$source_dir" --exclude='./build*' --exclude=node_modules --exclude=__pycache__ \
      --exclude='*.egg-info' -cf - . | tar -C "$1" -xf -
    return
  fi
  git -C "$source_dir" ls-files -z --cached --others --exclude-standard |
    (cd "$source_dir" && while IFS= read -r -d '' file; do
      [ -e "$file" ] && printf '%s\0' "$file" # a tracked file deleted in the tree is gone
    done) |
    tar -C "$source_dir" --null -T - -cf - | tar -C "$1" -xf -
}

# One listing of a venv, to compare before the install and after the uninstall.
listing() { (cd "$1" && find . | LC_ALL=C sort); }

check_package='import sys, divercite
from divercite.engine import Engine
venv = sys.argv[1]
assert divercite.__file__.startswith(venv + "/"), divercite.__file__
assert divercite.Position().perft(3) == 4093440
position = divercite.Position.from_moves(["RC14", "RR04"])
with Engine.popen() as engine:
    assert engine.command == [venv + "/bin/divercite"], engine.command
    result = engine.play(position, movetime=50)
assert result.move in position.legal_moves(), result
print(f"divercite {divercite.__version__} from {divercite.__file__}; Engine.popen() started "
      f"{engine.command[0]}, which played {result.move}")'

check_records='import sys
from divercite import records
games = list(records.read_records(sys.argv[1]))
assert len(games) == 2, f"{len(games)} records"
for game in games:
    final = game.positions()[-1]
    assert game.termination == "normal" and final.is_over(), (game.termination, final)
    assert final.result() == game.result, (final.result(), game.result)
print("2 games:", ", ".join(f"{g.result} in {len(g.moves)} moves" for g in games))'

course_move='import os, sys
course, player_dir, pure = sys.argv[1:4]
sys.path[:0] = [f"{course}/divercite", f"{course}/seahorse", player_dir]
import divercite_player
from divercite.course.bridge.rules import Course
import divercite, divercite.engine
assert divercite.__file__.startswith(pure + "/"), divercite.__file__
assert divercite.engine.Position is None and "divercite._core" not in sys.modules
course = Course()
player = divercite_player.MyPlayer("W", name="engine")
state = course.initial_state([player, course.PlayerDivercite("B", name="other")])
action = player.compute_action(current_state=state, remaining_time=900.0)
assert action.data in [a.data for a in state.generate_possible_light_actions()], action
player.close()
print("the course player, through the package without its core, played", action.data)'

pythons=()
seen=()
for python in "$@"; do
  executable=$("$python" -c 'import sys; print(sys.executable)') || fail "$python does not run"
  real=$(realpath "$executable")
  if [[ " ${seen[*]} " == *" $real "* ]]; then
    log "$python is $real, tested already"
    continue
  fi
  seen+=("$real")
  pythons+=("$executable")
done

index=0
for python in "${pythons[@]}"; do
  index=$((index + 1))
  venv=$work/venv-$index
  copy=$work/copy-$index
  log "== $python ($("$python" -c 'import sys; print(sys.version.split()[0])'))"
  copy_source "$copy"
  run_logged 120 venv.log "$python" -m venv --system-site-packages "$venv"
  # setuptools before 70.1 builds wheels with the package `wheel`.
  if ! "$venv/bin/python" -c 'import setuptools, wheel' 2>/dev/null; then
    log "the venv has no wheel: Debian's (python3-wheel-whl)"
    compgen -G "/usr/share/python-wheels/wheel-*.whl" >/dev/null ||
      fail "$python's venv has no wheel package, and /usr/share/python-wheels has none " \
        "(apt install python3-wheel-whl)"
    run_logged 120 wheel.log "$venv/bin/pip" install --find-links /usr/share/python-wheels wheel
  fi
  listing "$venv" >"$work/before-$index.txt"

  log "pip install --no-build-isolation --no-index $copy"
  if command -v ccache >/dev/null; then ccache --zero-stats >/dev/null; fi
  start=$SECONDS
  run_logged 1200 "$work/install-$index.log" \
    "$venv/bin/pip" install --no-build-isolation "$copy"
  log "installed in $((SECONDS - start)) s"
  if command -v ccache >/dev/null; then
    ccache --print-stats |
      awk -F'\t' '$1 ~ /^(direct_cache_hit|preprocessed_cache_hit|cache_miss)$/ \
        { printf "%s %s  ", $1, $2 } END { print "" }'
  fi

  for program in divercite divercite-perft divercite-match divercite-analyze; do
    [ -x "$venv/bin/$program" ] || fail "$venv/bin/$program is not installed"
  done
  log "the package and Engine.popen()"
  run_logged 120 package.txt "$venv/bin/python" -c "$check_package" "$venv"
  cat package.txt
  run_logged 60 perft.txt "$venv/bin/divercite-perft" 3
  grep -q '^nodes 4093440$' perft.txt || fail "divercite-perft 3: $(cat perft.txt)"

  log "divercite-match: the engine against its random agent, 2 games"
  rm -f match.jsonl
  run_logged 300 match.txt "$venv/bin/divercite-match" \
    -engine cmd="$venv/bin/divercite" name=engine depth=4 \
    -engine cmd="$venv/bin/divercite" name=random option.Agent=random tc=inf \
    -games 2 -repeat -records match.jsonl
  run_logged 60 records.txt "$venv/bin/python" -c "$check_records" match.jsonl
  cat records.txt
  # Its engine by default: the divercite beside it.
  run_logged 120 analysis.json "$venv/bin/divercite-analyze" --records=match.jsonl --game=0 \
    --depth=2 --solve_plies=6 --prove_movetime=0 --json
  grep -q '^{"game":0,.*"summary":' analysis.json || fail "divercite-analyze: $(cat analysis.json)"

  log "divercite-arena: the arena's pages in the package, and its command"
  package=$("$venv/bin/python" -c 'import divercite, os; print(os.path.dirname(divercite.__file__))')
  for page in pages/static/arena/replay.js pages/templates/arena/game.html \
    core/migrations/0004_second_opinion.py; do
    [ -f "$package/arena/$page" ] || fail "the installed package lacks arena/$page"
  done
  [ -x "$venv/bin/divercite-arena" ] || fail "$venv/bin/divercite-arena is not installed"
  if "$venv/bin/python" -c 'import django' 2>/dev/null; then
    run_logged 120 arena.txt "$venv/bin/divercite-arena" init "$work/arena-$index" --tc 5 \
      --course "$course"
    grep -q '^Administrator: admin ' arena.txt || fail "divercite-arena init: $(cat arena.txt)"
    run_logged 60 teams.txt "$venv/bin/divercite-arena" team add "$work/arena-$index" alpha
    grep -qE '^alpha [A-Za-z0-9_-]{20,}$' teams.txt || fail "team add: $(cat teams.txt)"
    log "divercite-arena init and team add: $(head -1 arena.txt | cut -c1-60)..."
  else
    # Without Django (a Python without Debian's python3-django): a clear error, status 2.
    status=0
    "$venv/bin/divercite-arena" init "$work/arena-$index" --course "$course" \
      >arena.txt 2>&1 || status=$?
    [ "$status" -eq 2 ] && grep -q "Django is not installed for this Python" arena.txt ||
      fail "divercite-arena without Django (status $status): $(cat arena.txt)"
    log "divercite-arena without Django: $(cat arena.txt)"
  fi

  if [ "$index" -eq 1 ]; then
    log "the package without its compiled core, for the course player"
    site=$("$venv/bin/python" -c 'import divercite, os; print(os.path.dirname(divercite.__file__))')
    site=$(dirname "$site")
    mkdir -p "$work/pure"
    cp -R "$site/divercite" "$work/pure/"
    rm -rf "$work/pure/divercite/"_core*.so "$work/pure/divercite/__pycache__"
    [ -z "$(find "$work/pure" -name '*.so')" ] || fail "a compiled file left in the copy"
    # The player's launcher away from the checkout, whose own package it would prefer.
    mkdir -p "$work/player/seahorse"
    cp "$copy/tools/seahorse/divercite_player.py" "$copy/tools/seahorse/divercite_package.py" \
      "$work/player/seahorse/"
    DIVERCITE_ENGINE=$venv/bin/divercite DIVERCITE_MOVETIME=50 DIVERCITE_PLAYER_LOG=1 \
      PYTHONPATH=$work/pure PYTHONDONTWRITEBYTECODE=1 \
      run_logged 120 course.txt "${pythons[0]}" -c "$course_move" \
      "$course" "$work/player/seahorse" "$work/pure"
    if ! grep -q 'fallback=0' course.txt || grep -qi 'traceback\|fallback move' course.txt; then
      cat course.txt
      fail "the course player did not play the engine's move"
    fi
    tail -1 course.txt
  fi

  log "pip uninstall -y divercite"
  run_logged 120 uninstall.log "$venv/bin/pip" uninstall -y divercite
  listing "$venv" >"$work/after-$index.txt"
  diff "$work/before-$index.txt" "$work/after-$index.txt" >uninstall.diff ||
    fail "the uninstall left the venv changed (< before, > after):
$(cat uninstall.diff)"
  rm -rf "$copy" # its CMake tree: the next copy builds from scratch (but for ccache)
done
log "passed: ${pythons[*]}"
