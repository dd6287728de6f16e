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
#            (tests/seahorse/ runs the course's own code), for the pages' tests headless
#            Chromium driven by Selenium (chromium, chromium-driver, python3-selenium), and for
#            the course's web GUI jQuery and the page's socket.io client from the npm registry
#            (tests/browser/gui_page/); the JavaScript linter, ESLint, from the npm
#            registry (web/package.json); for the test of `pip install` (tests/
#            pip_install_test.sh), venvs with setuptools and wheel (Debian's, and wheel's .whl
#            for a Python without it) and ccache, which makes its second build cheap
#   arena    + the class's arena (divercite.arena, scripts/arena.sh): the Python package's
#            tier, Django (Debian's LTS), the sandbox's bubblewrap and libseccomp binding,
#            PostgreSQL with its Python driver (an arena's database may be one), and for
#            `serve --production` gunicorn and WhiteNoise
#   shards   the shard tests' cluster: Slurm, munge, GNU parallel
#   plots    pictures of matches and analyses: matplotlib
#   clang    Debian's Clang, which scripts/check-levels.sh compiles with too
#   web      the WebAssembly build of the site (scripts/web.sh): Debian's Emscripten, and
#            Abseil's Debian source (the version of libabsl-dev), unpacked into
#            build-web/abseil/ for the build to compile with Emscripten (no package ships
#            Abseil for wasm); a `deb-src` line for the release's main archive is added when
#            apt has none
#   all      every tier
#
# apt and dpkg hold their locks while they run: when another holds one (another of the
# project's commands installing, a user's unattended upgrades), each apt-get here waits for it,
# saying whom it waits for, up to DIVERCITE_APT_LOCK_TIMEOUT seconds in all (30 minutes).
set -euo pipefail

engine=(cmake ninja-build g++ libabsl-dev libmimalloc-dev)
tools=("${engine[@]}" nlohmann-json3-dev libeigen3-dev)
python=("${engine[@]}" python3 python3-dev pybind11-dev python3-pytest
  python3-matplotlib python3-nbconvert jupyter-nbconvert python3-ipykernel)
tests=("${tools[@]}" "${python[@]}" libgtest-dev libbenchmark-dev clang-format flake8
  python3 python3-loguru python3-socketio python3-aiohttp python3-nest-asyncio python3-colorama
  python3-numpy chromium chromium-driver python3-selenium libjs-jquery bubblewrap python3-seccomp
  python3-venv python3-setuptools python3-wheel python3-wheel-whl ccache python3-django
  postgresql python3-psycopg2 gunicorn python3-gunicorn python3-whitenoise)
arena=("${tools[@]}" "${python[@]}" python3-django bubblewrap python3-seccomp postgresql
  python3-psycopg2 gunicorn python3-gunicorn python3-whitenoise)
shards=(slurm-wlm munge parallel)
plots=(python3 python3-matplotlib)
clang=(clang)
# dpkg-dev unpacks the source package (dpkg-source); nlohmann-json is the rules module's JSON;
# googletest is Google Test's source, compiled for the network's tests in wasm (tests/wasm/).
web=(emscripten dpkg-dev python3 nlohmann-json3-dev googletest)

packages=()
gui_page=false
abseil_source=false
for tier in "${@:-all}"; do
  case "$tier" in
    engine) packages+=("${engine[@]}") ;;
    tools) packages+=("${tools[@]}") ;;
    tests)
      packages+=("${tests[@]}")
      gui_page=true
      ;;
    python) packages+=("${python[@]}") ;;
    arena) packages+=("${arena[@]}") ;;
    shards) packages+=("${shards[@]}") ;;
    plots) packages+=("${plots[@]}") ;;
    clang) packages+=("${clang[@]}") ;;
    web)
      packages+=("${web[@]}")
      abseil_source=true
      ;;
    all)
      packages+=("${tests[@]}" "${shards[@]}" "${plots[@]}" "${clang[@]}" "${web[@]}")
      gui_page=true
      abseil_source=true
      ;;
    *)
      echo "install-deps.sh: unknown tier '$tier' (engine, tools, python, tests, arena, shards, plots, clang, web, all)" >&2
      exit 2
      ;;
  esac
done

# npm comes with Node.js wherever that is installed; Debian's own package otherwise.
if $gui_page && ! command -v npm >/dev/null; then packages+=(npm); fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
need_root() {
  if [ -n "$sudo" ] && ! command -v sudo >/dev/null; then
    echo "need root (or sudo) to $1" >&2
    exit 1
  fi
}

# The locks apt-get takes, where apt's configuration puts them: the package lists' (update),
# dpkg's and the downloaded packages' (install).
lock_deadline=$((SECONDS + ${DIVERCITE_APT_LOCK_TIMEOUT:-1800}))
apt_locks() {
  local lists status archives
  eval "$(apt-config shell lists Dir::State::Lists/d status Dir::State::status/f \
    archives Dir::Cache::Archives/d)"
  if [ "$1" = update ]; then
    echo "${lists%/}/lock"
  else
    printf '%s\n' "$(dirname "$status")/lock-frontend" "$(dirname "$status")/lock" \
      "${archives%/}/lock"
  fi
}

