#!/usr/bin/env bash
# The engine for the browser: builds the static site into build-web/site/ with Emscripten
# (installing what it needs first: scripts/install-deps.sh web), or serves it.
#
#   scripts/web.sh [-DOPTION=VALUE...]   build (the options go to both CMake configures)
#   scripts/web.sh serve [PORT]          build, then serve it on http://127.0.0.1:PORT/
#                                        (default 8000) with the cross-origin isolation
#                                        headers the threaded engine needs
#
# The site: the page's files (web/), the threaded engine (divercite-engine.{js,wasm} and
# its divercite-engine.worker.js), the single-threaded engine for hosts that send no
# COOP/COEP headers (divercite-engine-st.{js,wasm}) and the rules module
# (divercite-rules.{js,wasm}). Two CMake trees, as -pthread changes every object file:
# build-web/threaded and build-web/single (the single-threaded engine, the rules, and the
# network's tests in wasm, copied to build-web/tests/ for the native tree's ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cmake-options.sh
source scripts/cmake-options.sh

build() {
  scripts/install-deps.sh web
  # em++ runs its JavaScript tools with the node on PATH, which may not be Debian's: it
  # needs Debian's node modules (acorn).
  export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
  # The Release build's kind, whatever the tree had, then the arguments (scripts/test.sh asks
  # for warnings as errors).
  local tree threads targets
  for tree in threaded single; do
    threads=ON targets=(divercite_web_engine)
    if [ "$tree" = single ]; then threads=OFF targets+=(divercite_web_rules divercite_wasm_tests); fi
    emcmake cmake -S . -B "build-web/$tree" -G Ninja "${build_kind[@]}" \
      -DDIVERCITE_WEB_THREADS="$threads" "$@" >/dev/null
    cmake --build "build-web/$tree" -j "$(nproc)" --target "${targets[@]}"
  done
  # Built beside, then swapped in: a server never sees half a site.
  rm -rf build-web/site.new
  mkdir -p build-web/site.new
  # The page's files: web/ but for the linter's and the bundler's (package*.json,
  # eslint.config.js, node_modules) and the bundles of the pages that stand alone (pages/).
  local entry
  for entry in web/*; do
    case "${entry#web/}" in
      node_modules | package.json | package-lock.json | eslint.config.js | pages) ;;
      *) cp -r "$entry" build-web/site.new/ ;;
    esac
  done
  cp build-web/threaded/web/divercite-engine.{js,wasm,worker.js} build-web/site.new/
  cp build-web/single/web/divercite-engine-st.{js,wasm} build-web/single/web/divercite-rules.{js,wasm} \
    build-web/site.new/
  rm -rf build-web/site
  mv build-web/site.new build-web/site
  # The network's tests in wasm (tests/wasm/), which the native tree's ctest runs under node.
  rm -rf build-web/tests.new
  mkdir -p build-web/tests.new
  cp build-web/single/wasm-tests/*.js build-web/tests.new/
  rm -rf build-web/tests
  mv build-web/tests.new build-web/tests
  echo "web.sh: the site is in build-web/site/ ($(du -sh build-web/site | cut -f1))"
}

if [ "${1:-}" = "serve" ]; then
  port="${2:-8000}"
  build
  exec python3 tools/web/serve.py --port "$port" build-web/site
fi
build "$@"
