# The newest release in the AppStream metadata (the first <release> listed) and in the Debian changelog (its first
# line) both carry the project's version, so a version bump without a release entry fails here instead of
# showing the old version in software centres and apt changelog.
# cmake -DMETAINFO=file -DCHANGELOG=file -DVERSION=x.y.z -P check_release_version.cmake
set(errors "")
file(READ ${METAINFO} xml)
if(NOT xml MATCHES "<release[ \t\r\n][^>]*version=\"([^\"]+)\"")
    string(APPEND errors "${METAINFO}: no <release version=...> found\n")
elseif(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    string(APPEND errors "${METAINFO}: the newest <release> is ${CMAKE_MATCH_1}, the project is ${VERSION}\n")
endif()
file(STRINGS ${CHANGELOG} first LIMIT_COUNT 1)
if(NOT first MATCHES "^dirbench \\(([^)]+)\\) ")
    string(APPEND errors "${CHANGELOG}: the first line is not 'dirbench (VERSION) ...': ${first}\n")
elseif(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    string(APPEND errors "${CHANGELOG}: the newest entry is ${CMAKE_MATCH_1}, the project is ${VERSION}\n")
endif()
if(errors)
    message(FATAL_ERROR "${errors}add a release entry for ${VERSION}")
endif()
message(STATUS "the newest metainfo release and changelog entry are ${VERSION}, the project's version")
