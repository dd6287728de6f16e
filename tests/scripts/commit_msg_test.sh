#!/usr/bin/env bash
# scripts/git-hooks/commit-msg: messages fed to the hook (subjects of 72 and 73 characters,
# ASCII and UTF-8, after blank and comment lines, git's own fixup! subjects, long body lines),
# then the hook in a real `git commit` of a new repository.
#
#   commit_msg_test.sh SOURCE_DIR
set -euo pipefail
hook=$(cd "$1" && pwd)/scripts/git-hooks/commit-msg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# repeat TEXT N: TEXT N times.
repeat() { printf "%${2}s" "" | sed "s/ /$1/g"; }
# check pass|refuse MESSAGE: the hook on MESSAGE (printf's format, so \n is a newline).
check() {
  # shellcheck disable=SC2059 # the message is the format
  printf "$2" >"$tmp/message"
  local status=0
  "$hook" "$tmp/message" 2>"$tmp/err" || status=$?
  case "$1:$status" in
    pass:0 | refuse:1) ;;
    *) fail "expected $1, exit status $status: $(head -c 200 "$tmp/message") ($(cat "$tmp/err"))" ;;
  esac
}

a72=$(repeat a 72)
e72=$(repeat é 72)
check pass "Short subject\n\nA body line.\n"
check pass "$a72\n"
check refuse "${a72}b\n"
grep -q "the subject is 73 characters, over 72 (CONTRIBUTING.md)" "$tmp/err" ||
  fail "the refusal does not say why: $(cat "$tmp/err")"
check pass "$e72\n"                      # 72 characters, 144 bytes
check refuse "${e72}é\n"
check refuse "\n\n# A comment\n${a72}b\n"  # the subject is the first line that is not a comment
check pass "# $a72 $a72\n$a72\n"
check pass "Short subject\n\n$a72 $a72 in the body\n"
check pass "fixup! ${a72}b\n"
check pass "# only comments\n"           # no subject: git refuses an empty message itself

# The hook as git runs it (core.hooksPath), in a repository of its own.
git init -q "$tmp/repo"
cd "$tmp/repo"
git config core.hooksPath "$(dirname "$hook")"
commit() { git -c user.name=test -c user.email=test@example.com commit -q --allow-empty -m "$1"; }
if commit "${a72}b" 2>"$tmp/err"; then fail "git committed a 73-character subject"; fi
grep -q "the subject is 73 characters" "$tmp/err" || fail "git: $(cat "$tmp/err")"
commit "$a72" || fail "git refused a 72-character subject"
[ "$(git log --format=%s)" = "$a72" ] || fail "git log: $(git log --format=%s)"
echo "PASSED"
