#!/usr/bin/env bash
# Failure hiding under MPICH's hydra launcher: builds proxy-launcher/native/fthp_proxy_hydra.c and
# survivors_hydra.c with MPICH's compiler, then runs 4 ranks, one of which dies, in each case below and
# prints how each ended: exit code, how far the survivors got, the pids the library reported, and
# whether anything was left running. Needs MPICH (FTHP_MPI=mpich scripts/setup.sh). Every job has a
# timeout; leftovers are found by this run's own temporary program path and killed by pid.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
native="$here/../../../native"
command -v mpicc.mpich >/dev/null || { echo "hydra-survivors.sh: MPICH is not installed" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$work/libfthp_proxy_hydra.so" "$native/fthp_proxy_hydra.c" -ldl -lpthread
mpicc.mpich -Wall -O1 -o "$work/survivors" "$here/survivors_hydra.c"
export ROUNDS="${ROUNDS:-300}"

# run NAME TIMEOUT PRELOAD(yes|no) [VAR=value...] -- [mpiexec options]
run() {
  local name=$1 limit=$2 preload=$3; shift 3
  local vars=()
  while [[ $1 != -- ]]; do vars+=("$1"); shift; done
  shift
  local report="$work/report-$name" out="$work/out-$name" start end rc=0
  local env_preload=()
  [[ $preload == yes ]] && env_preload=(LD_PRELOAD="$work/libfthp_proxy_hydra.so" FTHP_PROXY_REPORT="$report")
  start=$(date +%s.%N)
  env "${env_preload[@]}" "${vars[@]}" timeout "$limit" mpiexec.hydra "$@" -n 4 "$work/survivors" > "$out" 2>&1 || rc=$?
  end=$(date +%s.%N)
  local pids left
  pids=$(pgrep -f "^$work/survivors" || true)   # this run's own temporary program path
  left=$(echo -n "$pids" | grep -c . || true)
  printf '%-34s exit %-4s %5.1f s  ranks through the ring %s, the barrier %s, finalized or exited %s  reported [%s]  left running %s\n' \
    "$name" "$rc" "$(echo "$end - $start" | bc)" "$(grep -c 'ring:' "$out" || true)" \
    "$(grep -c 'create_group + barrier rc 0' "$out" || true)" "$(grep -c -E 'finalized rc 0|exits without' "$out" || true)" \
    "$(cat "$report" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')" "$left"
  if [[ -n $pids ]]; then
    kill -KILL $pids 2>/dev/null || true
  fi
}

echo "case                               result"
run no-library                      60 no  -- 
run no-library-disable-auto-cleanup 60 no  -- -disable-auto-cleanup
run library-no-failure              90 yes VICTIM=-1 --
run library-survivors-finalize      60 yes --
run library-survivors-skip-finalize 90 yes SKIP_FINALIZE=1 --
run library-skip-finalize-disable   90 yes SKIP_FINALIZE=1 -- -disable-auto-cleanup
run library-victim-exit-code-3      60 yes VICTIM_EXIT=3 --
# the victim dies 4 s late, while the others wait in MPI_Finalize's PMI barrier: the barrier ends, and then
# MPICH's UCX finalize spins on the dead peer as above
run library-death-in-finalize-barrier 25 yes VICTIM_DELAY_MS=4000 ROUNDS=100 --
