# Run at every build (cmake -P): writes OUTPUT, a header naming the engine's version, from
# `git describe` in SOURCE_DIR, or FALLBACK outside a git checkout (a source archive). The file
# is rewritten only when the text changes, so an unchanged version recompiles nothing.
execute_process(
  COMMAND git describe --tags --always --dirty
  WORKING_DIRECTORY "${SOURCE_DIR}"
  OUTPUT_VARIABLE describe
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE status
  ERROR_QUIET)
if(status EQUAL 0 AND describe)
  # Without a tag, describe prints only the commit: say which release it comes after.
  if(describe MATCHES "^[0-9a-f]+(-dirty)?$")
    set(version "${FALLBACK}-g${describe}")
  else()
    set(version "${describe}")
  endif()
else()
  set(version "${FALLBACK}")
endif()
set(text "// Written by cmake/WriteVersion.cmake at build time.\n#define DIVERCITE_VERSION \"${version}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
endif()
if(NOT previous STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
