# The newest <release> in the AppStream metadata (the first one listed) carries the project's version, so a
# version bump without a release entry fails here instead of showing the old version in software centres.
# cmake -DMETAINFO=file -DVERSION=x.y.z -P check_metainfo_release.cmake
file(READ ${METAINFO} xml)
if(NOT xml MATCHES "<release[ \t\r\n][^>]*version=\"([^\"]+)\"")
    message(FATAL_ERROR "${METAINFO}: no <release version=...> found")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    message(FATAL_ERROR "${METAINFO}: newest release is ${CMAKE_MATCH_1}, the project is ${VERSION}: add a <release>")
endif()
message(STATUS "newest release ${CMAKE_MATCH_1} = project version")
