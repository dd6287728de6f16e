#!/usr/bin/env bash
# Installs with apt whichever Debian package a part of the project needs and the machine
# lacks; does nothing when all are present.
#
#   scripts/install-deps.sh [TIER...]     (default: all)
#
#   engine   divercite and divercite-perft: a compiler, CMake, Abseil, mimalloc
#   tools    + the match runner, the analysis and the tuners: nlohmann-json, Eigen
#   python   + the Python package `divercite` (python/): pybind11, Debian's Python 3 headers,
#            pytest for its tests, and for its example notebook (examples/) matplotlib,
#            nbconvert and ipykernel
#   tests    + the Python package (the tier python), the tests, the micro-benchmarks, the
#            format and Python checks, the course framework's Python packages
#            (tests/seahorse/ runs the course's own code), and for the course's web GUI in
#            headless Chromium: chromium, jQuery, and the page's socket.io client from the
#            npm registry (bench/gui_page/); the JavaScript linter, ESLint, from the npm
#            registry (web/package.json)
#   shards   the shard tests' cluster: Slurm, munge, GNU parallel
#   plots    pictures of matches and analyses: matplotlib
#   clang    Debian's Clang, which scripts/check-levels.sh compiles with too
#   all      every tier
set -euo pipefail

engine=(cmake ninja-build g++ libabsl-dev libmimalloc-dev)
tools=("${engine[@]}" nlohmann-json3-dev libeigen3-dev)
python=("${engine[@]}" python3 python3-dev pybind11-dev python3-pytest
  python3-matplotlib python3-nbconvert jupyter-nbconvert python3-ipykernel)
tests=("${tools[@]}" "${python[@]}" libgtest-dev libbenchmark-dev clang-format flake8
  python3 python3-loguru python3-socketio python3-aiohttp python3-nest-asyncio python3-colorama
  python3-numpy chromium libjs-jquery)
shards=(slurm-wlm munge parallel)
plots=(python3 python3-matplotlib)
clang=(clang)

packages=()
gui_page=false
for tier in "${@:-all}"; do
  case "$tier" in
    engine) packages+=("${engine[@]}") ;;
    tools) packages+=("${tools[@]}") ;;
    tests)
      packages+=("${tests[@]}")
      gui_page=true
      ;;
    python) packages+=("${python[@]}") ;;
    shards) packages+=("${shards[@]}") ;;
    plots) packages+=("${plots[@]}") ;;
    clang) packages+=("${clang[@]}") ;;
    all)
      packages+=("${tests[@]}" "${shards[@]}" "${plots[@]}" "${clang[@]}")
      gui_page=true
      ;;
    *)
      echo "install-deps.sh: unknown tier '$tier' (engine, tools, python, tests, shards, plots, clang, all)" >&2
      exit 2
      ;;
  esac
done

# npm comes with Node.js wherever that is installed; Debian's own package otherwise.
if $gui_page && ! command -v npm >/dev/null; then packages+=(npm); fi

missing=()
for package in $(printf '%s\n' "${packages[@]}" | sort -u); do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The GUI page's socket.io client, the exact version its SRI hash names (package-lock.json).
page="$(dirname "$0")/../bench/gui_page"
if $gui_page && [ ! -d "$page/node_modules/socket.io-client" ]; then
  echo "Installing the GUI page's npm packages in bench/gui_page/"
  npm ci --prefix "$page" --no-audit --no-fund --loglevel=error
fi

# The JavaScript linter (ESLint and its recommended rules), the exact versions of
# web/package-lock.json.
web="$(dirname "$0")/../web"
if $gui_page && [ ! -x "$web/node_modules/.bin/eslint" ]; then
  echo "Installing the JavaScript linter's npm packages in web/"
  npm ci --prefix "$web" --no-audit --no-fund --loglevel=error
fi
