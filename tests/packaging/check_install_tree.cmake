# Installs the build into an empty prefix (what the .deb will hold) and checks that every file the package
# promises lands where Debian and the desktop look for it, then lets appstreamcli validate the tree as a whole
# (the metainfo's launchable must name an installed .desktop file).
# cmake -DBUILD_DIR=dir -DTREE=dir -DAPP_ID=id -DGUI=ON|OFF -P check_install_tree.cmake
file(REMOVE_RECURSE ${TREE})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${TREE}/usr
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD_DIR} failed (${rc}): ${err}")
endif()

set(expected
    bin/dirbench-cli
    share/man/man1/dirbench-cli.1.gz
    share/doc/dirbench/copyright
    share/doc/dirbench/changelog.gz
    share/doc/dirbench/README.md
    share/doc/dirbench/docs/records.md
    share/doc/dirbench/docs/screenshots/disk-page.png
    share/dirbench/catalog/cloud-disks.json)
if(GUI)
    list(APPEND expected
        bin/dirbench
        share/man/man1/dirbench.1.gz
        share/applications/${APP_ID}.desktop
        share/metainfo/${APP_ID}.metainfo.xml
        share/mime/packages/${APP_ID}.xml
        share/icons/hicolor/scalable/apps/${APP_ID}.svg
        share/doc/dirbench/README.html
        share/doc/dirbench/docs/window.html)
    foreach(size 16 32 48 64 128 256)
        list(APPEND expected share/icons/hicolor/${size}x${size}/apps/${APP_ID}.png)
    endforeach()
endif()
set(missing)
foreach(f IN LISTS expected)
    if(NOT EXISTS ${TREE}/usr/${f})
        list(APPEND missing ${f})
    endif()
endforeach()
if(missing)
    list(JOIN missing "\n  " text)
    file(GLOB_RECURSE installed RELATIVE ${TREE}/usr ${TREE}/usr/*)
    list(JOIN installed "\n  " have)
    message(FATAL_ERROR "not installed under usr/:\n  ${text}\ninstalled:\n  ${have}")
endif()

if(GUI)
    find_program(appstreamcli appstreamcli NO_CACHE)
    if(NOT appstreamcli)
        message(FATAL_ERROR
            "appstreamcli is not installed: apt-get install appstream (scripts/deps.sh --test installs it)")
    endif()
    execute_process(COMMAND ${appstreamcli} validate-tree --no-net ${TREE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
        ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "appstreamcli validate-tree --no-net ${TREE} exited with ${rc}:\n${out}${err}")
    endif()
endif()
list(LENGTH expected count)
message(STATUS "all ${count} files the package promises are installed; the tree validates")
