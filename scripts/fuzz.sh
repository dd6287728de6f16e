#!/usr/bin/env bash
# Builds tests/fuzz/protocol_fuzzer (clang, libFuzzer, ASan+UBSan on all project code) in
# build-fuzz/ and runs it for ${1:-60} seconds on a copy of the seed corpus.
# Exits non-zero when libFuzzer reports a crash, leak, timeout or out-of-memory; the input
# that did it is left in build-fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"

scripts/install-deps.sh

# clang and its libFuzzer runtime (libclang_rt.fuzzer, from libclang-rt-<version>-dev).
have_fuzzer_runtime() {
  command -v clang++ >/dev/null &&
    compgen -G "$(clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-*.a" >/dev/null
}
if ! have_fuzzer_runtime; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root (or sudo) to install clang" >&2; exit 1; }
    sudo="sudo"
  fi
  packages=(clang)
  if apt-cache show libclang-rt-14-dev >/dev/null 2>&1 || { $sudo apt-get update -qq &&
      apt-cache show libclang-rt-14-dev >/dev/null 2>&1; }; then
    packages+=(libclang-rt-14-dev)
  else
    packages+=(libclang-rt-dev)
  fi
  echo "Installing: ${packages[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${packages[@]}"
  have_fuzzer_runtime || { echo "clang's libFuzzer runtime is still missing" >&2; exit 1; }
fi

cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DDIVERCITE_SANITIZER=address+undefined -DDIVERCITE_FUZZ=ON \
  >/dev/null
cmake --build build-fuzz --target protocol_fuzzer

# libFuzzer adds what it finds to the corpus directory: work on a copy, keep the seeds clean.
corpus=build-fuzz/corpus
artifacts=build-fuzz/artifacts
mkdir -p "$corpus" "$artifacts"
cp -n tests/fuzz/corpus/* "$corpus"/ 2>/dev/null || true

status=0
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  build-fuzz/bin/protocol_fuzzer "$corpus" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 || status=$?

if [ "$status" -ne 0 ]; then
  echo "protocol_fuzzer failed (exit $status); reproducer(s):" >&2
  ls -l "$artifacts" >&2
fi
exit "$status"
