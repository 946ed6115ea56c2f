#!/bin/sh
# The multi-host test topology (DEVELOPERS.md, "Multi-host test topology"): a bridge and four network namespaces
# on this machine, made and removed by the test itself; traffic only between the addresses made here.
#   topology.sh up DIR     bridge dbt0 10.231.7.254/24 (the coordinator, root namespace); namespace dbt-srv
#                          10.231.7.1 (slapd); dbt-a1..dbt-a3 10.231.7.11-13, each running its own sshd (own
#                          config, throwaway ed25519 host key, the test's client key authorised, AcceptEnv for
#                          the sanitizer options); DIR/ssh_config names them a1..a3 for `ssh -F`.
#   topology.sh down DIR   kills those sshd (by their pid files) and removes the namespaces and the bridge.
# Run as root. `up` removes what it made when a step fails.
set -eu
cmd=$1
dir=$2
br=dbt0
net=10.231.7
agents="1 2 3"

down() {
    for i in $agents; do
        if [ -f "$dir/a$i/sshd.pid" ]; then
            kill "$(cat "$dir/a$i/sshd.pid")" 2>/dev/null || true
        fi
    done
    # Everything still running inside the namespaces (ssh sessions, agents) would keep them, and their links,
    # alive after `ip netns del`: end those processes first, found by the namespace they are in.
    for ns in dbt-srv dbt-a1 dbt-a2 dbt-a3; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
        # A namespace can outlive its name for a while (sockets closing): its veth goes now, with its peer.
        ip link del "v-$ns" 2>/dev/null || true
    done
    ip link del "$br" 2>/dev/null || true
}

link() { # namespace address
    ns=$1
    ip netns add "$ns"
    ip link add "v-$ns" type veth peer name eth0 netns "$ns"
    ip link set "v-$ns" master "$br" up
    ip -n "$ns" addr add "$2/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
}

sshd_for() { # agent number
    a="$dir/a$1"
    mkdir -p "$a"
    ssh-keygen -q -t ed25519 -N '' -f "$a/host_ed25519"
    cat > "$a/sshd_config" <<CFG
ListenAddress $net.1$1
Port 22
HostKey $a/host_ed25519
AuthorizedKeysFile $dir/client_ed25519.pub
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $a/sshd.pid
AcceptEnv ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
CFG
    ip netns exec "dbt-a$1" /usr/sbin/sshd -f "$a/sshd_config" -E "$a/sshd.log"
    echo "$net.1$1 $(cut -d' ' -f1,2 "$a/host_ed25519.pub")" >> "$dir/known_hosts"
    cat >> "$dir/ssh_config" <<CFG
Host a$1
    HostName $net.1$1
    User root
    IdentityFile $dir/client_ed25519
    IdentitiesOnly yes
    UserKnownHostsFile $dir/known_hosts
    StrictHostKeyChecking yes
    BatchMode yes
    ConnectTimeout 5
    SendEnv ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
CFG
}

case $cmd in
up)
    down # what a run killed before its own `down` may have left (the same fixed names)
    trap 'down' EXIT
    mkdir -p "$dir" /run/sshd
    : > "$dir/known_hosts"
    : > "$dir/ssh_config"
    ssh-keygen -q -t ed25519 -N '' -f "$dir/client_ed25519"
    ip link add "$br" type bridge
    ip addr add "$net.254/24" dev "$br"
    ip link set "$br" up
    link dbt-srv "$net.1"
    for i in $agents; do
        link "dbt-a$i" "$net.1$i"
    done
    for i in $agents; do
        sshd_for "$i"
    done
    trap - EXIT
    ;;
down)
    down
    ;;
*)
    echo "usage: topology.sh up|down DIR" >&2
    exit 2
    ;;
esac
