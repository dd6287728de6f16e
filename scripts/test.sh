#!/usr/bin/env bash
# Everything CI checks: the Release build (warnings are errors, assertions on), the C++
# sources' format, the Python and JavaScript linters, every test; the web site
# (scripts/web.sh), whose wasm engines and rules module the web tests compare with the native
# ones; the instruction-set levels and the compiler our own machine does not build with
# (scripts/check-levels.sh).
#
# The web site and the levels compile while the Release tests run, at the idle priority
# (SCHED_IDLE): they take only the CPU the tests leave idle (the serial tests wait on games,
# clocks, sandboxes and browsers much of the time), and the tests keep theirs. Only compilers
# run there: a test at the idle priority could be kept off the CPU past its own deadlines. The
# web tests run once the site is there; the test of `pip install`, which compiles on every
# core, runs alone first.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, printed as it ends: CI's budget is 25 minutes on 2 cores.
step_start=$SECONDS
step_done() {
  echo "== $1: $((SECONDS - step_start)) s (total $SECONDS s)"
  step_start=$SECONDS
}

# A unity build (CMake compiles a target's files in batches, as one file each): less work.
# Clang's tree in check-levels.sh compiles each file alone, which checks that each file holds
# its own includes. The assertions on (assert() and libstdc++'s checks, at -O3): every test,
# the C++ tests and those that play whole games through the programs, runs with them. The web
# tests are registered for the site before it is built.
scripts/build.sh -DDIVERCITE_WERROR=ON -DCMAKE_UNITY_BUILD=ON -DDIVERCITE_ASSERTIONS=ON \
  -DDIVERCITE_WEB_SITE="$PWD/build-web/site"
step_done "Release build"
scripts/check-format.sh
flake8 --count  # every Python file, as .flake8 says
# Every JavaScript file (the site's and the pages', web/; the web build's checks, tools/web/;
# the arena's; the tests of the page's modules, tests/web/), as web/eslint.config.js says.
web/node_modules/.bin/eslint --config web/eslint.config.js web tools/web \
  python/divercite/arena/pages/static tests/web
# The pages' bundles in the repository are what esbuild makes of today's modules.
bundles=$(mktemp -d)
scripts/bundle-pages.sh "$bundles"
diff -r "$bundles" web/pages || { echo "web/pages/ is stale: run scripts/bundle-pages.sh" >&2; exit 1; }
rm -r "$bundles"
step_done "format and linters"

# `pip install` compiles the project on both cores: alone, before anything runs beside it.
ctest --test-dir build --output-on-failure -R '^python_pip_install$'
step_done "pip install test"

# In the background, one after the other: the site, then the levels. Their output goes to
# logs, printed when each is waited for; their exit statuses to files.
mkdir -p build-levels build-web
rm -f build-web/test-status build-levels/test-status
idle=(nice -n 19)
if command -v chrt >/dev/null && chrt --idle 0 true 2>/dev/null; then idle=(chrt --idle 0); fi
setsid "${idle[@]}" bash -c '
  status=0
  scripts/web.sh -DDIVERCITE_WERROR=ON >build-web/test.log 2>&1 || status=$?
  echo "$status" >build-web/test-status
  status=0
  scripts/check-levels.sh >build-levels/test.log 2>&1 || status=$?
  echo "$status" >build-levels/test-status' &
background=$!
trap 'kill -- -"$background" 2>/dev/null || true' EXIT

# wait_for PART: waits for PART's status file, prints PART's log, fails on a failed status.
wait_for() {
  while [ ! -f "$1/test-status" ]; do
    kill -0 "$background" 2>/dev/null || break
    sleep 1
  done
  cat "$1/test.log" 2>/dev/null || true
  local status
  status=$(cat "$1/test-status" 2>/dev/null || echo "none (the background job ended)")
  if [ "$status" != 0 ]; then
    echo "test.sh: the build of $1 failed: exit status $status" >&2
    exit 1
  fi
}

ctest --test-dir build --output-on-failure -j "$(nproc)" -E '^(web_|python_pip_install$)'
step_done "Release tests (the web site and the levels compiling beside them)"

echo "== The web site (build-web/site/, compiled beside the tests)"
wait_for build-web
step_done "web site (after the tests)"
ctest --test-dir build --output-on-failure -j "$(nproc)" -R '^web_'
step_done "web tests"

echo "== Other instruction-set levels and Clang (build-levels/, compiled beside the tests)"
wait_for build-levels
wait "$background"
trap - EXIT
step_done "instruction-set levels (after the tests)"
