#!/usr/bin/env bash
# Every way a program can end a job without MPI_Finalize, in every configuration (not in CI; CI's
# ProgramEndTest runs each way once): unreplicated and replicated (N = M = 2), with and without --nodes 2.
# One line per job: the way, the configuration, the exit code (and the expected one), seconds to end, and
# how many lines of the job's output name the end (1 expected: once per rank, not once per copy).
#
#   scripts/program-ends.sh                 # N = 2
#   NP=4 scripts/program-ends.sh            # N = M = 4
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib.sh"
fthp_find_jdk >/dev/null
fthp_ensure_built

root="$(cd "$here/.." && pwd)"
classes="$root/integration-tests/target/classes"
NP=${NP:-2}
TIMEOUT=${TIMEOUT:-90}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# way, arguments, expected exit code, the text that names the end (TEXT@TEXT: without@with coordinators, when
# they differ: Open MPI names a native rank in its MPI_ABORT notice, fthp-run the logical one)
ways=(
  "throw|throw 1|1|Exception in thread \"main\" java.lang.IllegalStateException: ProgramEnds fails on rank 1"
  "throw-all|throw all|1|Exception in thread"
  "exit-3|exit 1 3|3|rank 1 called System.exit(3) before MPI_Finalize"
  "exit-0|exit 1 0|5|rank 1 called System.exit(0) before MPI_Finalize"
  "return|return 1|5|rank 1 returned from main without calling MPI_Finalize"
  "abort-7|abort 1 7|7|MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD@rank 1 called MPI_Abort(7)"
  "fatal|fatal 1|6|An error occurred in an MPI call on rank 1"
  "oom|oom 1|1|Exception in thread \"main\" java.lang.OutOfMemoryError"
  "stack|stack 1|1|Exception in thread \"main\" java.lang.StackOverflowError"
)
configs=("" "--nodes 2" "--replicas $NP" "--replicas $NP --nodes 2")
bad=0
printf '%-10s %-26s %5s %5s %7s %6s\n' way config exit want seconds named
for w in "${ways[@]}"; do
    IFS='|' read -r name args want text <<< "$w"
    for c in "${configs[@]}"; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        setsid timeout --kill-after=10 "$TIMEOUT" "$root/bin/fthp-run" -np "$NP" $c -- -XX:TieredStopAtLevel=1 \
            -Xss2m -cp "$classes" org.fthp.it.programs.ProgramEnds $args > "$work/out" 2>&1
        code=$?
        secs=$(echo "$(date +%s.%N) - $start" | bc)
        expect="$text"
        if [[ $text == *@* ]]; then
            if [[ -z $c ]]; then expect="${text%@*}"; else expect="${text#*@}"; fi
        fi
        named=$(grep -cF -- "$expect" "$work/out")
        [[ $name == throw-all && $named -ge 1 && $named -le $NP ]] && named=1
        flag=""
        if [[ $code != "$want" || $named != 1 ]] || grep -q "NOT REACHED" "$work/out"; then
            flag="  <-- unexpected"; bad=$((bad + 1))
        fi
        printf '%-10s %-26s %5s %5s %7.1f %6s%s\n' "$name" "${c:-(none)}" "$code" "$want" "$secs" "$named" "$flag"
    done
done
echo "$bad unexpected"
[[ $bad == 0 ]]
