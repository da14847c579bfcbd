#!/usr/bin/env bash
# Rollback in place against a relaunch (not part of the suite): the whole job's wall time without a failure, with
# both copies of rank 1 killed and a spare taking it (ResilientIterations, Checkpoint.resilient), and with the same
# kills relaunching the job (RestartIterations, the same program without the entry point), interleaved; and the
# coordinator's rollback time (from its decision to every process back in its resilient body). Needs a built tree
# (scripts/build.sh).
#
#   bench/rollback.sh                         # 4 ranks + 4 replicas + 1 spare, 3 rounds
#   RANKS=2 REPLICAS=0 ROUNDS=5 bench/rollback.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ranks=${RANKS:-4}
replicas=${REPLICAS:-4}
rounds=${ROUNDS:-3}
jar=$here/integration-tests/target/fthp-integration-tests-0.1.0-SNAPSHOT.jar
run=$here/bin/fthp-run
work=$(mktemp -d /tmp/fthp-rollback-XXXXXX)
trap 'rm -rf "$work"' EXIT
options=(-np "$ranks" --replicas "$replicas" --spares 1 --checkpoint-interval 600 --restart 1)
if [ "$replicas" -gt 1 ]; then
    kills=(--kill 1:cmp#170 --kill 1:rep#170)
else
    kills=(--kill 1#170)
fi
workload=(50 20 --force 10)

seconds() {   # wall time of one job, its stderr kept in $work/err
    local start end
    start=$(date +%s%N)
    timeout 300 "$run" "$@" > "$work/out" 2> "$work/err" || echo "fthp-rollback: a job failed: $*" >&2
    end=$(date +%s%N)
    echo "scale=3; ($end - $start) / 1000000000" | bc
}

echo "round free_s rollback_s rollback_coordinator_s relaunch_s"
for round in $(seq 1 "$rounds"); do
    free=$(seconds "${options[@]}" -- -cp "$jar" org.fthp.it.programs.ResilientIterations "${workload[@]}")
    rolled=$(seconds "${options[@]}" "${kills[@]}" -- -cp "$jar" org.fthp.it.programs.ResilientIterations \
        "${workload[@]}")
    inner=$(grep -o 'rolled back in place to checkpoint epoch [0-9]* in [0-9.]* s' "$work/err" \
        | grep -o '[0-9.]* s$' | tr -d ' s' || echo "-")
    relaunched=$(seconds "${options[@]}" "${kills[@]}" -- -cp "$jar" org.fthp.it.programs.RestartIterations \
        "${workload[@]}")
    echo "$round $free $rolled ${inner:--} $relaunched"
done
