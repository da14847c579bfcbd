#!/usr/bin/env bash
# Recovery time on MPICH against Open MPI under the same conditions: the same kill plans, the jobs of the two
# libraries interleaved (Open MPI's job 1, MPICH's job 1, Open MPI's job 2, ...) so that both see the same load on a
# shared machine; the 1-minute load average is taken as each job starts. Then bench's RecoveryReport table for each
# library, and the load averages beside it. The workload is bench/recovery.sh's (RepairP2p, N logical ranks fully
# replicated, KILLS_PER_JOB kills of distinct ranks SPACING s apart, a random copy each).
#
#   scripts/mpich-recovery.sh
#   N=4 JOBS=3 KILLS_PER_JOB=3 NODES=2 GROUP_SIZE=1 SEED=7 scripts/mpich-recovery.sh
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"
export FTHP_MPI=mpich
"$here/setup.sh" >/dev/null
fthp_find_jdk >/dev/null
cd "$FTHP_HOME"

N=${N:-4}
NODES=${NODES:-2}
GROUP_SIZE=${GROUP_SIZE:-1}
JOBS=${JOBS:-3}
KILLS_PER_JOB=${KILLS_PER_JOB:-3}
SPACING=${SPACING:-2}
ITERATIONS=${ITERATIONS:-1500}
SEED=${SEED:-7}
TIMEOUT=${TIMEOUT:-300}
RESULTS="${RESULTS:-$FTHP_HOME/bench/target/mpich-recovery/$(date +%Y%m%d-%H%M%S)}"
libraries=(openmpi mpich)
((KILLS_PER_JOB <= N)) || { echo "mpich-recovery.sh: KILLS_PER_JOB must be at most N" >&2; exit 2; }

# the kill plans, drawn in this shell, never in a $(...) (a subshell reseeds RANDOM): distinct ranks, a random copy
RANDOM=$SEED
plans=()
for ((job = 1; job <= JOBS; job++)); do
    ranks=($(seq 0 $((N - 1))))
    for ((i = N - 1; i > 0; i--)); do
        j=$((RANDOM % (i + 1)))
        t=${ranks[$i]}; ranks[$i]=${ranks[$j]}; ranks[$j]=$t
    done
    plan=""
    for ((k = 0; k < KILLS_PER_JOB; k++)); do
        if ((RANDOM % 2 == 0)); then copy=cmp; else copy=rep; fi
        plan+=" --kill ${ranks[$k]}:$copy@$((2 + k * SPACING))"
    done
    plans+=("$plan")
done

java="$(fthp_jdk_home)/bin/java"
declare -A pairs loads failed
for mpi in "${libraries[@]}"; do
    mkdir -p "$RESULTS/$mpi"
    pairs[$mpi]=""
    loads[$mpi]=""
    failed[$mpi]=0
done
for ((job = 1; job <= JOBS; job++)); do
    for mpi in "${libraries[@]}"; do
        out="$RESULTS/$mpi"
        load=$(cut -d' ' -f1 /proc/loadavg)
        loads[$mpi]+=" $load"
        echo "job $job on $mpi (load $load):${plans[$((job - 1))]}" >&2
        # shellcheck disable=SC2086 # the plan is a list of options
        timeout "$TIMEOUT" bin/fthp-run --mpi "$mpi" -np "$N" --replicas "$N" --nodes "$NODES" \
            --group-size "$GROUP_SIZE" --events "$out/events-$job.jsonl" -x "FTHP_REPAIR_LOG=$out/repairs-$job.jsonl" \
            ${plans[$((job - 1))]} -- -cp integration-tests/target/classes org.fthp.it.programs.RepairP2p \
            "$ITERATIONS" 2000 > "$out/out-$job.txt" 2> "$out/err-$job.txt" \
            || { code=$?
                 # a job can end for a reason of its own (a rank losing every copy when a death hits a native
                 # creation call); its repairs are left out of the table, and the count says how many
                 echo "job $job on $mpi failed (exit $code): $(grep -m1 -E 'aborted|lost all' "$out/err-$job.txt")" >&2
                 failed[$mpi]=$((failed[$mpi] + 1)); continue; }
        pairs[$mpi]+=" $out/events-$job.jsonl $out/repairs-$job.jsonl"
    done
done
for mpi in "${libraries[@]}"; do
    echo "## $mpi: N=$N, $JOBS jobs x $KILLS_PER_JOB kills (${failed[$mpi]} jobs failed, left out), load average at each job's start:${loads[$mpi]}"
    [ -n "${pairs[$mpi]}" ] || continue
    # shellcheck disable=SC2086 # a list of files
    "$java" -cp bench/target/classes org.fthp.bench.RecoveryReport ${pairs[$mpi]}
    echo
done | tee "$RESULTS/report.md"
echo "results: $RESULTS" >&2
