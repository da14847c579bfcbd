#!/usr/bin/env bash
# Randomized kill runs against failure-free output (not in CI: minutes per dozen runs on two cores).
#
#   scripts/soak-repair.sh                 # 200 runs, seed 1
#   RUNS=50 SEED=7 NP=4 scripts/soak-repair.sh
#   PROGRAMS=RepairSubcomms RUNS=30 scripts/soak-repair.sh
#
# Each run picks a program from PROGRAMS (RepairP2p, RepairCollectives, RepairSubcomms), up to KILLS
# (3) distinct logical ranks, a random copy of each (computational or replica), and random kill times:
# the first within the first 2 s after MPI_Init, each next one GAP (1.0) to GAP+2 s after the
# previous, then runs it fully replicated (--replicas NP) and compares stdout with the failure-free
# unreplicated run. A rank never loses both copies. A kill that lands inside a blocking native
# communicator creation wedges the processes in it (Open MPI 4.1 cannot abandon the call); they fail
# after 5 s. In RepairSubcomms' own split and intercommunicator right after MPI_Init that is one side
# only, and the run goes on in the other copies; inside a repair's rebuild of COMM_WORLD (GAP=0 makes
# that likely) both sides can be wedged, and the run counts as failed, not hung. Every run has a deadline
# (TIMEOUT, 180 s); a run that hits it counts as hung and its processes are killed by pid (fthp-run's
# process group).
# Prints one line per run and the tally: correct, wrong, hung, failed (non-zero exit).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib.sh"
fthp_find_jdk >/dev/null
fthp_ensure_built

RUNS=${RUNS:-200}
SEED=${SEED:-1}
NP=${NP:-4}
KILLS=${KILLS:-3}
GAP=${GAP:-1.0}
ITERATIONS=${ITERATIONS:-350}
TIMEOUT=${TIMEOUT:-180}
read -r -a programs <<< "${PROGRAMS:-RepairP2p RepairCollectives RepairSubcomms}"
root="$(cd "$here/.." && pwd)"
classes="$root/integration-tests/target/classes"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
RANDOM=$SEED

baseline() {
    local program=$1
    if [ ! -f "$work/base-$program" ]; then
        timeout "$TIMEOUT" "$root/bin/fthp-run" -np "$NP" -- -cp "$classes" "org.fthp.it.programs.$program" \
            "$ITERATIONS" 2000 > "$work/base-$program" 2>"$work/base-$program.err" \
            || { echo "failure-free run of $program failed"; cat "$work/base-$program.err"; exit 1; }
    fi
}

correct=0 wrong=0 hung=0 failed=0
for ((run = 1; run <= RUNS; run++)); do
    program=${programs[$((RANDOM % ${#programs[@]}))]}
    baseline "$program"
    ranks=($(fthp_shuffled "$NP"))
    count=$((1 + RANDOM % KILLS))
    kills=()
    at=0
    for ((k = 0; k < count && k < NP; k++)); do
        copy=$([ $((RANDOM % 2)) = 0 ] && echo cmp || echo rep)
        step=$(printf '%d.%02d' $((RANDOM % 2)) $((RANDOM % 100)))
        at=$(awk -v a="$at" -v s="$step" -v g="$GAP" -v k=$k 'BEGIN { printf "%.2f", a + s + (k > 0 ? g : 0) }')
        kills+=(--kill "${ranks[$k]}:$copy@$at")
    done
    start=$(date +%s)
    # setsid: the run and everything it starts share one process group, killed by its leader's pid
    # repair steps traced (computational copies), for a look at a run that goes wrong
    FTHP_TRACE_REPAIR=1 setsid timeout --kill-after=10 "$TIMEOUT" "$root/bin/fthp-run" -np "$NP" --replicas "$NP" \
        "${kills[@]}" -- \
        -cp "$classes" "org.fthp.it.programs.$program" "$ITERATIONS" 2000 > "$work/out" 2> "$work/err"
    code=$?
    if [ $code = 124 ] || [ $code = 137 ]; then
        verdict=hung; hung=$((hung + 1))
    elif [ $code != 0 ]; then
        verdict="failed($code)"; failed=$((failed + 1))
    elif cmp -s "$work/out" "$work/base-$program"; then
        verdict=correct; correct=$((correct + 1))
    else
        verdict=wrong; wrong=$((wrong + 1))
    fi
    summary=$(grep -o 'summary: [0-9]* failures\? detected.*' "$work/err" | head -1)
    echo "run $run: $program ${kills[*]} -> $verdict ($(( $(date +%s) - start )) s) $summary"
    if [ "$verdict" != correct ]; then
        # kept for a look: the run's stdout and stderr, next to the (deleted) work directory
        cp "$work/err" "$work/../soak-run-$run.err" 2>/dev/null || true
        cp "$work/out" "$work/../soak-run-$run.out" 2>/dev/null || true
        cp "$work/base-$program" "$work/../soak-run-$run.expected" 2>/dev/null || true
    fi
done
echo "soak: $RUNS runs: $correct correct, $wrong wrong, $hung hung, $failed failed"
[ $correct = "$RUNS" ]
