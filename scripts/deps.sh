#!/usr/bin/env bash
# Installs what DirBench needs to build, run and test on Debian 12, only what is missing (idempotent, quick
# when nothing is). Sourced or run by run.sh, test.sh and .ci/run. Needs root or sudo when something is missing.
set -euo pipefail

# slapd, ldap-utils and openssl: the demo directory runs a private slapd (never the system's one, which the
# package may configure but DirBench never touches) with a certificate made by openssl.
DIRBENCH_PKGS=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev libqt6sql6-sqlite qt6-svg-dev qt6-pdf-dev
  libldap-dev liburing-dev qtkeychain-qt6-dev
  zlib1g-dev
  fonts-dejavu-core
  slapd ldap-utils openssl
)
# Only the test suite and the benchmarks need these.
# 389-ds-base: the 389 Directory Server sandbox behind the entry-cache curve tests (started with ns-slapd
# directly; its systemd and python dependencies are installed but not used).
DIRBENCH_TEST_PKGS=(xvfb xauth poppler-utils util-linux 389-ds-base)
# tst_blockdevices: a btrfs image mounted with compress-force (mkfs.btrfs); dmsetup for a device-mapper layer.
DIRBENCH_TEST_PKGS+=(btrfs-progs dmsetup)
# tst_agents' multi-host test: network namespaces (iproute2), an sshd in each (openssh-server, started by the test
# with its own config and keys, never the system's), hosts from an Ansible inventory (ansible-core); the playbook's
# apt task needs python3-apt on the hosts (without it, check mode reports nothing to change).
DIRBENCH_TEST_PKGS+=(iproute2 openssh-server openssh-client ansible-core python3-apt)
# The packaging checks: desktop entry, AppStream metadata, man pages; the MIME types (update-mime-database).
DIRBENCH_TEST_PKGS+=(desktop-file-utils appstream groff-base shared-mime-info)
# tests/docs/readme_commands.py: the README's command examples run by a python3 script.
DIRBENCH_TEST_PKGS+=(python3)
# libc6-dbg: glibc's symbols, so that the sanitizers name glibc's internal functions in a stack and
# tests/sanitizers/lsan.supp's suppression of glibc's own per-thread dlerror buffer (_dlerror_run) applies.
DIRBENCH_TEST_PKGS+=(libc6-dbg)
# ccache: the compiler launcher of the test, package and fuzz builds (dirbench_ccache below).
DIRBENCH_TEST_PKGS+=(ccache)
# Only building the .deb (scripts/package.sh) needs these: CPack finds ELF files with file(1) and computes the
# library dependencies with dpkg-shlibdeps (dpkg-dev).
DIRBENCH_PACKAGE_PKGS=(dpkg-dev file ccache)
# Only the fuzz targets (tests/fuzz, scripts/fuzz.sh) need these: clang 14 with libFuzzer and its sanitizers.
DIRBENCH_FUZZ_PKGS=(clang-14 libclang-rt-14-dev ccache)

# scripts/run.sh's build: the two programs and what they link, no test (tests/docs/run_plan.sh checks the plan).
# scripts/run.sh's build: no test, and a unity build (sources compiled in batches: about half the time of a cold
# build; the sources whose file-local names clash are listed in the CMakeLists.txt files). It builds the first
# target when it starts the window and the second for the headless demo.
DIRBENCH_RUN_CMAKE_ARGS=(-DCMAKE_BUILD_TYPE=Release -DDIRBENCH_BUILD_TESTS=OFF -DCMAKE_UNITY_BUILD=ON)
DIRBENCH_RUN_TARGETS=(dirbench dirbench-cli)

dirbench_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; return 1; }
    sudo=(sudo)
  fi
  echo "deps: installing ${missing[*]}" >&2
  # No service a package brings (slapd, ns-slapd, sshd) is started by its installation: the tests and the demo
  # run their own, on their own ports. policy-rc.d (101: "action forbidden") says so to invoke-rc.d, for the
  # install only, unless the machine already has one.
  local policy=/usr/sbin/policy-rc.d made=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null && "${sudo[@]}" chmod 755 "$policy" && made=1
  fi
  local rc=0
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || rc=$?
  [ "$rc" = 0 ] && { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null || rc=$?; }
  [ -n "$made" ] && "${sudo[@]}" rm -f "$policy"
  return "$rc"
}

# ccache for a build in BUILD_DIR (the argument), when installed: sets DIRBENCH_LAUNCHER to the cmake argument that
# makes it the compiler launcher (or removes it). Paths are hashed relative to the repository root and the working
# directory is not hashed, so clones in different folders share hits (the debug info's compilation directory is
# then the first clone's). The cache is ccache's own (CCACHE_DIR, by default ~/.cache/ccache): it outlives the
# clone. The build's hits and misses are logged to BUILD_DIR/ccache-stats.log. CCACHE_DISABLE=1 turns it off.
dirbench_ccache() {
  DIRBENCH_LAUNCHER=-DCMAKE_CXX_COMPILER_LAUNCHER=
  unset CCACHE_STATSLOG
  command -v ccache >/dev/null || return 0
  mkdir -p "$1"
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd -P)} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  # The precompiled headers (DIRBENCH_PCH) are cacheable only with these (ccache's manual, "Precompiled headers").
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
  export CCACHE_STATSLOG
  CCACHE_STATSLOG="$(cd "$1" && pwd -P)/ccache-stats.log"
  : >"$CCACHE_STATSLOG"
  DIRBENCH_LAUNCHER=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
}

# One line: the hits and misses of the build since dirbench_ccache.
dirbench_ccache_summary() {
  if [ -z "${CCACHE_STATSLOG:-}" ]; then
    echo "no ccache"
    return
  fi
  if [ ! -s "$CCACHE_STATSLOG" ]; then # nothing compiled (ccache 4.7 crashes on an empty log)
    echo "ccache: nothing compiled"
    return
  fi
  ccache --show-log-stats | awk '$1 == "Hits:" { h = $2 } $1 == "Misses:" { m = $2 }
    END { printf "ccache: %d hits, %d misses\n", h, m }'
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  dirbench_install "${DIRBENCH_PKGS[@]}"
  [ "${1:-}" = "--test" ] && dirbench_install "${DIRBENCH_TEST_PKGS[@]}"
fi
