# The browser's build (Emscripten; scripts/web.sh configures it): Abseil compiled here from
# its source, since no package ships it for wasm, and nlohmann-json's headers for the rules
# module. Included by Dependencies.cmake under EMSCRIPTEN only.

# One tree per thread model: the threaded engine (-pthread, SharedArrayBuffer) and the
# single-threaded engine with the rules module. -pthread changes how every object file uses
# memory, Abseil's included, so it is set for the whole tree.
option(DIVERCITE_WEB_THREADS "Build the threaded engine (else the single-threaded engine and the rules)" ON)
if(DIVERCITE_WEB_THREADS)
  add_compile_options(-pthread)
  add_link_options(-pthread)
endif()

set(DIVERCITE_ABSEIL_SOURCE_DIR "${PROJECT_SOURCE_DIR}/build-web/abseil/abseil-20220623.1"
    CACHE PATH "Abseil's source, built here for wasm (Debian's: scripts/install-deps.sh web)")
if(NOT EXISTS "${DIVERCITE_ABSEIL_SOURCE_DIR}/CMakeLists.txt")
  message(FATAL_ERROR "The wasm build compiles Abseil from its source, which is not in "
    "DIVERCITE_ABSEIL_SOURCE_DIR=${DIVERCITE_ABSEIL_SOURCE_DIR}: run `scripts/install-deps.sh "
    "web` (Debian's source package), or point DIVERCITE_ABSEIL_SOURCE_DIR at one")
endif()
file(READ "${DIVERCITE_ABSEIL_SOURCE_DIR}/absl/copts/AbseilConfigureCopts.cmake" _divercite_absl_copts)
if(_divercite_absl_copts MATCHES "-latomic")
  message(FATAL_ERROR "${DIVERCITE_ABSEIL_SOURCE_DIR} still has Debian's latomic.diff, whose "
    "-latomic and --push-state wasm-ld refuses: scripts/install-deps.sh web reverses it "
    "(patch -R -p1 < debian/patches/latomic.diff)")
endif()
# Unity builds (CMake compiles a target's files in batches, each batch as one file), ours and
# Abseil's: every em++ run starts Python and Clang again, which costs about as much as compiling
# one of Abseil's small files. Clang's native tree (scripts/check-levels.sh) compiles each file
# alone, which checks that each holds its own includes.
set(CMAKE_UNITY_BUILD ON)

# C++20 as ours (Abseil's options then follow std::string_view and friends); only the
# libraries that the engine links are built (EXCLUDE_FROM_ALL); SYSTEM: its headers raise
# -Wgcc-compat under our -Wpedantic.
set(ABSL_PROPAGATE_CXX_STD ON)
set(ABSL_ENABLE_INSTALL OFF)
# Abseil's compiled libraries serve the protocol's text and errors, not the search's loops
# (those use its headers alone): -O1 there, which compiles two thirds of the wasm build in
# less time (the variable's value in Abseil's folder is the one its targets get).
set(_divercite_release_flags "${CMAKE_CXX_FLAGS_RELEASE}")
string(REPLACE "-O3" "-O1" CMAKE_CXX_FLAGS_RELEASE "${CMAKE_CXX_FLAGS_RELEASE}")
add_subdirectory(${DIVERCITE_ABSEIL_SOURCE_DIR} ${PROJECT_BINARY_DIR}/abseil EXCLUDE_FROM_ALL SYSTEM)
set(CMAKE_CXX_FLAGS_RELEASE "${_divercite_release_flags}")
# Abseil's files that define the same internal name as another of their library's.
set(_divercite_absl ${DIVERCITE_ABSEIL_SOURCE_DIR}/absl)
set_source_files_properties(${_divercite_absl}/strings/numbers.cc
  DIRECTORY ${_divercite_absl}/strings PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
set_source_files_properties(${_divercite_absl}/time/time.cc
  ${_divercite_absl}/time/internal/cctz/src/time_zone_posix.cc
  DIRECTORY ${_divercite_absl}/time PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

# nlohmann-json is header-only, but its folder is /usr/include, which must not come before
# Emscripten's own C library headers: a folder in the build tree holds a link to it alone.
find_path(DIVERCITE_NLOHMANN_JSON_DIR nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH)
if(NOT DIVERCITE_NLOHMANN_JSON_DIR)
  message(FATAL_ERROR "The rules module needs nlohmann-json: install it with "
    "`scripts/install-deps.sh web`")
endif()
set(_divercite_json_include ${PROJECT_BINARY_DIR}/web-include)
file(MAKE_DIRECTORY ${_divercite_json_include})
file(CREATE_LINK ${DIVERCITE_NLOHMANN_JSON_DIR}/nlohmann ${_divercite_json_include}/nlohmann SYMBOLIC)
add_library(divercite_web_json INTERFACE)
target_include_directories(divercite_web_json SYSTEM INTERFACE ${_divercite_json_include})
