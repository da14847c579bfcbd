#!/usr/bin/env bash
# Emulated hosts: 2 to 4 "hosts" as Linux network namespaces on one machine, for multi-host MPI jobs
# without a cluster. Needs root (ip netns).
#
#   scripts/emulated-hosts.sh up N [ID]         # makes hosts h0..h(N-1); prints ID (default: this pid)
#   scripts/emulated-hosts.sh exec ID HOST CMD  # runs CMD on emulated host HOST (h0.., or its address)
#   scripts/emulated-hosts.sh agent ID          # prints the path of the run's Open MPI remote agent
#   scripts/emulated-hosts.sh kill ID HOST      # SIGKILLs every process on HOST (a host crash)
#   scripts/emulated-hosts.sh cut ID HOST       # takes HOST's switch port down (a partition) ...
#   scripts/emulated-hosts.sh mend ID HOST      # ... and up again
#   scripts/emulated-hosts.sh down ID           # kills what runs on those hosts, removes them
#
# Layout of run ID (every name carries the ID, so parallel runs never meet):
#   namespace fthp-ID-sw        the "switch": a bridge br0, one veth port per host; no address
#   namespace fthp-ID-hK        host hK: lo up, eth0 = 10.213.0.(K+1)/24 on the switch
#   /etc/netns/fthp-ID-hK/hosts the names h0..h(N-1) (ip netns exec binds it over /etc/hosts)
#   $FTHP_HOSTS_STATE/ID/       namespaces (what down removes), hosts (name namespace address),
#                               agent (the plm_rsh_agent script), tmp/hK (host hK's /tmp)
# Every command on a host (`exec`, and the agent for Open MPI) runs with the host's own hostname
# (a UTS namespace), so Open MPI names processors after h0, h1, ..., and with the host's own /tmp
# (a bind mount in the mount namespace ip netns exec makes), as cluster nodes have node-local /tmp:
# a path under /tmp that one host made does not exist on another (session directories, fthp-run's
# job directory, report pipes). Everything else (the repository, the JDK, /dev/shm) is shared, as a
# cluster's shared file system would be. The state lives outside /tmp so the hosts see the agent.
# A shared path that lies under /tmp (a checkout in /tmp/x, or what FTHP_HOSTS_SHARE names, colon-separated)
# would be hidden by the host's own /tmp: it is bound into every host's /tmp at the same path (listed in
# the run's state as `shared`), so bin/fthp-run and the built jars are where they are outside the hosts.
#
# mpirun runs inside h0 (`exec ID h0 mpirun ...`): the root namespace gets no interface and no
# address, and the launching host is one of the job's hosts, as on a cluster's first node.
#   scripts/emulated-hosts.sh exec ID h0 mpirun --mca plm_rsh_agent "$(scripts/emulated-hosts.sh agent ID)" \
#       --host h0:2,h1:2 -np 4 ./a.out
#
# down removes only the namespaces listed in the run's state (never by pattern), after killing the
# processes inside them (`ip netns pids`: by namespace membership, so only what ran on those hosts).
set -euo pipefail

SUBNET_PREFIX=10.213.0
STATE_ROOT="${FTHP_HOSTS_STATE:-/run/fthp-hosts}"
MAX_HOSTS=4

die() { echo "emulated-hosts: $*" >&2; exit 1; }

ns_name() { echo "fthp-$1-$2"; }

# The shared paths under /tmp, one per line: this checkout (found from the script's own place) and those
# FTHP_HOSTS_SHARE names; each resolved, each once, none that another one contains.
shared_under_tmp() {
  local here p list=()
  here="$(readlink -f "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/..")"
  IFS=: read -r -a list <<< "${FTHP_HOSTS_SHARE:-}"
  for p in "$here" "${list[@]}"; do
    [[ -n "$p" && -d "$p" ]] || continue
    p="$(readlink -f "$p")"
    if [[ "$p" == /tmp/?* ]]; then echo "$p"; fi
  done | sort -u | awk 'NR == 1 || index($0, last "/") != 1 { print; last = $0 }'
}

# Becomes host "$1" with /tmp on "$2" and the shared paths listed in file "$3" bound into it, then runs the
# rest; used after `ip netns exec NS unshare --uts`, which put us in the host's network and a mount namespace
# of our own (made private first: nothing mounted here may reach the machine's namespace).
BECOME_HOST='hostname "$1" && mount --make-rprivate / &&
  while IFS= read -r p; do mount --bind "$p" "$2/${p#/tmp/}" || exit 1; done < "$3" &&
  mount --rbind "$2" /tmp'
# As BECOME_HOST, then runs "$4" with sh -c (as sshd runs a remote command).
ON_HOST="$BECOME_HOST"' && exec /bin/sh -c "$4"'

# The remote agent Open MPI runs as `agent HOST word...` (ssh's convention: the words make one shell
# command, quoted for a remote shell). It runs that command on HOST.
write_agent() {
  local id=$1 n=$2 state=$3 k cases=""
  for ((k = 0; k < n; k++)); do
    cases+="  h$k|$SUBNET_PREFIX.$((k + 1))) ns=$(ns_name "$id" "h$k"); name=h$k ;;"$'\n'
  done
  cat > "$state/agent" <<EOF
#!/bin/sh
# plm_rsh_agent for emulated hosts run $id (made by scripts/emulated-hosts.sh; removed by down)
host="\$1"
shift
case "\$host" in
$cases  *) echo "emulated-hosts agent: no emulated host \$host in run $id" >&2; exit 255 ;;
esac
exec ip netns exec "\$ns" unshare --uts /bin/sh -c '$ON_HOST' sh "\$name" "$state/tmp/\$name" "$state/shared" "\$*"
EOF
  chmod 755 "$state/agent"
}

