#!/usr/bin/env bash
# A lost host under MPICH's hydra, in C (docs/notes/mpich.md §9): two emulated hosts (scripts/emulated-hosts.sh),
# mpiexec.hydra on h0 with 2 ranks on each host (integration-tests' host_loss.c: the ranks split by host, h0's pass a
# token around their own ring 2000 times, 1 ms apart, and leave without MPI_Finalize; h1's wait), h1 crashed (every
# process on it SIGKILLed) once every rank has split. Each case prints how mpiexec ended: its exit code (or that it
# still ran 8 s after the crash, when it is then sent SIGTERM, as fthp-run does), seconds from the crash to its end,
# how many of h0's ranks finished their ring, the library's and mpiexec's own lines about it, and what was left on h0.
#
#   proxy-launcher/src/test/hydra/hydra-host-loss.sh            the three cases
#   STRACE=1 proxy-launcher/src/test/hydra/hydra-host-loss.sh   also strace -f mpiexec and its local proxy (poll,
#                                                              read, write, close, kill, wait4, exit), in the work dir
# Needs root (network namespaces) and MPICH. Every job has a timeout; the hosts are removed at the end.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
home="$(cd "$here/../../../.." && pwd)"
command -v mpicc.mpich >/dev/null || { echo "hydra-host-loss.sh: MPICH is not installed" >&2; exit 1; }
mkdir -p "$home/proxy-launcher/target"
# not under /tmp: each emulated host has its own
work="$(mktemp -d -p "$home/proxy-launcher/target" host-loss.XXXXXX)"
id="hl$$"
"$home/scripts/emulated-hosts.sh" up 2 "$id" >/dev/null
trap '"$home/scripts/emulated-hosts.sh" down "$id" >/dev/null 2>&1 || true' EXIT
agent="$("$home/scripts/emulated-hosts.sh" agent "$id")"
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$work/libfthp_proxy_hydra.so" "$home/proxy-launcher/native/fthp_proxy_hydra.c" -ldl -lpthread
mpicc.mpich -O1 -o "$work/host_loss" "$home/integration-tests/src/test/resources/org/fthp/it/mpich/host_loss.c"
h1_address=10.213.0.2
echo "work directory: $work"

# run NAME PRELOAD(yes|no) LISTED(yes|no) [VAR=value...]
run() {
  local name=$1 preload=$2 listed=$3; shift 3
  local out="$work/$name.out" err="$work/$name.err" lost="$work/$name.hosts-lost"
  : > "$lost"
  [[ $listed == yes ]] && echo "$h1_address" > "$lost"
  # the launcher script always preloads the library into h1's proxy (it needs it): the cases differ in mpiexec's
  local vars=(FTHP_HYDRA_AGENT="$agent" FTHP_PROXY_REPORT_DIR=/tmp FTHP_PROXY_LIB="$work/libfthp_proxy_hydra.so" "$@")
  [[ $preload == yes ]] && vars+=(LD_PRELOAD="$work/libfthp_proxy_hydra.so" FTHP_PROXY_REPORT="$work/$name.report"
                                  FTHP_HYDRA_LOST_HOSTS="$lost")
  local trace=()
  [[ ${STRACE:-0} == 1 ]] && trace=(strace -f -tt -o "$work/$name.strace" -e trace=poll,read,write,close,kill,wait4,exit_group)
  "$home/scripts/emulated-hosts.sh" exec "$id" h0 env "${vars[@]}" timeout 60 "${trace[@]}" mpiexec.hydra \
    -launcher rsh -launcher-exec "$home/scripts/mpich-hydra-rsh.sh" -hosts h0:2,h1:2 -n 4 "$work/host_loss" \
    > "$out" 2> "$err" &
  local job=$! i rc=running
  for ((i = 0; i < 300; i++)); do
    [[ $(grep -c ' split' "$out" || true) -ge 4 ]] && break
    sleep 0.1
  done
  local crashed ended
  crashed=$(date +%s.%N)
  "$home/scripts/emulated-hosts.sh" kill "$id" h1
  for ((i = 0; i < 80; i++)); do
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
  done
  ended=$(date +%s.%N)
  if kill -0 "$job" 2>/dev/null; then
    kill -TERM "$job"
    wait "$job" || true
  else
    wait "$job" && rc=0 || rc=$?
  fi
  sleep 0.5
  printf '%-26s exit %-8s %4.1f s after the crash  ring done %s of 2  left on h0: %s\n' "$name" "$rc" \
    "$(echo "$ended - $crashed" | bc)" "$(grep -c 'ring done after 2000 rounds rc 0' "$out" || true)" \
    "$(ip netns pids "fthp-$id-h0" | wc -l)"
  grep -E 'fthp_proxy_hydra|assert|terminated badly|BAD TERMINATION|error' "$err" "$out" | sed 's/^/    /' | head -6 || true
}

echo "case                       result"
run no-library            no  no
run library-h1-listed     yes yes
run library-h1-not-listed yes no FTHP_HYDRA_CONFIRM_MS=1000
