#!/usr/bin/env bash
# The main job, in two runs of the HPCG port on 4 logical ranks (16^3 each, about 10 s of timed sets):
#  1. replication: every rank replicated (8 processes) while fthp-run's Weibull failure simulator kills
#     processes (system MTBF 12 s, seed 1). The job survives, HPCG validates its result, and fthp-run
#     prints the failures, promotions and repair times on exit.
#  2. checkpoint/restart: ranks 0 and 1 replicated (6 processes), a checkpoint every 2 s; both copies of
#     rank 1 are killed half-way through timed set 3 (at a call count: the same point every run). No
#     replica is left to take over, so fthp-run ends the native job, relaunches it from its last
#     committed checkpoint, HPCG resumes its timed sets and validates: the same residuals as a run
#     without failures.
#  3. rollback in place: the same job with one spare process (fthp-run --spares 1), a checkpoint every second
#     and shorter (--rt=4); both copies of rank 1 are killed half-way through timed set 0. HPCG runs
#     everything after MPI.Init in Checkpoint.resilient, so nothing is relaunched: the spare takes rank 1,
#     the survivors unwind to that entry point and run it again from the last committed checkpoint (their
#     JVMs, native MPI and warm code kept), and the run validates with the same residuals. The summary says
#     how long the rollback took.
#
#   scripts/run-example.sh                      # all three; extra arguments go to HPCG (e.g. --rt=30)
#   FTHP_EXAMPLE=replication scripts/run-example.sh   # only run 1 (restart: only run 2, rollback: only run 3)
#   FTHP_RUN_OPTS="--mtbf 6 --seed 3" scripts/run-example.sh   # more failures, another seed (run 1)
#   FTHP_EXAMPLE=ringpi scripts/run-example.sh  # the small RingPi example instead, unreplicated
#
# In run 1, a seed whose kills take both copies of one rank ends the job with code 4 and names the rank:
# it runs without checkpoints, so nothing can bring that rank back (run 2 shows what can).
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
which="${FTHP_EXAMPLE:-hpcg}"
code=0
if [[ "$which" == hpcg || "$which" == replication ]]; then
  echo "run-example.sh: 1. HPCG, 4 ranks, all replicated, Weibull failures (MTBF 12 s)" >&2
  # shellcheck disable=SC2086
  "$FTHP_HOME/bin/fthp-run" -np 4 --replicas 4 --inject weibull --mtbf 12 --seed 1 --events "$out/events.jsonl" \
    ${FTHP_RUN_OPTS:-} -- -cp "$FTHP_HOME/$hpcg_jar" org.fthp.apps.hpcg.Hpcg --nx=16 --rt=10 --out="$out" "$@" \
    || code=$?
  echo "run-example.sh: HPCG report and failure events in $out" >&2
fi
if [[ "$which" == hpcg || "$which" == restart ]]; then
  # rank 1 of a 16^3, 4-rank run makes 12142 MPI calls before the timed sets and 5019 per set
  # (FTHP_REPORT_CALLS=1 ... -x FTHP_REPORT_CALLS prints the counts): call 29700 is half-way through set 3
  kill_call=29700
  mkdir -p "$out/restart"
  echo "run-example.sh: 2. HPCG, 4 ranks, 2 replicated, checkpoints every 2 s; both copies of rank 1 die" >&2
  "$FTHP_HOME/bin/fthp-run" -np 4 --replicas 2 --checkpoint-interval 2 --restart 1 \
    --kill "1:cmp#$kill_call" --kill "1:rep#$kill_call" --events "$out/restart/events.jsonl" \
    -- -cp "$FTHP_HOME/$hpcg_jar" org.fthp.apps.hpcg.Hpcg --nx=16 --rt=10 --out="$out/restart" "$@" \
    || { c=$?; [[ $code -ne 0 ]] || code=$c; }
  echo "run-example.sh: HPCG report, log and events of the restarted run in $out/restart" >&2
fi
if [[ "$which" == hpcg || "$which" == rollback ]]; then
  # half-way through timed set 0 of rank 1 (counts as for run 2): the checkpoint its start took (setup lasts well
  # over the interval) is committed by then, and a loaded machine that fits only one set in --rt=4 still gets there
  kill_call=14650
  mkdir -p "$out/rollback"
  echo "run-example.sh: 3. HPCG, 4 ranks, 2 replicated, 1 spare, checkpoints every second; both copies of rank 1" \
    "die and the survivors roll back in place" >&2
  "$FTHP_HOME/bin/fthp-run" -np 4 --replicas 2 --spares 1 --checkpoint-interval 1 --restart 1 \
    --kill "1:cmp#$kill_call" --kill "1:rep#$kill_call" --events "$out/rollback/events.jsonl" \
    -- -cp "$FTHP_HOME/$hpcg_jar" org.fthp.apps.hpcg.Hpcg --nx=16 --rt=4 --out="$out/rollback" "$@" \
    || { c=$?; [[ $code -ne 0 ]] || code=$c; }
  echo "run-example.sh: HPCG report, log and events (job-rolled-back) of the rolled-back run in $out/rollback" >&2
fi
exit $code
