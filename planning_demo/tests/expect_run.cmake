# Runs PROGRAM with ARGS ('|'-separated) in WORKDIR and checks that it exits with STATUS (a
# crash never matches: execute_process reports it as text) and that stdout + stderr match REGEX.
#   cmake -DPROGRAM=... -DSTATUS=2 -DREGEX=... -DARGS=a|b -DWORKDIR=... -P expect_run.cmake
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args}
                WORKING_DIRECTORY ${WORKDIR}
                RESULT_VARIABLE result
                OUTPUT_VARIABLE out
                ERROR_VARIABLE err
                TIMEOUT 300)
if(NOT "${result}" STREQUAL "${STATUS}")
  message(FATAL_ERROR "exit status '${result}', expected ${STATUS}\n"
                      "command: ${PROGRAM} ${args}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
set(both "${out}${err}")
if(NOT both MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'\n"
                      "command: ${PROGRAM} ${args}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
message(STATUS "ok: exit ${result}, output matches '${REGEX}'")
