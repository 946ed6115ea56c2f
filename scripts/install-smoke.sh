#!/usr/bin/env bash
# Installs a dirbench .deb on this machine (dpkg -i, then apt-get -f install for missing dependencies) and runs
# the installed programs from /usr/bin: --version, a short disk test, and a 3-second search load against a
# sandbox slapd. Exits non-zero, naming the step, on the first failure; removes what it created (not the package).
# Usage (as root): scripts/install-smoke.sh path/to/dirbench_VERSION_ARCH.deb
set -euo pipefail
deb=${1:?usage: scripts/install-smoke.sh path/to/dirbench_VERSION_ARCH.deb}
fail() { echo "install-smoke: FAILED: $*" >&2; exit 1; }
step() { echo "install-smoke: $*" >&2; }
[ -f "$deb" ] || fail "no such file: $deb"
[ "$(id -u)" -eq 0 ] || fail "must run as root (it installs the package)"
export DEBIAN_FRONTEND=noninteractive

step "dpkg -i $deb"
# dpkg leaves the package unconfigured when a dependency is missing; apt-get -f install then brings it in.
dpkg -i "$deb" || step "dpkg -i reported missing dependencies; apt-get -f install resolves them"
apt-get -f install -y --no-install-recommends -o DPkg::Lock::Timeout=300 || fail "apt-get -f install"
status=$(dpkg-query -W -f='${Status}' dirbench 2>/dev/null || true)
[ "$status" = "install ok installed" ] || fail "dpkg says dirbench is '$status', not 'install ok installed'"

cli=/usr/bin/dirbench-cli
for bin in /usr/bin/dirbench-cli /usr/bin/dirbench; do
  [ -x "$bin" ] || fail "$bin is not installed"
  missing=$(ldd "$bin" | grep 'not found' || true)
  [ -z "$missing" ] || fail "$bin: libraries the package's dependencies did not bring in:
$missing"
done

step "dirbench-cli --version"
pkg_version=$(dpkg-query -W -f='${Version}' dirbench)
version=$("$cli" --version) || fail "dirbench-cli --version exited with $?"
[ "$version" = "dirbench-cli $pkg_version" ] ||
  fail "dirbench-cli --version printed '$version', the package is $pkg_version"
step "dirbench --version (the GUI program; no display needed)"
gui_version=$(/usr/bin/dirbench --version) || fail "dirbench --version exited with $?"
[ "$gui_version" = "dirbench $pkg_version" ] ||
  fail "dirbench --version printed '$gui_version', the package is $pkg_version"

work=$(mktemp -d /var/tmp/dirbench-smoke.XXXXXX)
sandbox_dir=""
cleanup() {
  if [ -n "$sandbox_dir" ]; then "$cli" sandbox stop --dir "$sandbox_dir" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step "dirbench-cli disk --profile seq-write (64 MiB, 2 s) in $work"
mkdir "$work/disk"
"$cli" disk --profile seq-write --dir "$work/disk" --size 64M --duration 2 --no-history --quiet \
  --json "$work/disk.json" || fail "disk test exited with $?"
grep -q '"status": *"ok"' "$work/disk.json" || fail "disk record's status is not ok: $(head -c 600 "$work/disk.json")"
[ -z "$(ls -A "$work/disk")" ] || fail "disk test left files behind: $(ls -A "$work/disk")"

step "dirbench-cli sandbox start --entries 1000"
"$cli" sandbox start --entries 1000 --dir "$work" >"$work/sandbox.env" || fail "sandbox start exited with $?"
sandbox_dir=$(sed -n 's/^DIR=//p' "$work/sandbox.env")
uri=$(sed -n 's/^URI=//p' "$work/sandbox.env")
bind_dn=$(sed -n 's/^BIND_DN=//p' "$work/sandbox.env")
password_file=$(sed -n 's/^PASSWORD_FILE=//p' "$work/sandbox.env")
people=$(sed -n 's/^PEOPLE_BASE=//p' "$work/sandbox.env")
[ -n "$sandbox_dir" ] && [ -n "$uri" ] || fail "sandbox start printed no DIR= or URI=: $(cat "$work/sandbox.env")"

step "dirbench-cli ldap search --duration 3 against $uri"
"$cli" ldap search --uri "$uri" --bind-dn "$bind_dn" --password-file "$password_file" --base "$people" \
  --filter 'uid=user[0-999]' --attrs 1.1 --duration 3 --no-history --quiet --json "$work/search.json" \
  || fail "ldap search exited with $?"
grep -q '"status": *"ok"' "$work/search.json" ||
  fail "search record's status is not ok: $(head -c 600 "$work/search.json")"

step "dirbench-cli sandbox stop"
"$cli" sandbox stop --dir "$sandbox_dir" >/dev/null || fail "sandbox stop exited with $?"
[ ! -e "$sandbox_dir" ] || fail "sandbox stop left $sandbox_dir behind"
sandbox_dir=""
step "passed: $deb installed, dirbench-cli $pkg_version ran a disk test and a search load"
