#!/usr/bin/env bash
# Everything CI checks, in order: the web site (scripts/web.sh), the Release build (warnings
# are errors), the C++ sources' format, the Python and JavaScript linters, every test (the
# web site's among them); the instruction-set levels and the compiler our own machine does
# not build with; a Debug build (assertions on) over the C++ tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, printed as it ends: CI's budget is 25 minutes on 2 cores.
step_start=$SECONDS
step_done() {
  echo "== $1: $((SECONDS - step_start)) s (total $SECONDS s)"
  step_start=$SECONDS
}
# The web site first (build-web/site/): the native tree then finds it and runs the web tests,
# which compare its wasm engines and rules module with the native ones.
scripts/web.sh -DDIVERCITE_WERROR=ON
step_done "web site"
scripts/build.sh -DDIVERCITE_WERROR=ON
step_done "Release build"
scripts/check-format.sh
flake8 --count  # every Python file, as .flake8 says
# Every JavaScript file (the site's, web/; the review page's; the web build's checks,
# tools/web/), as web/eslint.config.js says.
web/node_modules/.bin/eslint --config web/eslint.config.js web tools/analysis/review_page.js tools/web \
  python/divercite/arena/static
step_done "format and linters"
ctest --test-dir build --output-on-failure -j "$(nproc)"
step_done "Release tests"

echo "== Other instruction-set levels and Clang (build-levels/)"
scripts/check-levels.sh
step_done "instruction-set levels"

echo "== Debug build with assertions (build-debug/), C++ tests"
# The course bridge's Python tests and the shard scripts time real games and clusters, the
# Python package's tests and the arena's play and analyse whole games (an exact analysis
# takes minutes without optimisation): the Release tree covers them, and this tree is built
# without the package's compiled rules.
cmake -S . -B build-debug -G Ninja -DCMAKE_BUILD_TYPE=Debug -DDIVERCITE_WERROR=ON \
  -DDIVERCITE_PYTHON_PACKAGE=OFF >/dev/null
cmake --build build-debug
ctest --test-dir build-debug --output-on-failure -j "$(nproc)" -E '^(seahorse|shards|python|arena)_'
step_done "Debug build and tests"
