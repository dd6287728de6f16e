#!/usr/bin/env bash
# Compiles the project at the instruction-set levels and with the compiler our own CPU and
# build do not choose, warnings as errors, so that a user's CPU or compiler cannot meet a
# failure CI never saw:
#   Debian's Clang at x86-64-v2 (a cluster's oldest nodes), everything but the tests (which
#   the Release tree runs, with assertions on: scripts/test.sh), at -O1, where Clang compiles
#   sooner (its warnings come from its front end, at any level); its engine must hold no AVX
#   instruction (objdump);
#   GCC at x86-64-v4 (AVX-512: what a recent AMD EPYC or Intel Xeon builds at `native`) and at
#   x86-64-v2, the engine alone (the code no instruction set changes but for what the compiler
#   makes of it: the rules and the search), which at x86-64-v2 must hold no AVX instruction.
# Clang's tree compiles each file alone, which checks that every file holds its own includes
# (scripts/test.sh builds the Release tree as a unity build, where a test's one file is still
# compiled alone); GCC's, which build the engine alone, are unity builds (CMake's
# CMAKE_UNITY_BUILD: a target's files compiled as one).
# Compiling for AVX-512 needs no AVX-512 CPU; nothing built here runs but the x86-64-v2
# engines, whose bench must print the search's signature (no floating point in the search:
# every level and compiler searches the same tree).
# Trees: build-levels/<compiler>-<level>/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh tests python
command -v clang++ >/dev/null || scripts/install-deps.sh clang

# Fails when the executable's code holds an AVX instruction (a VEX/EVEX-encoded `v...`
# mnemonic, or a ymm/zmm register).
check_no_avx() {
  local binary=$1 found
  found=$(objdump -d --no-show-raw-insn "$binary" |
    awk '$2 ~ /^v[a-z]/ || /%[yz]mm[0-9]/' | head -5)
  if [ -n "$found" ]; then
    echo "check-levels: $binary holds AVX instructions:" >&2
    echo "$found" >&2
    exit 1
  fi
  echo "check-levels: $binary: no AVX instruction"
}

signature=$(sed -n "s/.*kBenchSignature = \([0-9']*\);.*/\1/p" search/bench_signature.h | tr -d "'")
check_bench_signature() {
  local binary=$1 nodes
  nodes=$("$binary" bench | sed -n 's/^Nodes searched: //p')
  if [ "$nodes" != "$signature" ]; then
    echo "check-levels: $binary bench: $nodes nodes, the signature is $signature" >&2
    exit 1
  fi
  echo "check-levels: $binary: bench $nodes nodes, the signature"
}

# configure_and_build COMPILER LEVEL [CMAKE_ARGUMENT...] -- [TARGET...]: a tree with -Werror
# (every target when none is named).
configure_and_build() {
  local compiler=$1 level=$2 tree="build-levels/$1-$2" arguments=()
  shift 2
  while [ "$1" != "--" ]; do
    arguments+=("$1")
    shift
  done
  shift
  echo "== $compiler at $level: $tree"
  cmake -S . -B "$tree" -G Ninja -DCMAKE_CXX_COMPILER="$compiler" -DDIVERCITE_ARCH="$level" \
    -DDIVERCITE_WERROR=ON -DCMAKE_UNITY_BUILD=ON "${arguments[@]}" >/dev/null
  if [ $# -eq 0 ]; then
    cmake --build "$tree"
  else
    cmake --build "$tree" --target "$@"
  fi
  "$tree/bin/divercite" --version | sed 's/^/  /'
}

start=$SECONDS
configure_and_build clang++ x86-64-v2 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
  -DCMAKE_UNITY_BUILD=OFF -DDIVERCITE_TESTS=OFF -DDIVERCITE_PYTHON_PACKAGE=ON --
check_no_avx build-levels/clang++-x86-64-v2/bin/divercite
check_bench_signature build-levels/clang++-x86-64-v2/bin/divercite
release=(-DCMAKE_BUILD_TYPE=Release -DDIVERCITE_TESTS=OFF)
configure_and_build g++ x86-64-v4 "${release[@]}" -- divercite
configure_and_build g++ x86-64-v2 "${release[@]}" -- divercite
check_no_avx build-levels/g++-x86-64-v2/bin/divercite
check_bench_signature build-levels/g++-x86-64-v2/bin/divercite
echo "check-levels: every level built without a warning in $((SECONDS - start)) s"
