#!/usr/bin/env bash
# Replicated runs of the integration programs against their unreplicated runs (not in CI: slow).
#
#   scripts/replication-matrix.sh                 # N = 2 4 8, M = 1, N/2, N
#   NPS="8" scripts/replication-matrix.sh         # only 8 logical ranks
#   PROGRAMS="P2pBasics CollBlocking" scripts/replication-matrix.sh
#
# For every program and N it runs M = 0 first; a program that does not pass unreplicated at that N
# (most are written for 2 and 4 ranks) is reported "n/a". Then, for every M, the sorted stdout must
# equal the M = 0 run's. Prints one line per run and a total; exits non-zero if any run differed or failed.
set -uo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"
fthp_ensure_maven
fthp_find_jdk
fthp_ensure_built >/dev/null || exit 1
cd "$FTHP_HOME"

NPS="${NPS:-2 4 8}"
PROGRAMS="${PROGRAMS:-P2pBasics P2pNonblocking P2pProbe P2pLarge CollBlocking CollNonblocking CollInter \
CollNeighborWildcard CollAllreduceOrder CommsGroupsTopo CommsProcNull TypesAndOps TypesSlice TypesStructExtent \
BadInputErrors ReplicaDeterminism}"
TIMEOUT="${TIMEOUT:-300}"
classes="$FTHP_HOME/integration-tests/target/classes"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() {   # run <np> <m> <program> <out>: exit code of the job
  timeout --kill-after=10 "$TIMEOUT" bin/fthp-run -np "$1" --replicas "$2" -- -XX:TieredStopAtLevel=1 -Xss2m \
    -cp "$classes" "org.fthp.it.programs.$3" 2>"$4.err" | grep -v '^trace ' | sort >"$4"
  return "${PIPESTATUS[0]}"
}

same=0; differ=0; na=0
for np in $NPS; do
  for prog in $PROGRAMS; do
    base="$work/$prog.$np.0"
    if ! run "$np" 0 "$prog" "$base"; then
      echo "$prog N=$np: n/a (does not pass unreplicated at this size)"; na=$((na + 1)); continue
    fi
    for m in $(printf '%s\n' 1 $((np / 2)) "$np" | sort -nu); do
      out="$work/$prog.$np.$m"
      if run "$np" "$m" "$prog" "$out" && cmp -s "$base" "$out"; then
        echo "$prog N=$np M=$m: same as unreplicated"; same=$((same + 1))
      else
        echo "$prog N=$np M=$m: DIFFERS or failed"; differ=$((differ + 1))
        diff "$base" "$out" | head -5; tail -3 "$out.err"
      fi
    done
  done
done
echo "replication matrix: $same same, $differ differ or failed, $na not applicable"
[[ $differ -eq 0 ]]
