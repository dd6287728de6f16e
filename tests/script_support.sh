# shellcheck shell=bash
# Helpers of the tests written as bash scripts (shards_test.sh, ladder_slurm_test.sh), sourced.

log() { echo "[$(date -u +%T)] $*"; }
fail() {
  echo "FAILED: $*" >&2
  exit 1
}
now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Installs what is missing, as scripts/install-deps.sh would; SKIP only if that cannot be done.
need() {
  local missing=() command
  for command in "${@:2}"; do command -v "$command" >/dev/null || missing+=("$command"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "missing ${missing[*]}: installing Debian's $1"
  # shellcheck disable=SC2086 # $1 is a list of packages
  if [ "$(id -u)" -eq 0 ] && { apt-get install -y -qq --no-install-recommends $1 >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      apt-get install -y -qq --no-install-recommends $1 >/dev/null 2>&1; }; }; then
    return 0
  fi
  echo "SKIPPED: ${missing[*]} not found and Debian's '$1' could not be installed" \
    "(scripts/install-deps.sh installs them)"
  exit 77
}

