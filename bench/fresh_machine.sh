#!/usr/bin/env bash
# fresh_machine.sh [--test [--warm-cache]] — a newcomer's first minutes, measured on a truly fresh Debian 12.
#
# Makes a minimal Debian 12 (bookworm) tree with debootstrap from the package archive this machine uses, copies a
# clean clone of this repository's HEAD into it, and runs the README's first command, scripts/run.sh, inside it
# (chroot, no display: the headless demo). Prints the time from the start of scripts/run.sh to its first lines
# (packages installed, build done) and to the demo load's first interval line ("t=..."), the figure the README
# promises under 5 minutes. With --test it then runs the README's second command, scripts/test.sh, in the same
# tree, which proves that the two scripts install everything they need (its time is printed; it takes most of an
# hour on 2 cores: a cold ASan build of every test). --warm-cache lends the tree this machine's ccache directory for
# that build (the packages are still installed from nothing; the build's time is then not a cold build's).
#
# Needs root (debootstrap, chroot, mounts). Everything is made under /var/tmp and removed at the end, mounts
# included; the host's packages, servers and files are not touched. Network: the package archive only (apt in the
# tree); the demo's servers listen on 127.0.0.1 inside it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
with_test=0
warm=0
for a in "$@"; do
  case $a in
    --test) with_test=1 ;;
    --warm-cache) warm=1 ;;
    *) echo "fresh_machine: unknown argument '$a' (--test, --warm-cache)" >&2; exit 2 ;;
  esac
done
if [ "$warm" = 1 ] && [ "$with_test" = 0 ]; then
  echo "fresh_machine: --warm-cache applies to --test only (scripts/run.sh's build is always cold)" >&2
  exit 2
fi
[ "$(id -u)" = 0 ] || { echo "fresh_machine: needs root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh_machine: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 2; }
mirror=${MIRROR:-http://deb.debian.org/debian}
root=$(mktemp -d /var/tmp/dirbench-fresh.XXXXXX)
mounts=()
cleanup() {
  local i m
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
  # And what the tests mounted inside the tree (network namespaces under /run/netns), deepest first.
  for m in $(awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

echo "fresh_machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ)"
t=$(now)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 \
  || { tail -20 "$root.debootstrap.log" >&2; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
echo "fresh_machine: debootstrap (minbase) in $(secs "$t" "$(now)") s, $(du -sm "$root" | cut -f1) MB"
# The archive as this machine sees it (updates and security too), the name server, the clone.
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  rm -f "$root/etc/apt/sources.list"
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The tree is a mount of its own, as a machine's / is: the network-namespace tests make / a slave mount
# (mount --make-rslave /), which a plain directory refuses.
mount --bind "$root" "$root"
mounts+=("$root")
for m in proc sys dev dev/pts; do
  case $m in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    dev) mount --bind /dev "$root/dev" ;;
    dev/pts) mount --bind /dev/pts "$root/dev/pts" ;;
  esac
  mounts+=("$root/$m")
done
git clone --quiet --no-hardlinks "$here" "$root/root/dirbench"

# Runs a command in the tree as root's login would, stamping each line with the seconds since it started. With
# STAMP_LINES=1 its output is line-buffered (stdbuf: an LD_PRELOAD, which the ASan test programs refuse).
in_tree() {
  local buf=()
  [ "${STAMP_LINES:-0}" = 1 ] && buf=(stdbuf -oL -eL)
  chroot "$root" env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "${buf[@]}" bash -c "cd /root/dirbench && $1" 2>&1 \
    | awk -v t0="$(date +%s.%N)" '{ "date +%s.%N" | getline n; close("date +%s.%N"); printf "%7.1f %s\n", n - t0, $0; fflush() }'
}

log=$root.run.log
STAMP_LINES=1 in_tree "scripts/run.sh" >"$log" || true
first_cmake=$(awk '$2 ~ /^\[[0-9]+\/[0-9]+\]$/ { print $1; exit }' "$log")
build_done=$(awk '/== dirbench-cli disk/ { print $1; exit }' "$log")
first_interval=$(awk '$2 ~ /^t=/ { print $1; exit }' "$log")
done_at=$(tail -1 "$log" | awk '{ print $1 }')
echo "fresh_machine: scripts/run.sh: packages installed at ${first_cmake:-?} s (first compile line), build done at ${build_done:-?} s, first interval line at ${first_interval:-(none)} s, done at $done_at s"
if [ -z "$first_interval" ]; then
  echo "fresh_machine: scripts/run.sh printed no interval line; its last lines:" >&2
  tail -30 "$log" >&2
  rm -f "$log"
  exit 1
fi
echo "fresh_machine: the demo's first interval line:"
awk '$2 ~ /^t=/ { print "  " $0; exit }' "$log"
rm -f "$log"

if [ "$with_test" = 1 ]; then
  log=$root.test.log
  rc=0
  if [ "$warm" = 1 ] && command -v ccache >/dev/null; then
    mkdir -p "$root/root/.cache/ccache"
    mount --bind "$(ccache -k cache_dir)" "$root/root/.cache/ccache"
    mounts+=("$root/root/.cache/ccache")
    echo "fresh_machine: scripts/test.sh builds with this machine's ccache ($(ccache -k cache_dir))"
  fi
  in_tree "scripts/test.sh" >"$log" || rc=$?
  grep -E "^ *[0-9.]+ test: .*(build done|done at)" "$log" | sed 's/^/  /' || true
  echo "fresh_machine: scripts/test.sh finished at $(tail -1 "$log" | awk '{ print $1 }') s, exit $rc"
  if [ "$rc" != 0 ]; then
    grep -E "\*\*\*Failed|Timeout|FAIL!" "$log" | head -40 >&2 || true
    cp "$log" /var/tmp/dirbench-fresh-test.log && echo "fresh_machine: the whole output: /var/tmp/dirbench-fresh-test.log" >&2
  fi
  rm -f "$log"
  exit "$rc"
fi
