# CPack: one Debian package, "dirbench", holding everything the install() rules put under the prefix
# (packaging/CMakeLists.txt and app/CMakeLists.txt). Build it with scripts/package.sh, or: cpack -G DEB.
# Library dependencies are computed by dpkg-shlibdeps (package dpkg-dev) from the installed binaries; the programs
# DirBench runs (slapd, ldapsearch, fio, openssl, 389-ds-base's ns-slapd) are optional: Recommends and Suggests.
set(CPACK_PACKAGE_NAME dirbench)
set(CPACK_PACKAGE_VENDOR "DirBench")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "DirBench maintainers <maintainers@users.noreply.a-seed-4b2aa12a.example>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/dirbench/dirbench")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "directory-service (LDAP) performance workbench")
# Lines of at most 80 characters (Debian policy 3.4.1); CPack indents them for the control file.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
    "DirBench tests the disk a directory server lives on (random reads, commit"
    "latency, sustained writes and the classic dd test), probes and loads LDAP"
    "servers (OpenLDAP, 389 Directory Server, eDirectory, Active Directory) with"
    "latency percentiles and the server's own counters, sizes RAM and entry"
    "caches, and exports PDF reports."
    "."
    "The package holds the Qt GUI (dirbench) and the headless command-line tool"
    "(dirbench-cli).")
set(CPACK_PACKAGE_INSTALL_DIRECTORY dirbench)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # dirbench_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# sqlite driver: a Qt plugin, loaded at run time, so dpkg-shlibdeps cannot see it; the history needs it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")
# openssl makes the sandbox's certificate (sandbox start --tls).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "slapd, ldap-utils, fio, openssl")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "389-ds-base")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")
include(CPack)
