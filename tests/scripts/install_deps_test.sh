#!/usr/bin/env bash
# scripts/install-deps.sh and apt's locks, without the network or root: apt-get, dpkg-query and
# sudo are fakes on PATH, and apt's configuration (APT_CONFIG) puts its lock files in a
# temporary folder, where a Python process holds them as apt does (fcntl). A tier installed
# already never runs apt-get, however long a lock is held; a tier to install waits for each
# lock its apt-get takes (the package lists' for update, dpkg's for install), saying who holds
# it, and runs apt-get once it is free; at the deadline it gives up, naming the holder.
#
#   install_deps_test.sh SOURCE_DIR PYTHON
set -euo pipefail
source_dir=$(cd "$1" && pwd)
python=$2
if ! command -v apt-config >/dev/null || [ ! -r /proc/locks ]; then
  echo "SKIPPED: apt's locks are Debian's on Linux (no apt-config or /proc/locks here)"
  exit 77
fi
tmp=$(mktemp -d)
holder=""
trap '[ -z "$holder" ] || kill "$holder" 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

mkdir -p "$tmp/bin" "$tmp/lists" "$tmp/dpkg" "$tmp/archives"
touch "$tmp/lists/lock" "$tmp/dpkg/lock-frontend" "$tmp/dpkg/lock" "$tmp/archives/lock"
cat >"$tmp/apt.conf" <<END
Dir::State::Lists "$tmp/lists/";
Dir::State::status "$tmp/dpkg/status";
Dir::Cache::Archives "$tmp/archives/";
END
export APT_CONFIG="$tmp/apt.conf"
# dpkg-query: every package installed but those named in $MISSING.
cat >"$tmp/bin/dpkg-query" <<'END'
#!/bin/sh
for package; do :; done
case " $MISSING " in *" $package "*) exit 1 ;; esac
echo "install ok installed"
END
# apt-get: its arguments, and whether the lock holder had let go when it ran, on one line.
cat >"$tmp/bin/apt-get" <<END
#!/bin/sh
released=no
[ -e "$tmp/released" ] && released=yes
echo "\$* released=\$released" >>"$tmp/apt-get.log"
END
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/"*
export PATH="$tmp/bin:$PATH"

# hold SECONDS FILE...: a process holding the files' locks for SECONDS, then marking the
# moment it lets go ($tmp/released) and exiting; returns once it holds them.
hold() {
  rm -f "$tmp/held" "$tmp/released"
  "$python" -c '
import fcntl, os, sys, time
tmp, seconds, paths = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
fds = [os.open(path, os.O_RDWR) for path in paths]
for fd in fds:
    fcntl.lockf(fd, fcntl.LOCK_EX)
open(os.path.join(tmp, "held"), "w").close()
time.sleep(seconds)
open(os.path.join(tmp, "released"), "w").close()
' "$tmp" "$@" &
  holder=$!
  while [ ! -e "$tmp/held" ]; do
    kill -0 "$holder" 2>/dev/null || fail "the lock holder did not start"
    sleep 0.1
  done
  who="pid $holder: $(cat "/proc/$holder/comm")"
}

# install TIER: install-deps.sh TIER; its status, output and time in $status, $out, $took.
install() {
  rm -f "$tmp/apt-get.log"
  touch "$tmp/apt-get.log"
  local start=$SECONDS
  status=0
  out=$("$source_dir/scripts/install-deps.sh" "$1" 2>&1) || status=$?
  took=$((SECONDS - start))
  local line
  while IFS= read -r line; do echo "  | $line"; done <<<"$out"
}

echo "== a tier installed already, the locks held: no apt-get, no wait"
hold 60 "$tmp/lists/lock" "$tmp/dpkg/lock-frontend"
MISSING="" DIVERCITE_APT_LOCK_TIMEOUT=30 install engine
kill "$holder"
wait "$holder" 2>/dev/null || true
[ "$status" -eq 0 ] || fail "exit status $status"
[ ! -s "$tmp/apt-get.log" ] || fail "apt-get ran: $(cat "$tmp/apt-get.log")"
[ "$took" -lt 10 ] || fail "took $took s"

echo "== the package lists' lock held for 3 s: update waits, then install"
hold 3 "$tmp/lists/lock"
MISSING="cmake libabsl-dev" install engine
wait "$holder"
[ "$status" -eq 0 ] || fail "exit status $status"
grep -qxF "Waiting for another apt/dpkg to finish ($who holds $tmp/lists/lock) ..." <<<"$out" ||
  fail "no line saying what it waits for"
grep -q '^-o DPkg::Lock::Timeout=[0-9]* update -qq released=yes$' "$tmp/apt-get.log" ||
  fail "update ran while the lock was held: $(cat "$tmp/apt-get.log")"
grep -q '^-o DPkg::Lock::Timeout=[0-9]* install -y -qq --no-install-recommends cmake libabsl-dev' \
  "$tmp/apt-get.log" || fail "no install: $(cat "$tmp/apt-get.log")"

echo "== dpkg's frontend lock held for 3 s: update at once, install once it is free"
hold 3 "$tmp/dpkg/lock-frontend"
MISSING="cmake" install engine
wait "$holder"
[ "$status" -eq 0 ] || fail "exit status $status"
grep -qxF "Waiting for another apt/dpkg to finish ($who holds $tmp/dpkg/lock-frontend) ..." \
  <<<"$out" || fail "no line saying what it waits for"
[ "$(cut -d' ' -f3 "$tmp/apt-get.log")" = "update"$'\n'"install" ] ||
  fail "not one update, then one install: $(cat "$tmp/apt-get.log")"
grep -q ' update -qq released=no$' "$tmp/apt-get.log" || fail "update waited for dpkg's lock"
grep -q ' cmake released=yes$' "$tmp/apt-get.log" || fail "install ran while dpkg's lock was held"

echo "== dpkg's lock held past the deadline (2 s): exit 1, naming the holder"
hold 60 "$tmp/dpkg/lock"
MISSING="cmake" DIVERCITE_APT_LOCK_TIMEOUT=2 install engine
kill "$holder"
wait "$holder" 2>/dev/null || true
[ "$status" -eq 1 ] || fail "exit status $status"
grep -qF "another apt/dpkg still runs ($who holds $tmp/dpkg/lock); run this again" <<<"$out" ||
  fail "no line naming the holder at the deadline"
grep -q ' install ' "$tmp/apt-get.log" && fail "install ran while dpkg's lock was held"
[ "$took" -lt 10 ] || fail "took $took s"
echo "PASSED"
