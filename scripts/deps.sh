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
  fonts-dejavu-core
  slapd ldap-utils openssl
)
# Only the test suite and the benchmarks need these.
# 389-ds-base: the 389 Directory Server sandbox behind the entry-cache curve tests (started with ns-slapd
# directly; its systemd and python dependencies are installed but not used).
DIRBENCH_TEST_PKGS=(xvfb xauth poppler-utils util-linux 389-ds-base)
# The packaging checks: desktop entry, AppStream metadata, man pages.
DIRBENCH_TEST_PKGS+=(desktop-file-utils appstream groff-base)
# Only building the .deb (scripts/package.sh) needs these: CPack finds ELF files with file(1) and computes the
# library dependencies with dpkg-shlibdeps (dpkg-dev).
DIRBENCH_PACKAGE_PKGS=(dpkg-dev file)
# Only the fuzz targets (tests/fuzz, scripts/fuzz.sh) need these: clang 14 with libFuzzer and its sanitizers.
DIRBENCH_FUZZ_PKGS=(clang-14 libclang-rt-14-dev)

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
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  dirbench_install "${DIRBENCH_PKGS[@]}"
  [ "${1:-}" = "--test" ] && dirbench_install "${DIRBENCH_TEST_PKGS[@]}"
fi
