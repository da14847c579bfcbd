#!/usr/bin/env bash
# A private, real Slurm (Debian's slurmctld/slurmd/munge, 22.05) on emulated nodes of this machine, for the
# tests that run fthp-run as a batch job. Needs root. Nothing goes under /etc/slurm or /etc/munge,
# and no system service is touched.
#
#   scripts/slurm-cluster.sh up N DIR [ID]   # nodes n1..nN (N <= 4); prints ID; DIR holds everything it makes
#   scripts/slurm-cluster.sh env DIR         # prints the variables a Slurm client needs (SLURM_CONF=...)
#   scripts/slurm-cluster.sh exec DIR NODE CMD...  # runs CMD on node NODE (its network, hostname, /tmp)
#   scripts/slurm-cluster.sh crash DIR NODE  # SIGKILLs everything on NODE (its slurmd too): a node failure
#   scripts/slurm-cluster.sh restart DIR NODE  # NODE back: its slurmd again, and resumed in Slurm
#   scripts/slurm-cluster.sh down DIR        # cancels the jobs, stops the daemons, removes nodes and DIR
#
# Layout of DIR (every daemon's files under it; a test's own directory):
#   slurm.conf                    SLURM_CONF for the daemons and the clients (ClusterName fthp, ports 16817/8)
#   munge/                        munged's key, socket, pid and log (AuthInfo=socket=... in slurm.conf)
#   ctld/ nK/ log/                slurmctld's state, each slurmd's spool and pid, every log
#   hosts                         /etc/hosts of every node (bind-mounted there): the nodes' names resolve
#   tmp/nK                        node nK's own /tmp, as cluster nodes have node-local /tmp (not when DIR or the
#                                 repository is under /tmp: the nodes would not see them; they share /tmp then)
#   state                         ID, bridge, namespaces: what down removes (never anything by pattern)
# Each node is a network namespace sl-ID-nK (eth0 10.231.0.1K/24 on bridge slb-ID, 10.231.0.1 in the root
# namespace, where slurmctld and the clients run) with slurmd in it under its own hostname (UTS namespace) and
# mount namespace (its /etc/hosts and /tmp). nsenter --net, not ip netns exec: the latter remounts /sys and
# hides the cgroup file system slurmd looks for. proctrack/linuxproc, task/none: no cgroups needed.
set -euo pipefail

SUBNET_PREFIX=10.231.0
MAX_NODES=4
SLURMCTLD_PORT=16817
SLURMD_PORT=16818

die() { echo "slurm-cluster: $*" >&2; exit 1; }

state_of() { [[ -f "$1/state" ]] || die "no cluster in $1 ($1/state missing)"; }

