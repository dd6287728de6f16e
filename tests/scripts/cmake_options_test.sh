#!/usr/bin/env bash
# The scripts that configure the Release tree, build/ (build.sh, test.sh, main.sh, arena.sh),
# each leave it with the options a fresh tree gets from them, whatever the tree had before:
# run in any order, each command gets its own build (scripts/cmake-options.sh); so does web.sh
# its first tree, build-web/threaded/, when Emscripten and Abseil's source for it are there.
# Each script runs for real up to its first `cmake --build`, in a copy of the checkout whose
# install-deps.sh does nothing: once on a fresh tree, then again on that tree with every option
# of the build's kind and parts turned the other way in its cache. The machine's settings
# (the compiler, DIVERCITE_ARCH, the folders, the Python) are the tree's to keep, and not
# compared.
#
#   cmake_options_test.sh SOURCE_DIR CMAKE [SCRIPT...]   (default: all of them)
set -euo pipefail
source_dir=$(cd "$1" && pwd)
cmake=$(command -v "$2") || { echo "FAILED: no $2" >&2; exit 1; }
shift 2
if [ $# -eq 0 ]; then
  set -- build.sh test.sh main.sh arena.sh
  if command -v emcmake >/dev/null &&
    compgen -G "$source_dir/build-web/abseil/abseil-*/CMakeLists.txt" >/dev/null; then
    set -- "$@" web.sh
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# The copy: every entry of the checkout linked but the build trees and scripts/, which is
# copied; the course's and the reference's folders where the checkout finds them.
repo=$tmp/main
mkdir -p "$repo" "$tmp/bin"
for entry in "$source_dir"/* "$source_dir"/.[!.]*; do
  [ -e "$entry" ] || continue
  case "${entry##*/}" in
    scripts | build* | .git) ;;
    *) ln -s "$entry" "$repo/${entry##*/}" ;;
  esac
done
[ -d "$source_dir/../shared" ] && ln -s "$source_dir/../shared" "$tmp/shared"
mkdir "$repo/build-web"
[ -d "$source_dir/build-web/abseil" ] &&
  ln -s "$source_dir/build-web/abseil" "$repo/build-web/abseil"
cp -r "$source_dir/scripts" "$repo/scripts"
printf '#!/bin/sh\nexit 0\n' >"$repo/scripts/install-deps.sh"
# cmake on PATH: the configure step as it is; `cmake --build` ends the script (exit 97).
cat >"$tmp/bin/cmake" <<END
#!/bin/sh
[ "\$1" = --build ] && exit 97
exec "$cmake" "\$@"
END
chmod +x "$tmp/bin/cmake"
export PATH="$tmp/bin:$PATH"

# run SCRIPT WHERE: the script, which must reach its build step.
run() {
  local status=0
  "$repo/scripts/$1" >"$tmp/log" 2>&1 || status=$?
  if [ "$status" -ne 97 ]; then
    tail -30 "$tmp/log" >&2
    fail "$1 $2 exited with $status before its build"
  fi
}

# options: the options of the build's kind and parts in the script's tree's cache, NAME=VALUE
# sorted, CMAKE_UNITY_BUILD=OFF when unset: CMAKE_BUILD_TYPE, CMAKE_UNITY_BUILD and every
# DIVERCITE_ entry but the machine's settings (where things are: a path but the web site's; the
# instruction-set level; where the Python package installs) and CMake's internal ones.
options() {
  awk -F= '
    /^[A-Za-z_][A-Za-z0-9_-]*:[A-Z]+=/ {
      split($1, key, ":")
      if (key[2] == "INTERNAL") next
      if (key[1] == "CMAKE_BUILD_TYPE" || key[1] == "CMAKE_UNITY_BUILD") {
        seen[key[1]] = 1
      } else if (key[1] !~ /^DIVERCITE_/ || key[1] ~ /^DIVERCITE_(ARCH|PYTHON_INSTALL_DIR)$/ ||
                 (key[2] ~ /^(FILE)?PATH$/ && key[1] != "DIVERCITE_WEB_SITE")) {
        next
      }
      value = substr($0, length($1) + 2)
      if (key[2] == "BOOL" || key[1] == "CMAKE_UNITY_BUILD")
        value = toupper(value) ~ /^(ON|TRUE|YES|Y|1)$/ ? "ON" : "OFF"
      print key[1] "=" value
    }
    END { if (!seen["CMAKE_UNITY_BUILD"]) print "CMAKE_UNITY_BUILD=OFF" }
  ' "$repo/$tree/CMakeCache.txt" | sort
}

# poison: turns each of those options the other way in the script's tree's cache (one unset
# there is added).
poison() {
  local line name value other cache="$repo/$tree/CMakeCache.txt"
  while IFS= read -r line; do
    name=${line%%=*} value=${line#*=}
    case "$name" in
      CMAKE_BUILD_TYPE) other=$([ "$value" = Debug ] && echo Release || echo Debug) ;;
      DIVERCITE_SANITIZER) other=$([ -n "$value" ] && echo "" || echo undefined) ;;
      DIVERCITE_WEB_SITE) other=$([ -n "$value" ] && echo "" || echo "$tmp/no-site") ;;
      *)
        case "$value" in
          ON) other=OFF ;;
          OFF) other=ON ;;
          *) fail "no other value known for $name ($value): add one here, or list it among" \
            "the machine's settings" ;;
        esac
        ;;
    esac
    awk -v name="$name" -v value="$other" '
      index($0, name ":") == 1 { sub(/=.*/, ""); print $0 "=" value; found = 1; next }
      { print }
      END { if (!found) print name ":BOOL=" value }' "$cache" >"$cache.new"
    mv "$cache.new" "$cache"
  done < <(options)
}

for script in "$@"; do
  tree=build
  [ "$script" = web.sh ] && tree=build-web/threaded
  rm -rf "${repo:?}/$tree"
  run "$script" "on a fresh tree"
  fresh=$(options)
  poison
  turned=$(options)
  [ "$(comm -12 <(echo "$fresh") <(echo "$turned"))" = "" ] || fail "the cache was not turned"
  run "$script" "on a tree whose options were turned the other way"
  after=$(options)
  if [ "$after" != "$fresh" ]; then
    echo "$script after another build kept what the tree had (-: a fresh tree; +: after):" >&2
    diff <(echo "$fresh") <(echo "$after") | grep '^[<>]' | sed 's/^</-/; s/^>/+/' >&2 || true
    fail "$script leaves options of an earlier build: set them in its configure step"
  fi
  echo "$script: the same $(echo "$fresh" | wc -l) options on a fresh tree and on one turned the" \
    "other way: $(echo "$fresh" | tr '\n' ' ')"
done
echo "PASSED"
