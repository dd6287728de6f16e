#!/usr/bin/env bash
# Everything CI checks, in order: the web site (scripts/web.sh), the Release build (warnings
# are errors), the C++ sources' format, the Python and JavaScript linters, every test (the
# web site's among them); the instruction-set levels and the compiler our own machine does
# not build with, where the C++ tests run again with assertions on.
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

echo "== The C++ tests with assertions on: Clang at x86-64-v2 (build-levels/clang++-x86-64-v2/)"
# The course bridge's and the Python package's tests, the shard scripts, the arena and the web
# site's checks play whole games through the programs, which the Release tree covers: this
# tree is for the assertions in the rules, the search, the table and the tools.
ctest --test-dir build-levels/clang++-x86-64-v2 --output-on-failure -j "$(nproc)" \
  -E '^(seahorse|shards|python|arena|web)_'
step_done "tests with assertions"