# lock_holder FILE...: "pid N: NAME holds FILE" for the first of the files a process holds a
# lock on (/proc/locks), else nothing.
lock_holder() {
  local file id pid name
  [ -r /proc/locks ] || return 0
  for file in "$@"; do
    [ -e "$file" ] || continue
    # /proc/locks names a file MAJOR:MINOR:INODE, the device's numbers in hexadecimal.
    id=$(stat -L -c '%Hd %Ld %i' "$file" | awk '{ printf "%02x:%02x:%s", $1, $2, $3 }')
    # A held lock's line: "1: POSIX ADVISORY WRITE PID ID START END" (a waiter's has "->").
    pid=$(awk -v id="$id" '$2 != "->" && $6 == id { print $5; exit }' /proc/locks)
    [ -n "$pid" ] || continue
    name=$(cat "/proc/$pid/comm" 2>/dev/null || echo "another process")
    echo "pid $pid: $name holds $file"
    return 0
  done
}

# apt_get ARGUMENT...: apt-get once no other process holds the locks it takes, waiting for them
# (a line when the holder changes), else exits 1 at the deadline. apt waits for dpkg's frontend
# lock itself when another takes it first (DPkg::Lock::Timeout); not for the others (apt 2.6),
# so apt-get is run again when it fails while another holds one.
apt_get() {
  local locks holder waiting="" status
  mapfile -t locks < <(apt_locks "$1")
  while true; do
    while holder=$(lock_holder "${locks[@]}") && [ -n "$holder" ]; do
      if [ "$SECONDS" -ge "$lock_deadline" ]; then
        echo "install-deps.sh: another apt/dpkg still runs ($holder); run this again once it" \
          "has finished (or wait longer: DIVERCITE_APT_LOCK_TIMEOUT, in seconds)" >&2
        exit 1
      fi
      if [ "$holder" != "$waiting" ]; then
        echo "Waiting for another apt/dpkg to finish ($holder) ..."
        waiting=$holder
      fi
      sleep 1
    done
    status=0
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get \
      -o DPkg::Lock::Timeout=$((lock_deadline > SECONDS ? lock_deadline - SECONDS : 1)) "$@" ||
      status=$?
    if [ "$status" -eq 0 ] || [ -z "$(lock_holder "${locks[@]}")" ]; then return "$status"; fi
    waiting=""
  done
}

missing=()
for package in $(printf '%s\n' "${packages[@]}" | sort -u); do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  need_root "install: ${missing[*]}"
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The GUI page's socket.io client, the exact version its SRI hash names (package-lock.json).
page="$(dirname "$0")/../tests/browser/gui_page"
if $gui_page && [ ! -d "$page/node_modules/socket.io-client" ]; then
  echo "Installing the GUI page's npm packages in tests/browser/gui_page/"
  npm ci --prefix "$page" --no-audit --no-fund --loglevel=error
fi

# The JavaScript linter (ESLint and its recommended rules), the exact versions of
# web/package-lock.json.
web_dir="$(dirname "$0")/../web"
if $gui_page && [ ! -x "$web_dir/node_modules/.bin/eslint" ]; then
  echo "Installing the JavaScript linter's npm packages in web/"
  npm ci --prefix "$web_dir" --no-audit --no-fund --loglevel=error
fi

# Abseil's source for the wasm build: Debian's own (the same version as libabsl-dev, with
# Debian's patches), so the browser's engine and the native one build on the same Abseil.
# `apt-get source` needs a deb-src line; Debian's images ship none.
abseil_dir="$(dirname "$0")/../build-web/abseil"
if $abseil_source && ! compgen -G "$abseil_dir/abseil-*/CMakeLists.txt" >/dev/null; then
  if ! grep -rqsE '^(deb-src[[:space:]]|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    # shellcheck source=/dev/null
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
    echo "Adding a deb-src line for Debian $codename's main archive (apt-get source abseil)"
    need_root "add /etc/apt/sources.list.d/divercite-deb-src.sources"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$codename" "$codename" | $sudo tee /etc/apt/sources.list.d/divercite-deb-src.sources >/dev/null
    apt_get update -qq
  fi
  if ! apt-cache showsrc abseil >/dev/null 2>&1; then apt_get update -qq; fi
  # The version of libabsl-dev when it is installed (the native build's), else apt's choice.
  version="$(dpkg-query -W -f='${Version}' libabsl-dev 2>/dev/null || true)"
  mkdir -p "$abseil_dir"
  echo "Fetching Abseil's Debian source ${version:-(newest)} into build-web/abseil/"
  (cd "$abseil_dir" && apt-get source -qq "abseil${version:+=$version}" >/dev/null) || {
    echo "install-deps.sh: apt-get source abseil${version:+=$version} failed" >&2
    exit 1
  }
  # Debian's latomic.diff links every Abseil user with `-Wl,--push-state,--as-needed
  # -latomic` (for armel): wasm-ld takes neither the flags nor the library, and wasm needs
  # no libatomic. Reversed here, in the copy the wasm build compiles only.
  for source in "$abseil_dir"/abseil-*/; do
    if [ -f "$source/debian/patches/latomic.diff" ]; then
      patch -R -p1 -s -d "$source" <"$source/debian/patches/latomic.diff"
    fi
  done
fi
