#!/usr/bin/env bash
# Runs integration test classes on MPICH (FTHP_TEST_MPI=mpich: every job of MpiJob gets fthp-run --mpi mpich), one
# class at a time, and prints a pass/fail table. The part CI runs on MPICH is MpichTest; this is the rest, too long
# for CI's budget (docs/notes/mpich.md, "Integration tests on MPICH").
#
#   scripts/mpich-suite.sh                      every class below
#   scripts/mpich-suite.sh RepairTest HpcgJobTest   only those
#   SKIP_BUILD=1 scripts/mpich-suite.sh ...     without installing the modules first
#
# One class at a time because the jobs are real processes: several classes at once on a small machine time out.
# Each class's Maven output goes to $LOG_DIR/<class>.log (default: a new temporary directory, printed at the end).
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"

# module of each class: integration-tests unless listed
declare -A module=(
  [HpcgJobTest]=apps/hpcg [HpcgRestartTest]=apps/hpcg
  [CloverLeafJobTest]=apps/cloverleaf [CloverLeafRestartTest]=apps/cloverleaf
)
all=(MpichTest P2pTest CollTest CommsTest TypesTest BadInputTest CompatDataPathTest CompatStructureTest ReplicationTest
     RepairTest SuiteUnderKillsTest ProgramEndTest CheckpointRestartTest SsendThroughRepairTest
     HpcgJobTest HpcgRestartTest CloverLeafJobTest CloverLeafRestartTest)
classes=("$@")
[ ${#classes[@]} -gt 0 ] || classes=("${all[@]}")

export FTHP_MPI=mpich
"$here/setup.sh" >/dev/null
fthp_find_jdk
cd "$FTHP_HOME"
[ "${SKIP_BUILD:-0}" = 1 ] || mvn -B -q -DskipTests install >/dev/null

log_dir="${LOG_DIR:-$(mktemp -d /tmp/fthp-mpich-suite.XXXXXX)}"
mkdir -p "$log_dir"
export FTHP_TEST_MPI=mpich
failed=0
printf '%-24s %-6s %8s  %s\n' class result seconds "tests (Maven's summary)"
for c in "${classes[@]}"; do
  m="${module[$c]:-integration-tests}"
  start=$SECONDS
  if mvn -B -o verify -pl "$m" -Dtest="$c" -Dsurefire.failIfNoSpecifiedTests=false >"$log_dir/$c.log" 2>&1; then
    result=pass
  else
    result=FAIL
    failed=$((failed + 1))
  fi
  summary="$(grep -E '^\[(INFO|WARNING|ERROR)\] Tests run:' "$log_dir/$c.log" | tail -1 | sed -E 's/^\[[A-Z]+\] //')"
  printf '%-24s %-6s %8d  %s\n' "$c" "$result" $((SECONDS - start)) "$summary"
done
echo "logs: $log_dir (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$failed" = 0 ]
