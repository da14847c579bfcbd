#!/usr/bin/env bash
# How wide the window is in which a death wedges a program's own communicator creation (not in CI):
# RepairSubcomms (N = M = 4) splits COMM_WORLD and makes an intercommunicator right after MPI_Init;
# one job per kill time kills rank 2's computational copy that long after MPI_Init and prints whether
# the job still printed the failure-free output, and which blocking call the copies a death wedged
# were in (they fail too; their ranks go on in their other copies).
#
#   scripts/creation-window.sh                       # kill times 0.05 0.1 ... 0.6 0.7 s
#   TIMES="0.1 0.3 0.5" scripts/creation-window.sh
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib.sh"
fthp_find_jdk >/dev/null
fthp_ensure_built

root="$(cd "$here/.." && pwd)"
classes="$root/integration-tests/target/classes"
TIMES=${TIMES:-0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.7}
TIMEOUT=${TIMEOUT:-180}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
program=(-cp "$classes" org.fthp.it.programs.RepairSubcomms 250 2000)

timeout "$TIMEOUT" "$root/bin/fthp-run" -np 4 -- "${program[@]}" > "$work/base" 2> "$work/base.err" \
    || { echo "failure-free run failed"; cat "$work/base.err"; exit 1; }
for t in $TIMES; do
    setsid timeout --kill-after=10 "$TIMEOUT" "$root/bin/fthp-run" -np 4 --replicas 4 --kill "2:cmp@$t" -- \
        "${program[@]}" > "$work/out" 2> "$work/err"
    code=$?
    wedged="$(grep -o 'while MPI_[A-Za-z_]*' "$work/err" | sort | uniq -c | tr -s ' \n' ' ')"
    if [ $code = 0 ] && cmp -s "$work/out" "$work/base"; then
        verdict="correct${wedged:+ (copies wedged:$wedged, failed over)}"
    elif [ $code = 0 ]; then
        verdict=wrong
    else
        verdict="failed($code):$wedged"
    fi
    echo "kill 2:cmp@$t -> $verdict"
done