cmd_up() {
  local n=${1:-} dir=${2:-} id=${3:-$$}
  [[ "$n" =~ ^[0-9]+$ ]] && (( n >= 1 && n <= MAX_NODES )) || die "up: N must be 1..$MAX_NODES (got '$n')"
  [[ -n "$dir" ]] || die "up: give the directory"
  [[ "$id" =~ ^[A-Za-z0-9]{1,8}$ ]] || die "up: ID must be 1-8 letters or digits (got '$id')"
  [[ "$(id -u)" -eq 0 ]] || die "up: needs root (namespaces, slurmd)"
  for tool in slurmctld slurmd sbatch munged mungekey; do
    command -v "$tool" >/dev/null || die "up: $tool is missing (scripts/setup.sh installs Slurm and munge)"
  done
  local bridge="slb-$id"
  ! ip link show "$bridge" >/dev/null 2>&1 || die "up: bridge $bridge exists already"
  ! ip -o addr show | grep -q " $SUBNET_PREFIX.1/" || die "up: $SUBNET_PREFIX.1 is in use (another cluster up?)"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [[ ! -e "$dir/state" ]] || die "up: $dir holds a cluster already"
  mkdir -p "$dir"/{munge,ctld,log,tmp}
  chmod 700 "$dir/munge"
  {
    echo "id $id"
    echo "bridge $bridge"
  } > "$dir/state"
  trap 'echo "slurm-cluster: up failed; removing what it made" >&2; cmd_down "$dir"' ERR

  mungekey -c -k "$dir/munge/munge.key" -b 1024 >/dev/null 2>&1
  chmod 600 "$dir/munge/munge.key"
  munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" --force

  ip link add "$bridge" type bridge
  ip addr add "$SUBNET_PREFIX.1/24" dev "$bridge"
  ip link set "$bridge" up
  local ctl
  ctl=$(hostname)
  {
    echo "127.0.0.1 localhost"
    echo "$SUBNET_PREFIX.1 $ctl"
    for ((k = 1; k <= n; k++)); do echo "$SUBNET_PREFIX.1$k n$k"; done
  } > "$dir/hosts"
  local k ns nodes=""
  for ((k = 1; k <= n; k++)); do
    ns="sl-$id-n$k"
    ip netns add "$ns"
    echo "ns $ns" >> "$dir/state"
    ip link add "slv$id$k" type veth peer name eth0 netns "$ns"
    ip link set "slv$id$k" master "$bridge" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "$SUBNET_PREFIX.1$k/24" dev eth0
    ip -n "$ns" link set eth0 up
    mkdir -p "$dir/n$k" && mkdir -m 1777 "$dir/tmp/n$k"
    nodes+="${nodes:+,}n$k"
  done

  cat > "$dir/slurm.conf" <<EOF
ClusterName=fthp
SlurmctldHost=$ctl($SUBNET_PREFIX.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/%n
SlurmctldPidFile=$dir/ctld/slurmctld.pid
SlurmdPidFile=$dir/%n/slurmd.pid
SlurmctldLogFile=$dir/log/ctld.log
SlurmdLogFile=$dir/log/%n.log
SlurmctldPort=$SLURMCTLD_PORT
SlurmdPort=$SLURMD_PORT
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=10
MessageTimeout=5
KillWait=5
MinJobAge=30
InactiveLimit=0
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobRequeue=1
PrologFlags=NoHold
EOF
  for ((k = 1; k <= n; k++)); do
    echo "NodeName=n$k NodeAddr=$SUBNET_PREFIX.1$k CPUs=2 RealMemory=1000" >> "$dir/slurm.conf"
  done
  echo "PartitionName=ci Nodes=$nodes Default=YES MaxTime=30 State=UP OverSubscribe=YES" >> "$dir/slurm.conf"

  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF"
  for ((k = 1; k <= n; k++)); do
    on_node "$dir" "n$k" slurmd -N "n$k" -f "$SLURM_CONF"
  done
  # every node idle, within a minute
  local deadline=$((SECONDS + 60)) idle=0
  while (( SECONDS < deadline )); do
    idle=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle"' | wc -l)
    (( idle == n )) && break
    sleep 0.5
  done
  (( idle == n )) || { sinfo -N >&2 || true; false; }
  trap - ERR
  echo "$id"
}

# Runs "$3..." on node $2 of cluster $1: its network, its hostname, its /etc/hosts and /tmp.
on_node() {
  local dir=$1 node=$2
  shift 2
  local id ns
  id=$(awk '$1 == "id" {print $2}' "$dir/state")
  ns="sl-$id-$node"
  [[ -e "/var/run/netns/$ns" ]] || die "no node $node in $dir"
  local own_tmp=1 repo
  repo=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
  [[ "$dir/" == /tmp/* || "$repo/" == /tmp/* ]] && own_tmp=0
  nsenter --net="/var/run/netns/$ns" unshare --uts --mount --propagation private /bin/sh -c \
    'hostname "$1" && mount --bind "$2/hosts" /etc/hosts && { [ "$3" = 0 ] || mount --bind "$2/tmp/$1" /tmp; } &&
     shift 3 && exec "$@"' \
    sh "$node" "$dir" "$own_tmp" "$@"
}

cmd_env() {
  local dir=${1:-}
  state_of "$dir"
  echo "SLURM_CONF=$(cd "$dir" && pwd)/slurm.conf"
}

cmd_exec() {
  local dir=${1:-} node=${2:-}
  state_of "$dir"
  shift 2
  export SLURM_CONF="$dir/slurm.conf"
  on_node "$dir" "$node" "$@"
}

# SIGKILLs every process in namespace $1 until none is left (a dying parent may still fork).
kill_namespace() {
  local ns=$1 round pids
  for round in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [[ -n "$pids" ]] || return 0
    kill -9 $pids 2>/dev/null || true
    sleep 0.1
  done
  echo "slurm-cluster: still running in $ns: $(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')" >&2
}

cmd_crash() {
  local dir=${1:-} node=${2:-}
  state_of "$dir"
  local id
  id=$(awk '$1 == "id" {print $2}' "$dir/state")
  [[ -e "/var/run/netns/sl-$id-$node" ]] || die "no node $node in $dir"
  kill_namespace "sl-$id-$node"
}

cmd_restart() {
  local dir=${1:-} node=${2:-}
  state_of "$dir"
  dir=$(cd "$dir" && pwd)
  export SLURM_CONF="$dir/slurm.conf"
  local id
  id=$(awk '$1 == "id" {print $2}' "$dir/state")
  [[ -e "/var/run/netns/sl-$id-$node" ]] || die "no node $node in $dir"
  kill_namespace "sl-$id-$node"
  on_node "$dir" "$node" slurmd -N "$node" -f "$SLURM_CONF"
  local deadline=$((SECONDS + 30)) state=""
  while (( SECONDS < deadline )); do
    scontrol update nodename="$node" state=resume >/dev/null 2>&1 || true
    state=$(sinfo -h -N -n "$node" -o '%t' 2>/dev/null || true)
    [[ "$state" == idle || "$state" == mix || "$state" == alloc ]] && return 0
    sleep 0.5
  done
  die "restart: $node is $state, not idle"
}

kill_pidfile() {
  local file=$1 pid
  [[ -f "$file" ]] || return 0
  pid=$(cat "$file")
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

cmd_down() {
  local dir=${1:-}
  state_of "$dir"
  dir=$(cd "$dir" && pwd)
  export SLURM_CONF="$dir/slurm.conf"
  if [[ -f "$dir/ctld/slurmctld.pid" ]]; then
    timeout 10 scancel --full --quiet --user=root 2>/dev/null || true
  fi
  local ns
  for ns in $(awk '$1 == "ns" {print $2}' "$dir/state" | tac); do
    # slurmd and whatever the jobs left on the node
    kill_namespace "$ns"
    ip netns del "$ns" 2>/dev/null || true
  done
  kill_pidfile "$dir/ctld/slurmctld.pid"
  kill_pidfile "$dir/munge/munged.pid"
  local bridge
  bridge=$(awk '$1 == "bridge" {print $2}' "$dir/state")
  [[ -z "$bridge" ]] || ip link del "$bridge" 2>/dev/null || true
  rm -rf "$dir"
}

case "${1:-}" in
  up) shift; cmd_up "$@" ;;
  env) shift; cmd_env "$@" ;;
  exec) shift; cmd_exec "$@" ;;
  crash) shift; cmd_crash "$@" ;;
  restart) shift; cmd_restart "$@" ;;
  down) shift; cmd_down "$@" ;;
  *) die "usage: $0 up N DIR [ID] | env DIR | exec DIR NODE CMD... | crash DIR NODE | restart DIR NODE | down DIR" ;;
esac
