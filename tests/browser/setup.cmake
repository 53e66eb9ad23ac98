# The browser tests' fixture (ctest: browser.setup): checks node, npm and Chromium are there, then
# installs the pinned playwright-core into MODULES_DIR with `npm ci` (skipped when that lock is
# already installed there). Usage: cmake -DSOURCE_DIR=.. -DMODULES_DIR=.. -DNODE=.. -DNPM=.. -P setup.cmake
foreach(tool NODE NPM)
  if(NOT ${tool} OR ${tool} MATCHES "NOTFOUND$")
    message(FATAL_ERROR "browser tests: ${tool} was not found when the build was configured: scripts/install-deps "
                        "installs Debian's nodejs and npm (then configure again)")
  endif()
endforeach()
if(NOT EXISTS /usr/bin/chromium)
  message(FATAL_ERROR "browser tests: /usr/bin/chromium is missing: scripts/install-deps installs Debian's chromium")
endif()
file(MAKE_DIRECTORY ${MODULES_DIR})
set(lock ${MODULES_DIR}/package-lock.json)
if(EXISTS ${MODULES_DIR}/node_modules/.package-lock.json AND EXISTS ${lock})
  file(SHA256 ${lock} installed)
  file(SHA256 ${SOURCE_DIR}/package-lock.json wanted)
  if(installed STREQUAL wanted)
    message(STATUS "browser tests: playwright-core already installed in ${MODULES_DIR}")
    return()
  endif()
endif()
file(COPY ${SOURCE_DIR}/package.json ${SOURCE_DIR}/package-lock.json DESTINATION ${MODULES_DIR})
set(ENV{PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD} 1)  # Debian's Chromium is the browser
execute_process(COMMAND ${NPM} ci --no-audit --no-fund WORKING_DIRECTORY ${MODULES_DIR} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "browser tests: `npm ci` in ${MODULES_DIR} failed (${failed})")
endif()
