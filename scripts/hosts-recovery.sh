#!/usr/bin/env bash
# Recovery on two emulated hosts against one host: RepairP2p, N=2 ranks, M=2
# replicas, rank 0's computational copy killed at its KILL_CMP-th MPI call and rank 1's replica at its
# KILL_REP-th (--kill R#C: the same point of the program in every run). "two-hosts" runs on
# --host h0:2,h1:2 (computational copies on h0, replicas on h1: the replica that takes over, and its
# output, are on the other host); "one-host" runs the same job inside h0 alone. Runs are interleaved,
# REPS of each; prints per run the exit code, the wall time, and fthp-run's summary line on repairs
# (median and longest repair over the first host's survivors), then the failure-free wall times.
# Then the failure notification latency: the same job without --kill, native rank 2 (rank 0's
# replica: on h1 with two hosts, on h0 with one) killed from outside with SIGKILL once the job prints,
# and the time from the kill to the primary's failure-detected event (the primary runs on h0: with two
# hosts the report crosses from h1's orted, or the connection loss from h1's coordinator).
# HOST_FAILURE=1: instead, a whole host's failure against one process's, on 2 and 4 emulated hosts
# (HOSTS="2 4"): RepairP2p with N=M=2 on --host h0:2,h1:2 (replicas on h1) or N=M=4 on
# --host h0:2,h1:2,h2:2,h3:2 (ranks 2, 3 computing on h1, their replicas on h3); once the job prints,
# either every process of h1 is killed (emulated-hosts.sh kill: orted, ranks, coordinator) or only
# native rank 2 (a process on h1) with SIGKILL. Prints the exit code, whether stdout equals the
# failure-free run's, the time from the kill to the primary's first failure-detected event, how
# many processes that event's epoch failed, and fthp-run's repair line; and the load average.
# Needs root.
#
#   scripts/hosts-recovery.sh            # REPS=3
#   RECOVERY=0 REPS=5 scripts/hosts-recovery.sh   # the latency runs only (LATENCY=0: the others only)
#   HOST_FAILURE=1 REPS=3 HOSTS="2 4" scripts/hosts-recovery.sh
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"
fthp_find_jdk >/dev/null

REPS="${REPS:-3}"
ITERATIONS="${ITERATIONS:-200}"
COMPUTE_US="${COMPUTE_US:-1000}"
KILL_CMP="${KILL_CMP:-300}"
KILL_REP="${KILL_REP:-500}"
RECOVERY="${RECOVERY:-1}"
LATENCY="${LATENCY:-1}"
HOST_FAILURE="${HOST_FAILURE:-0}"
HOSTS="${HOSTS:-2 4}"
out="$FTHP_HOME/bench/target/hosts-recovery/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"

hosts="$("$FTHP_HOME/scripts/emulated-hosts.sh" up "$([[ "$HOST_FAILURE" == 1 ]] && echo 4 || echo 2)" "rc$$")"
trap '"$FTHP_HOME/scripts/emulated-hosts.sh" down "$hosts"' EXIT
agent="$("$FTHP_HOME/scripts/emulated-hosts.sh" agent "$hosts")"

run() {
  local config=$1 rep=$2 kills=$3 placement
  case "$config" in
    two-hosts) placement=(--host h0:2,h1:2 --mca plm_rsh_agent "$agent") ;;
    one-host) placement=(--host h0:4) ;;
  esac
  local extra=()
  [[ "$kills" == 1 ]] && extra=(--kill "0:cmp#$KILL_CMP" --kill "1:rep#$KILL_REP")
  local start end code=0
  start=$(date +%s.%N)
  timeout 300 "$FTHP_HOME/scripts/emulated-hosts.sh" exec "$hosts" h0 "$FTHP_HOME/bin/fthp-run" -np 2 \
      --replicas 2 "${extra[@]}" "${placement[@]}" -- -cp "$FTHP_HOME/integration-tests/target/classes" \
      org.fthp.it.programs.RepairP2p "$ITERATIONS" "$COMPUTE_US" \
      > "$out/$config-$kills-$rep.out" 2> "$out/$config-$kills-$rep.err" || code=$?
  end=$(date +%s.%N)
  printf '%s kills=%s run %s: exit %s, %.1f s; %s\n' "$config" "$kills" "$rep" "$code" \
      "$(echo "$end - $start" | bc)" \
      "$(grep -o 'repair time median [^;]*' "$out/$config-$kills-$rep.err" || echo 'no repair line')"
}

# The pid of native rank $2 of our job on emulated host $1 (by namespace: other jobs on the machine
# are not in it), or nothing yet.
rank_pid() {
  local pid
  for pid in $(ip netns pids "fthp-$hosts-$1"); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
      echo "$pid"
      return
    fi
  done
}

