# System packages (Debian): libabsl-dev, libgtest-dev, libbenchmark-dev, libmimalloc-dev.
# scripts/install-deps.sh installs whichever is missing.

find_package(absl REQUIRED CONFIG)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED CONFIG)
find_package(mimalloc REQUIRED CONFIG)

# mimalloc replaces malloc in every executable. Sanitizers bring their own allocator, so it
# is left out of sanitizer builds.
function(divercite_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE divercite_options)
  if(NOT DIVERCITE_SANITIZER)
    target_link_libraries(${name} PRIVATE mimalloc)
  endif()
endfunction()
