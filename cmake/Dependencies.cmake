# System packages, found by need (Debian's names; scripts/install-deps.sh TIER installs them):
#   the engine (divercite, divercite-perft): libabsl-dev, libmimalloc-dev  -> tier "engine"
#   the tools (match runner, analysis, tuners): + nlohmann-json3-dev, libeigen3-dev -> "tools"
#   the tests and the micro-benchmarks: + libgtest-dev, libbenchmark-dev   -> "tests"
#   the Python package (python/): pybind11-dev, python3-dev, python3-pytest -> "python"
# A missing package stops the configure step with what to install, or which part to leave out.

# A macro, not a function: what find_package sets stays visible to the caller (pybind11 reads
# Python3_FOUND to use the Python found here).
macro(divercite_require package tier what)
  find_package(${package} ${ARGN})
  if(NOT ${package}_FOUND)
    if("${tier}" STREQUAL "python")
      set(_divercite_without "-DDIVERCITE_PYTHON_PACKAGE=OFF without the Python package")
    else()
      set(_divercite_without "-DDIVERCITE_TOOLS=OFF for the engine alone, "
        "-DDIVERCITE_TESTS=OFF without the tests and benchmarks")
    endif()
    message(FATAL_ERROR "${what} needs ${package}: install it with `scripts/install-deps.sh "
      "${tier}`, or leave that part out (${_divercite_without})")
  endif()
endmacro()

# The browser's build (Emscripten, scripts/web.sh) is the engine and the rules only: no tools,
# tests or Python package (plain variables, which the options below then leave alone).
if(EMSCRIPTEN)
  set(DIVERCITE_TOOLS OFF)
  set(DIVERCITE_TESTS OFF)
  set(DIVERCITE_PYTHON_PACKAGE OFF)
endif()

option(DIVERCITE_TOOLS "Build the match runner, the analysis and the tuners" ON)
option(DIVERCITE_TESTS "Build the tests and the micro-benchmarks (needs DIVERCITE_TOOLS)" ON)
if(DIVERCITE_TESTS AND NOT DIVERCITE_TOOLS)
  message(FATAL_ERROR "The tests run the tools: with -DDIVERCITE_TOOLS=OFF, add -DDIVERCITE_TESTS=OFF")
endif()

# Debian's Python, not whichever comes first on PATH (a pyenv shim, a virtualenv): it has the
# course's packages, and the Python package is built for it and installed where it looks.
set(DIVERCITE_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python the package is built for and the Python tests run with (Debian's, with the course's packages)")
option(DIVERCITE_PYTHON_PACKAGE
  "Build the Python package's compiled rules, divercite._core (python/src/; its pure-Python modules, divercite.engine for the course player among them, are always built)" ON)

if(EMSCRIPTEN)
  include(WebDependencies)
else()
  divercite_require(absl engine "The engine" CONFIG)
  divercite_require(mimalloc engine "The engine" CONFIG)
endif()
if(DIVERCITE_TOOLS)
  divercite_require(nlohmann_json tools "The tools" 3)
  divercite_require(Eigen3 tools "The tuners" 3.3 NO_MODULE)
endif()
if(DIVERCITE_PYTHON_PACKAGE)
  set(Python3_EXECUTABLE ${DIVERCITE_PYTHON})
  divercite_require(Python3 python "The Python package" COMPONENTS Interpreter Development.Module)
  divercite_require(pybind11 python "The Python package" CONFIG QUIET)
endif()
if(DIVERCITE_TESTS)
  divercite_require(GTest tests "The tests")
  divercite_require(benchmark tests "The micro-benchmarks" CONFIG)
endif()

# mimalloc replaces malloc in every executable. Sanitizers bring their own allocator, so it
# is left out of sanitizer builds; WebAssembly's own allocator serves one wasm memory.
if(DIVERCITE_SANITIZER OR EMSCRIPTEN)
  set(DIVERCITE_MIMALLOC OFF)
else()
  set(DIVERCITE_MIMALLOC ON)
endif()
function(divercite_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE divercite_options)
  if(DIVERCITE_MIMALLOC)
    target_link_libraries(${name} PRIVATE mimalloc)
  endif()
endfunction()