latency() {
  local config=$1 rep=$2 placement host events="$out/$1-latency-$2.events"
  case "$config" in
    two-hosts) placement=(--host h0:2,h1:2 --mca plm_rsh_agent "$agent"); host=h1 ;;
    one-host) placement=(--host h0:4); host=h0 ;;
  esac
  local log="$out/$config-latency-$rep"
  timeout 300 "$FTHP_HOME/scripts/emulated-hosts.sh" exec "$hosts" h0 "$FTHP_HOME/bin/fthp-run" -np 2 \
      --replicas 2 --events "$events" "${placement[@]}" -- \
      -cp "$FTHP_HOME/integration-tests/target/classes" org.fthp.it.programs.RepairP2p "$ITERATIONS" \
      "$COMPUTE_US" > "$log.out" 2> "$log.err" &
  local job=$! pid="" killed
  for _ in $(seq 1 600); do
    if grep -q "iteration 20 " "$log.out" 2>/dev/null; then
      pid=$(rank_pid "$host" 2)
      [[ -n "$pid" ]] && break
    fi
    sleep 0.05
  done
  if [[ -z "$pid" ]]; then
    echo "$config latency run $rep: no native rank 2 found"
    wait "$job" || true
    return
  fi
  killed=$(date +%s.%N)
  kill -9 "$pid"
  local code=0
  wait "$job" || code=$?
  local detected
  detected=$(grep -o '"time":"[^"]*","event":"failure-detected"' "$events" | head -1 | cut -d'"' -f4)
  local cause
  cause=$(grep -o '"cause":"[^"]*"' "$events" | head -1 | cut -d'"' -f4)
  printf '%s latency run %s: exit %s, kill to failure-detected %.1f ms (%s)\n' "$config" "$rep" "$code" \
      "$(echo "($(date -d "$detected" +%s.%N) - $killed) * 1000" | bc)" "$cause"
}

# A whole host's failure ($3 = host) or one process's ($3 = process) on $1 emulated hosts, run $2.
host_failure() {
  local count=$1 rep=$2 what=$3 placement n
  case "$count" in
    2) placement=(--host h0:2,h1:2); n=2 ;;
    4) placement=(--host h0:2,h1:2,h2:2,h3:2); n=4 ;;
  esac
  local log="$out/hostfail-$count-$what-$rep" events="$out/hostfail-$count-$what-$rep.events"
  timeout 300 "$FTHP_HOME/scripts/emulated-hosts.sh" exec "$hosts" h0 "$FTHP_HOME/bin/fthp-run" -np "$n" \
      --replicas "$n" --events "$events" "${placement[@]}" --mca plm_rsh_agent "$agent" -- \
      -cp "$FTHP_HOME/integration-tests/target/classes" org.fthp.it.programs.RepairP2p "$ITERATIONS" \
      "$COMPUTE_US" > "$log.out" 2> "$log.err" &
  local job=$! pid="" killed
  for _ in $(seq 1 600); do
    if grep -q "iteration 20 " "$log.out" 2>/dev/null; then
      pid=$(rank_pid h1 2)
      [[ -n "$pid" ]] && break
    fi
    sleep 0.05
  done
  if [[ -z "$pid" ]]; then
    echo "$count hosts, $what failure, run $rep: no native rank 2 on h1 found"
    wait "$job" || true
    return
  fi
  local kill_done
  killed=$(date +%s.%N)
  if [[ "$what" == host ]]; then
    "$FTHP_HOME/scripts/emulated-hosts.sh" kill "$hosts" h1
  else
    kill -9 "$pid"
  fi
  kill_done=$(date +%s.%N)
  local code=0
  wait "$job" || code=$?
  local detected epoch failed same=no
  detected=$(grep -o '"time":"[^"]*","event":"failure-detected"' "$events" | head -1 | cut -d'"' -f4)
  epoch=$(grep -o '"event":"failure-detected","epoch":[0-9]*' "$events" | head -1 | grep -o '[0-9]*$')
  failed=$(grep -c "\"event\":\"failure-detected\",\"epoch\":$epoch," "$events")
  [[ "$(md5sum < "$log.out")" == "$(md5sum < "$out/hostfail-$count-reference.out")" ]] && same=yes
  # the host's kill (list the namespace's processes, SIGKILL them, check) takes a while itself: both shown
  printf '%s hosts, %s failure, run %s: exit %s, failure-free stdout %s, kill to failure-detected %.1f ms (the kill itself %.1f ms; %s in epoch %s); %s; load %s\n' \
      "$count" "$what" "$rep" "$code" "$same" \
      "$(echo "($(date -d "$detected" +%s.%N) - $killed) * 1000" | bc)" \
      "$(echo "($kill_done - $killed) * 1000" | bc)" "$failed" "$epoch" \
      "$(grep -o 'repair time median [^;]*' "$log.err" || echo 'no repair line')" \
      "$(cut -d' ' -f1-3 /proc/loadavg)"
}

if [[ "$HOST_FAILURE" == 1 ]]; then
  for count in $HOSTS; do
    n=$([[ "$count" == 4 ]] && echo 4 || echo 2)
    # the failure-free output: unreplicated, inside h0
    "$FTHP_HOME/scripts/emulated-hosts.sh" exec "$hosts" h0 "$FTHP_HOME/bin/fthp-run" -np "$n" --host "h0:$n" -- \
        -cp "$FTHP_HOME/integration-tests/target/classes" org.fthp.it.programs.RepairP2p "$ITERATIONS" \
        "$COMPUTE_US" > "$out/hostfail-$count-reference.out" 2>/dev/null \
      || echo "the failure-free run on $count ranks failed"
    for rep in $(seq 1 "$REPS"); do
      host_failure "$count" "$rep" host
      host_failure "$count" "$rep" process
    done
  done
  echo "outputs in $out"
  exit 0
fi

for rep in $(seq 1 "$REPS"); do
  [[ "$RECOVERY" == 1 ]] || break
  for config in two-hosts one-host; do
    run "$config" "$rep" 1
    run "$config" "$rep" 0
  done
done
for rep in $(seq 1 "$REPS"); do
  [[ "$LATENCY" == 1 ]] || break
  for config in two-hosts one-host; do
    latency "$config" "$rep"
  done
done
echo "outputs in $out"
