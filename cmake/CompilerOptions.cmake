# Warnings, instruction-set level, optimisation and sanitizers shared by every project target.

include(CheckCXXCompilerFlag)

set(DIVERCITE_SANITIZER "" CACHE STRING
    "Build with a sanitizer: address, undefined, address+undefined, thread (empty: none)")

# Warnings stay warnings in a user's build: a compiler or a CPU we never tried must not turn a
# harmless diagnostic in a system header into a failed build. scripts/test.sh (and so CI)
# turns them into errors.
option(DIVERCITE_WERROR "Treat warnings as errors" OFF)

# Assertions in an optimised build: `assert` (NDEBUG undefined) and libstdc++'s bounds and
# precondition checks (_GLIBCXX_ASSERTIONS), at the build type's optimisation. scripts/test.sh
# (and so CI) runs every test so; a user's Release build has neither.
option(DIVERCITE_ASSERTIONS "Keep assert() and libstdc++'s checks in an optimised build" OFF)

# The instruction-set level, named as x86-64's psABI names them (Stockfish's ARCH=...):
# `native` is this machine's CPU; a binary for a cluster whose nodes differ wants the level of
# the oldest node. `DIVERCITE_NATIVE=OFF` is kept as a synonym of `x86-64`.
set(_divercite_arch_levels native x86-64-v4 x86-64-v3 x86-64-v2 x86-64)
set(DIVERCITE_ARCH native CACHE STRING
    "Instruction-set level: native, x86-64-v4 (AVX-512), x86-64-v3 (AVX2, BMI2), x86-64-v2 (SSE4.2, POPCNT), x86-64")
set_property(CACHE DIVERCITE_ARCH PROPERTY STRINGS ${_divercite_arch_levels})
if(DEFINED DIVERCITE_NATIVE)
  if(NOT DIVERCITE_NATIVE)
    if(NOT DIVERCITE_ARCH MATCHES "^(native|x86-64)$")
      message(FATAL_ERROR "DIVERCITE_NATIVE=OFF means DIVERCITE_ARCH=x86-64, but DIVERCITE_ARCH "
        "is ${DIVERCITE_ARCH}: give DIVERCITE_ARCH alone")
    endif()
    set(DIVERCITE_ARCH x86-64 CACHE STRING "Instruction-set level" FORCE)
  endif()
  # Read once: a later -DDIVERCITE_ARCH=... is then not overridden by a remembered synonym.
  unset(DIVERCITE_NATIVE CACHE)
endif()
if(NOT DIVERCITE_ARCH IN_LIST _divercite_arch_levels)
  message(FATAL_ERROR "DIVERCITE_ARCH='${DIVERCITE_ARCH}' is not a level we build; "
    "choose one of: ${_divercite_arch_levels}")
endif()

if(EMSCRIPTEN)
  # WebAssembly has no instruction-set levels to choose (Emscripten's toolchain reads the
  # processor as x86, which would pass -march=native).
  set(_divercite_march "")
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(_divercite_march "-march=${DIVERCITE_ARCH}")
elseif(DIVERCITE_ARCH STREQUAL "native")
  # Another processor family (arm64, ...): its own CPU if the compiler knows how, else the
  # compiler's default.
  set(_divercite_march "-march=native")
else()
  message(FATAL_ERROR "DIVERCITE_ARCH=${DIVERCITE_ARCH} is an x86-64 level; this processor is "
    "${CMAKE_SYSTEM_PROCESSOR}: use DIVERCITE_ARCH=native")
endif()
if(_divercite_march)
  check_cxx_compiler_flag(${_divercite_march} DIVERCITE_COMPILER_TAKES_MARCH)
endif()
if(EMSCRIPTEN)
  set(DIVERCITE_ARCH wasm32)
elseif(NOT DIVERCITE_COMPILER_TAKES_MARCH)
  if(DIVERCITE_ARCH STREQUAL "native")
    message(WARNING "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} does not take "
      "${_divercite_march}: building for its default instruction set")
    set(_divercite_march "")
  else()
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} does not take "
      "${_divercite_march} (GCC 11 and Clang 12 are the first to name the x86-64 levels)")
  endif()
endif()
message(STATUS "Instruction-set level: ${DIVERCITE_ARCH} (${_divercite_march})")

add_library(divercite_options INTERFACE)
target_compile_options(divercite_options INTERFACE -Wall -Wextra -Wpedantic ${_divercite_march})
if(DIVERCITE_WERROR)
  target_compile_options(divercite_options INTERFACE -Werror)
endif()
if(DIVERCITE_ASSERTIONS)
  # After the build type's flags on the command line: -UNDEBUG undoes Release's -DNDEBUG.
  target_compile_options(divercite_options INTERFACE -UNDEBUG -D_GLIBCXX_ASSERTIONS)
endif()

if(DIVERCITE_SANITIZER)
  string(REPLACE "+" "," _sanitizers "${DIVERCITE_SANITIZER}")
  message(STATUS "Sanitizers: ${_sanitizers}")
  target_compile_options(divercite_options INTERFACE
    -fsanitize=${_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # GCC's flow analysis under the sanitizers' instrumentation reports uninitialised reads
  # that are not there (GCC 12, libstdc++'s <regex> at -O2 under ASan); the sanitizers
  # themselves check the real thing at run time.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(divercite_options INTERFACE -Wno-maybe-uninitialized)
  endif()
  target_link_options(divercite_options INTERFACE -fsanitize=${_sanitizers})
endif()
