#!/usr/bin/env bash
# Compiles the project at the instruction-set levels our own CPU does not choose, with
# warnings as errors, so that a user's CPU or compiler cannot meet a failure CI never saw:
#   GCC at x86-64-v4 (AVX-512: what a recent AMD EPYC or Intel Xeon builds at `native`), and
#   Debian's Clang at x86-64-v2 (a cluster's oldest nodes), the programs users run (the
#   engine, perft, the match runner, the analyser) and the Python package's compiled rules
#   (pip builds them on the user's CPU); the tuners, developers' tools, only natively;
#   GCC at x86-64-v2, the engine alone.
# Compiling for AVX-512 needs no AVX-512 CPU; nothing built here runs but the x86-64-v2
# engines, whose code must hold no AVX instruction (objdump) and whose bench must print the
# search's signature.
# Trees: build-levels/<compiler>-<level>/. Tests are left out: the native trees run them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh tools python
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

# The search uses no floating point: an engine of any level must search the same tree.
signature=$(sed -n "s/.*kBenchSignature = \([0-9']*\);.*/\1/p" search/bench.h | tr -d "'")
check_bench_signature() {
  local binary=$1 nodes
  nodes=$("$binary" bench | sed -n 's/^Nodes searched: //p')
  if [ "$nodes" != "$signature" ]; then
    echo "check-levels: $binary bench: $nodes nodes, the signature is $signature" >&2
    exit 1
  fi
  echo "check-levels: $binary: bench $nodes nodes, the signature"
}

# configure_and_build COMPILER LEVEL TARGET...: a Release tree with -Werror.
configure_and_build() {
  local compiler=$1 level=$2 tree="build-levels/$1-$2"
  shift 2
  echo "== $compiler at $level: $tree"
  cmake -S . -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$compiler" \
    -DDIVERCITE_ARCH="$level" -DDIVERCITE_WERROR=ON -DDIVERCITE_TESTS=OFF >/dev/null
  cmake --build "$tree" --target "$@"
  "$tree/bin/divercite" --version | sed 's/^/  /'
}

start=$SECONDS
shipped=(divercite divercite-perft divercite-match divercite-analyze divercite_python_core)
configure_and_build g++ x86-64-v4 "${shipped[@]}"
configure_and_build clang++ x86-64-v2 "${shipped[@]}"
check_no_avx build-levels/clang++-x86-64-v2/bin/divercite
check_bench_signature build-levels/clang++-x86-64-v2/bin/divercite
configure_and_build g++ x86-64-v2 divercite
check_no_avx build-levels/g++-x86-64-v2/bin/divercite
check_bench_signature build-levels/g++-x86-64-v2/bin/divercite
echo "check-levels: every level built without a warning in $((SECONDS - start)) s"
