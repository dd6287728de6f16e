# shellcheck shell=bash
# The CMake options of the scripts' builds, sourced by those whose tree another command also
# configures (build/: build.sh, and so test.sh; main.sh; arena.sh) or whose options come from
# their caller (web.sh). Each sets every option of the build's kind and parts, so that a tree
# is what the last command asked for, never what an earlier one left in CMake's cache (main.sh
# after test.sh once built the match's engine with the test tree's assertions). The machine's
# own settings stay as the tree has them: the compiler, the instruction-set level
# (DIVERCITE_ARCH), the course's and the reference games' folders, the Python.
# check-levels.sh and fuzz.sh configure trees of their own (build-levels/, build-fuzz/), always
# with the same options. tests/scripts/cmake_options_test.sh checks each that sources this.

# How the code is compiled, at the Release build's values (a -D given after them wins).
# shellcheck disable=SC2034 # used by the scripts that source this file
build_kind=(-DCMAKE_BUILD_TYPE=Release -DDIVERCITE_WERROR=OFF -DDIVERCITE_ASSERTIONS=OFF
  -DDIVERCITE_SANITIZER= -DCMAKE_UNITY_BUILD=OFF -DDIVERCITE_FUZZ=OFF)

# configure_release_tree [-DOPTION=VALUE...]: configures the Release tree, build/, with the kind
# above and every part (the tools, the tests, the Python package's compiled rules; the web tests
# when build-web/site/ is there), then the arguments, which change any of them.
configure_release_tree() {
  cmake -S . -B build -G Ninja "${build_kind[@]}" -DDIVERCITE_TOOLS=ON -DDIVERCITE_TESTS=ON \
    -DDIVERCITE_PYTHON_PACKAGE=ON -DDIVERCITE_WEB_SITE= "$@" >/dev/null
}
