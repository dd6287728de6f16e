# Warnings, optimisation and sanitizers shared by every project target.

set(DIVERCITE_SANITIZER "" CACHE STRING
    "Build with a sanitizer: address, undefined, address+undefined, thread (empty: none)")
option(DIVERCITE_NATIVE "Optimise for this machine's CPU (-march=native)" ON)

add_library(divercite_options INTERFACE)
target_compile_options(divercite_options INTERFACE
  -Wall -Wextra -Wpedantic -Werror)
if(DIVERCITE_NATIVE)
  target_compile_options(divercite_options INTERFACE -march=native)
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
