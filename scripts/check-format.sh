#!/usr/bin/env bash
# Fails (listing the places) when a C++ source differs from the checked-in .clang-format.
# `scripts/check-format.sh --fix` rewrites them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t sources < <(git ls-files '*.cc' '*.h' '*.h.in')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${sources[@]}"
else
  clang-format --dry-run -Werror "${sources[@]}"
  echo "clang-format: ${#sources[@]} files formatted as .clang-format says"
fi
