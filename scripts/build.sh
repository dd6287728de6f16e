#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds the Release tree in build/.
# Arguments are passed to CMake's configure step (e.g. -DDIVERCITE_ARCH=x86-64-v2).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The tests and the Python package on, whatever the tree had (scripts/main.sh builds the same
# tree without them); each file compiled alone, the quickest to rebuild after an edit, and no
# assertions, unless the arguments ask for a unity build or assertions (scripts/test.sh does).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDIVERCITE_TESTS=ON \
  -DDIVERCITE_PYTHON_PACKAGE=ON -DCMAKE_UNITY_BUILD=OFF -DDIVERCITE_ASSERTIONS=OFF "$@" >/dev/null
cmake --build build
