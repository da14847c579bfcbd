#!/usr/bin/env bash
# Runs the replicated restart of issue 22 (both copies of rank 1 killed at call 170, one relaunch from the last
# committed epoch) RUNS times and counts the runs whose output is not the failure-free one. Each run's output is kept
# in OUT_DIR; FTHP_TRACE_CHECKPOINT is on (one line per piece put and per recovery: light). Outside CI: it takes
# about 15 s a run. Usage: [RUNS=30] [MPI=mpich] [OUT_DIR=...] scripts/mpich-restart-loop.sh
set -uo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"
fthp_find_jdk
cd "$FTHP_HOME"
RUNS=${RUNS:-30}
MPI=${MPI:-mpich}
OUT_DIR=${OUT_DIR:-/tmp/fthp-restart-loop-$MPI-$$}
mkdir -p "$OUT_DIR"
program=(-cp integration-tests/target/classes org.fthp.it.programs.RestartIterations 50 20 --force 10)
# the failure-free output: rank 0's lines of a run without kills
FTHP_TRACE_CHECKPOINT= timeout 300 bin/fthp-run -np 2 --mpi "$MPI" -- "${program[@]}" 2>/dev/null \
    | grep -E '^(iteration|RestartIterations)' > "$OUT_DIR/expected"
ok=0
failed=0
for i in $(seq 1 "$RUNS"); do
    out="$OUT_DIR/run-$i.out"
    FTHP_TRACE_CHECKPOINT=1 timeout 300 bin/fthp-run -np 2 --mpi "$MPI" --replicas 2 --checkpoint-interval 600 \
        --restart 1 --kill 1:cmp#170 --kill 1:rep#170 -- "${program[@]}" > "$out" 2>&1
    rc=$?
    if [[ $rc -eq 0 ]] && diff -q <(grep -E '^(iteration|RestartIterations)' "$out") \
            "$OUT_DIR/expected" > /dev/null; then
        ok=$((ok + 1))
        echo "run $i: ok (load $(cut -d' ' -f1 /proc/loadavg))"
    else
        failed=$((failed + 1))
        echo "run $i: FAILED rc=$rc (load $(cut -d' ' -f1 /proc/loadavg)): $(grep -m1 -E 'cannot fetch|Exception|exit' "$out")"
    fi
done
echo "$MPI: $ok ok, $failed failed of $RUNS (outputs in $OUT_DIR)"
[[ $failed -eq 0 ]]
