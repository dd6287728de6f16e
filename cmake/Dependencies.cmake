# System packages (Debian): libabsl-dev, libgtest-dev, libbenchmark-dev, libmimalloc-dev,
# nlohmann-json3-dev, libeigen3-dev. scripts/install-deps.sh installs whichever is missing.

find_package(absl REQUIRED CONFIG)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED CONFIG)
find_package(mimalloc REQUIRED CONFIG)
find_package(nlohmann_json 3 REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

# mimalloc replaces malloc in every executable. Sanitizers bring their own allocator, so it
# is left out of sanitizer builds.
function(divercite_executable name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE divercite_options)
  if(NOT DIVERCITE_SANITIZER)
    target_link_libraries(${name} PRIVATE mimalloc)
  endif()
endfunction()
