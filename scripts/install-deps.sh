#!/usr/bin/env bash
# Installs with apt whichever dependency is missing; does nothing when all are present.
# The C++ build and its format check need the first two lines of packages; the course bridge
# (tools/seahorse/) and its tests run the course's own framework on Debian's Python 3
# (/usr/bin/python3) with the next two; plots use matplotlib. The match runner's shards are
# tested under Slurm (a single-node cluster the test starts itself) and GNU parallel: the
# last line.
set -euo pipefail

packages=(cmake ninja-build g++ clang-format flake8 libabsl-dev libgtest-dev libbenchmark-dev
  libmimalloc-dev nlohmann-json3-dev libeigen3-dev
  python3 python3-loguru python3-socketio python3-aiohttp python3-nest-asyncio python3-colorama
  python3-numpy python3-matplotlib
  slurm-wlm munge parallel)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
