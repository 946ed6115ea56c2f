# README.md has fewer than MAX_LINES lines: it says what DirBench is for, how to run it and how far to trust each
# figure, and links to docs/ for the details. Lines are counted as wc -l does (blank lines too).
file(READ ${README} content)
string(REGEX MATCHALL "\n" newlines "${content}")
list(LENGTH newlines n)
if(NOT n LESS MAX_LINES)
    message(FATAL_ERROR "README.md has ${n} lines; it must stay under ${MAX_LINES} (move the details to docs/)")
endif()
message(STATUS "README.md: ${n} lines (under ${MAX_LINES})")
