#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds the Release tree in build/.
# Arguments are passed to CMake's configure step (e.g. -DDIVERCITE_ARCH=x86-64-v2).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cmake-options.sh
source scripts/cmake-options.sh
scripts/install-deps.sh
# Every part on, whatever the tree had (scripts/main.sh builds the same tree without the tests);
# each file compiled alone, the quickest to rebuild after an edit; no assertions, warnings not
# errors; unless the arguments ask otherwise (scripts/test.sh asks for a unity build with
# assertions, warnings as errors).
configure_release_tree "$@"
cmake --build build
