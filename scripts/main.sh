#!/usr/bin/env bash
# The main job: a short match of our engine against the course's best agent, skypiea_v5
# (untimed, its full depth schedule), both colours on each opening.
#
# Installs only what the match needs (the tier "tools" of scripts/install-deps.sh: a compiler,
# CMake, Ninja, Abseil, mimalloc, nlohmann-json, Eigen) and builds only what it runs: the
# engine and the match runner, in the Release tree build/ (without the tests and the Python
# package's compiled rules; scripts/build.sh turns them on again), with the Release build's
# options whatever the tree had (no assertions, even after scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cmake-options.sh
source scripts/cmake-options.sh
scripts/install-deps.sh tools
configure_release_tree -DDIVERCITE_TESTS=OFF -DDIVERCITE_PYTHON_PACKAGE=OFF
cmake --build build --target divercite divercite-match

records=build/main-match.jsonl
rm -f "$records"
echo "== divercite (5 s per game) vs skypiea_v5 (untimed): 6 games, 3 random openings, both colours"
build/bin/divercite-match \
  -engine cmd=build/bin/divercite name=divercite tc=5 option.Hash=64 \
  -engine cmd=build/bin/divercite name=skypiea_v5 option.Agent=skypiea_v5 tc=inf \
  -games 2 -rounds 3 -repeat -openings random plies=2 -seed "${SEED:-2024}" \
  -concurrency 2 -records "$records"
echo
echo "Records of every game: $records (one JSON line each)."
