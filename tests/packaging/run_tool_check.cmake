# Runs one validator on one file and fails on a non-zero exit, or (CLEAN_OUTPUT) on any output at all, since
# some tools (groff, desktop-file-validate) report warnings but still exit 0.
# cmake -DTOOL=name -DDEB_PACKAGE=debian-package -DARGS="arg|arg" [-DCLEAN_OUTPUT=ON] -P run_tool_check.cmake
# The tool is looked up when the test runs; a missing tool fails the test and names the package to install.
string(REPLACE "|" ";" ARGS "${ARGS}")
find_program(tool_path ${TOOL} NO_CACHE)
if(NOT tool_path)
    message(FATAL_ERROR "${TOOL} is not installed: apt-get install ${DEB_PACKAGE} (scripts/deps.sh --test installs it)")
endif()
execute_process(COMMAND ${tool_path} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(JOIN " " shown ${TOOL} ${ARGS})
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${shown} exited with ${rc}:\n${out}${err}")
endif()
string(STRIP "${out}${err}" all)
if(CLEAN_OUTPUT AND NOT all STREQUAL "")
    message(FATAL_ERROR "${shown} reported:\n${all}")
endif()
message(STATUS "${shown}: clean")
