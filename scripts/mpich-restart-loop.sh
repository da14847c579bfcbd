#!/usr/bin/env bash
# Runs a replicated restart (both copies of rank 1 killed at call 170, one relaunch from the last
# committed epoch) RUNS times and counts the runs whose output is not the failure-free one. Each run's output is kept
# in OUT_DIR; FTHP_TRACE_CHECKPOINT is on (one line per piece put and per recovery: light). Outside CI: every run
# is a whole job and its relaunch. With STOP_REPLICA=S the relaunched job's replica of rank 1 (native rank 3) is stopped (SIGSTOP)
# for S seconds as its coordinator client starts, before it asks for its piece: the other copies then finish the
# job and commit a newer epoch first, the window in which the replica's piece is lost unless the epoch it restarts
# from is kept (deterministic where the plain loop depends on the machine's load).
# Usage: [RUNS=30] [MPI=mpich] [STOP_REPLICA=4] [OUT_DIR=...] scripts/mpich-restart-loop.sh
set -uo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"
fthp_find_jdk
cd "$FTHP_HOME"
RUNS=${RUNS:-30}
MPI=${MPI:-mpich}
OUT_DIR=${OUT_DIR:-/tmp/fthp-restart-loop-$MPI-$$}
mkdir -p "$OUT_DIR"
STOP_REPLICA=${STOP_REPLICA:-}

# the relaunched job's native rank $2 among the descendants of pid $1 (only those): stopped for $3 s once its
# coordinator client thread exists
stop_replica() {
    local anc=$1 rank=$2 hold=$3 deadline=$((SECONDS + 120)) p q env target=
    while (( SECONDS < deadline )) && kill -0 "$anc" 2>/dev/null; do
        if [[ -z $target || ! -d /proc/$target ]]; then
            target=
            for p in $(pgrep java); do
                q=$p
                while [[ -n $q && $q -gt 1 && $q -ne $anc ]]; do q=$(awk '{print $4}' "/proc/$q/stat" 2>/dev/null); done
                [[ $q == "$anc" ]] || continue
                env=$(tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null) || continue
                grep -q '^FTHP_CHECKPOINT_EPOCH=[0-9]' <<<"$env" || continue
                grep -Eq "^(PMI_RANK|OMPI_COMM_WORLD_RANK)=$rank\$" <<<"$env" && target=$p && break
            done
        fi
        # once found, only that process: the prefetch follows the client thread's start closely
        if [[ -n $target ]] && grep -qs fthp-coordinat /proc/"$target"/task/*/comm; then
            kill -STOP "$target" && echo "stopped native $rank (pid $target) for $hold s"
            sleep "$hold"
            kill -CONT "$target"
            return
        fi
        [[ -n $target ]] || sleep 0.01
    done
    echo "never saw native $rank of a relaunch start its coordinator client"
}

program=(-cp integration-tests/target/classes org.fthp.it.programs.RestartIterations 50 20 --force 10)
# the failure-free output: rank 0's lines of a run without kills
env -u FTHP_TRACE_CHECKPOINT timeout 300 bin/fthp-run -np 2 --mpi "$MPI" -- "${program[@]}" 2>/dev/null \
    | grep -E '^(iteration|RestartIterations)' > "$OUT_DIR/expected"
ok=0
failed=0
for i in $(seq 1 "$RUNS"); do
    out="$OUT_DIR/run-$i.out"
    FTHP_TRACE_CHECKPOINT=1 timeout 300 bin/fthp-run -np 2 --mpi "$MPI" --replicas 2 --checkpoint-interval 600 \
        --restart 1 --kill 1:cmp#170 --kill 1:rep#170 -- "${program[@]}" > "$out" 2>&1 &
    run=$!
    if [[ -n $STOP_REPLICA ]]; then
        stop_replica "$run" 3 "$STOP_REPLICA" >> "$out.stop" 2>&1
    fi
    wait "$run"
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
