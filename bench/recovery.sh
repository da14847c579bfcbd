#!/usr/bin/env bash
# Recovery time after a process failure: N logical ranks fully replicated (2N processes),
# JOBS runs of RepairP2p with KILLS_PER_JOB kills each (distinct ranks, random copy, 2 s apart), then a
# table of medians and maxima per repair step over all kills (bench/README.md).
#
#   bench/recovery.sh                  # N=8 (16 processes), 7 jobs x 7 kills = 49 kills + 1 more job
#                                      # on NODES=4 emulated nodes in groups of GROUP_SIZE=2
#   N=4 JOBS=2 KILLS_PER_JOB=3 bench/recovery.sh
#   MPI=mpich bench/recovery.sh        # on MPICH (fthp-run --mpi mpich); default: fthp-run's choice
#   LIFE_LOCK=1 bench/recovery.sh      # with the ranks' life locks and failure boards (default 0: detection by
#                                      # the lost connection or mpirun's reap, delivery by the connection only)
#   RANK_OPTS="-Xmn8m" bench/recovery.sh  # extra JVM options for every rank (split on spaces), e.g. a smaller
#                                      # young generation (less for a killed JVM's exit_mmap to free) or -Xlog
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
fthp_find_jdk >/dev/null
fthp_ensure_built

N=${N:-8}
NODES=${NODES:-4}
GROUP_SIZE=${GROUP_SIZE:-2}
TARGET_KILLS=${TARGET_KILLS:-50}
KILLS_PER_JOB=${KILLS_PER_JOB:-7}
SPACING=${SPACING:-2}
ITERATIONS=${ITERATIONS:-1500}
SEED=${SEED:-3}
TIMEOUT=${TIMEOUT:-600}
RESULTS="${RESULTS:-$ROOT/bench/target/recovery/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$RESULTS"
RANDOM=$SEED

java="$(fthp_jdk_home)/bin/java"
mpi=()
if [[ -n "${MPI:-}" ]]; then mpi=(--mpi "$MPI"); fi
rank_opts=(${RANK_OPTS:-})
pairs=()
kills=0
job=0
while ((kills < TARGET_KILLS)); do
    job=$((job + 1))
    n=$((TARGET_KILLS - kills < KILLS_PER_JOB ? TARGET_KILLS - kills : KILLS_PER_JOB))
    ranks=($(fthp_shuffled "$N"))
    args=()
    for ((k = 0; k < n; k++)); do
        copy=$([ $((RANDOM % 2)) = 0 ] && echo cmp || echo rep)
        args+=(--kill "${ranks[$k]}:$copy@$((2 + k * SPACING))")
    done
    events="$RESULTS/events-$job.jsonl"
    repairs="$RESULTS/repairs-$job.jsonl"
    echo "job $job: ${args[*]}" >&2
    # the launcher's proxy library appends when mpirun reaped each killed rank to the same event log
    FTHP_PROXY_TRACE="$events" timeout "$TIMEOUT" "$ROOT/bin/fthp-run" "${mpi[@]}" -np "$N" --replicas "$N" --nodes "$NODES" --group-size "$GROUP_SIZE" \
        --events "$events" \
        -x "FTHP_REPAIR_LOG=$repairs" -x "FTHP_LIFE_LOCK=${LIFE_LOCK:-0}" "${args[@]}" -- \
        "${rank_opts[@]}" -cp "$ROOT/integration-tests/target/classes" org.fthp.it.programs.RepairP2p "$ITERATIONS" 2000 \
        > "$RESULTS/out-$job.txt" 2> "$RESULTS/err-$job.txt" || { echo "job $job failed:"; tail "$RESULTS/err-$job.txt"; exit 1; }
    grep "summary" "$RESULTS/err-$job.txt" >&2 || true
    pairs+=("$events" "$repairs")
    kills=$((kills + n))
done
"$java" -cp "$ROOT/bench/target/classes" org.fthp.bench.RecoveryReport "${pairs[@]}" | tee "$RESULTS/report.md"
