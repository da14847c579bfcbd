#!/usr/bin/env bash
# The main job: the HPCG port on 4 logical ranks, every rank replicated (8 processes), while fthp-run's
# Weibull failure simulator kills processes (system MTBF 12 s, seed 1). The job survives, HPCG validates
# its result, and fthp-run prints the failures, promotions and repair times on exit.
#
#   scripts/run-example.sh                      # as above; extra arguments go to HPCG (e.g. --rt=30)
#   FTHP_RUN_OPTS="--mtbf 6 --seed 3" scripts/run-example.sh   # more failures, another seed
#   FTHP_EXAMPLE=ringpi scripts/run-example.sh  # the small RingPi example instead, unreplicated
#
# A seed whose kills take both copies of one rank ends the job with code 4 and names the rank: without
# checkpoints nothing can bring that rank back.
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"

if [[ "${FTHP_EXAMPLE:-hpcg}" == ringpi ]]; then
  examples_jar=examples/target/fthp-examples-0.1.0-SNAPSHOT.jar
  "$here/setup.sh" "$examples_jar"
  exec "$FTHP_HOME/bin/fthp-run" -np 4 ${FTHP_RUN_OPTS:-} -- -cp "$FTHP_HOME/$examples_jar" \
    org.fthp.examples.RingPi "$@"
fi

hpcg_jar=apps/hpcg/target/fthp-app-hpcg-0.1.0-SNAPSHOT.jar
"$here/setup.sh" "$hpcg_jar"
out="$(mktemp -d)"
code=0
# shellcheck disable=SC2086
"$FTHP_HOME/bin/fthp-run" -np 4 --replicas 4 --inject weibull --mtbf 12 --seed 1 --events "$out/events.jsonl" \
  ${FTHP_RUN_OPTS:-} -- -cp "$FTHP_HOME/$hpcg_jar" org.fthp.apps.hpcg.Hpcg --nx=16 --rt=10 --out="$out" "$@" || code=$?
echo "run-example.sh: HPCG report and failure events in $out" >&2
exit $code