cmd_up() {
  local n=${1:-}
  local id=${2:-$$}
  [[ "$n" =~ ^[0-9]+$ ]] && (( n >= 1 && n <= MAX_HOSTS )) || die "up: N must be 1..$MAX_HOSTS (got '$n')"
  [[ "$id" =~ ^[A-Za-z0-9]{1,24}$ ]] || die "up: ID must be 1-24 letters or digits (got '$id')"
  [[ "$(id -u)" -eq 0 ]] || die "up: needs root (ip netns add)"
  local state="$STATE_ROOT/$id"
  mkdir -p "$STATE_ROOT"
  mkdir "$state" 2>/dev/null || die "up: run $id exists already ($state)"
  chmod 700 "$state"
  : > "$state/namespaces"
  : > "$state/hosts"
  mkdir "$state/tmp"
  # a failure half way leaves a state that down removes exactly
  trap 'echo "emulated-hosts: up failed; removing run $id" >&2; cmd_down "$id"' ERR
  shared_under_tmp > "$state/shared"

  local sw
  sw=$(ns_name "$id" sw)
  ip netns add "$sw"
  echo "$sw" >> "$state/namespaces"
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up

  local k ns addr hosts_file
  hosts_file=$(mktemp)
  {
    echo "127.0.0.1 localhost"
    for ((k = 0; k < n; k++)); do echo "$SUBNET_PREFIX.$((k + 1)) h$k"; done
  } > "$hosts_file"
  for ((k = 0; k < n; k++)); do
    ns=$(ns_name "$id" "h$k")
    addr="$SUBNET_PREFIX.$((k + 1))"
    ip netns add "$ns"
    echo "$ns" >> "$state/namespaces"
    mkdir -m 1777 "$state/tmp/h$k"
    # the mount points of the shared paths (empty directories outside the hosts)
    while IFS= read -r p; do mkdir -p "$state/tmp/h$k/${p#/tmp/}"; done < "$state/shared"
    mkdir -p "/etc/netns/$ns"
    cp "$hosts_file" "/etc/netns/$ns/hosts"
    # created inside the switch namespace, the host end moved into its namespace: no interface
    # ever exists in the root namespace, so names cannot clash with another run's
    ip -n "$sw" link add "p$k" type veth peer name eth0 netns "$ns"
    ip -n "$sw" link set "p$k" master br0
    ip -n "$sw" link set "p$k" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    echo "h$k $ns $addr" >> "$state/hosts"
  done
  rm -f "$hosts_file"
  write_agent "$id" "$n" "$state"
  trap - ERR
  echo "$id"
}

cmd_down() {
  local id=${1:-}
  [[ "$id" =~ ^[A-Za-z0-9]{1,24}$ ]] || die "down: ID must be 1-24 letters or digits (got '$id')"
  local state="$STATE_ROOT/$id"
  [[ -f "$state/namespaces" ]] || die "down: no run $id ($state/namespaces missing)"
  local ns
  # hosts first, the switch last (reverse order of creation)
  for ns in $(tac "$state/namespaces"); do
    # a namespace lives on while a process is inside it: kill what runs on the host first
    kill_namespace "$ns"
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
  rm -rf "$state"
}

host_namespace() {
  local id=$1 host=$2 name ns addr
  [[ -f "$STATE_ROOT/$id/hosts" ]] || die "no run $id"
  while read -r name ns addr; do
    if [[ "$host" == "$name" || "$host" == "$addr" ]]; then
      echo "$ns $name"
      return 0
    fi
  done < "$STATE_ROOT/$id/hosts"
  die "no emulated host $host in run $id"
}

# SIGKILLs every process in namespace $1 until none is left (a few rounds: a dying parent may still
# fork); prints what stays.
kill_namespace() {
  local ns=$1 pids tries
  for tries in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [[ -z "$pids" ]] && return 0
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    sleep 0.1
  done
  pids=$(ip netns pids "$ns" 2>/dev/null || true)
  [[ -z "$pids" ]] || echo "emulated-hosts: processes still in $ns: $pids" >&2
}

# Sets host $2's port on the switch of run $1 down or up ($3): its packets are dropped, as with a
# pulled cable; open connections see nothing until their timeouts.
set_port() {
  local id=$1 host=$2 state=$3 ns name
  read -r ns name < <(host_namespace "$id" "$host")
  ip -n "$(ns_name "$id" sw)" link set "p${name#h}" "$state"
}

cmd_exec() {
  local id=${1:-} host=${2:-}
  shift 2 || die "exec: ID HOST CMD..."
  (( $# > 0 )) || die "exec: no command"
  local ns name
  read -r ns name < <(host_namespace "$id" "$host")
  # the command's words stay words: "$@" after the host's name and /tmp
  exec ip netns exec "$ns" unshare --uts /bin/sh -c "$BECOME_HOST"' && shift 3 && exec "$@"' \
    sh "$name" "$STATE_ROOT/$id/tmp/$name" "$STATE_ROOT/$id/shared" "$@"
}

case "${1:-}" in
  up) shift; cmd_up "$@" ;;
  down) shift; cmd_down "$@" ;;
  exec) shift; cmd_exec "$@" ;;
  kill) read -r ns _ < <(host_namespace "${2:-}" "${3:-}") && kill_namespace "$ns" ;;
  cut) set_port "${2:-}" "${3:-}" down ;;
  mend) set_port "${2:-}" "${3:-}" up ;;
  agent) [[ -x "$STATE_ROOT/${2:-}/agent" ]] || die "agent: no run '${2:-}'"; echo "$STATE_ROOT/$2/agent" ;;
  *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
