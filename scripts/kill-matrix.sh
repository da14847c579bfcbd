#!/usr/bin/env bash
# The whole kill matrices of RepairTest and SuiteUnderKillsTest (FTHP_KILL_MATRIX=full): CI runs the cases that
# each reach a path of their own; this adds more kill points in the same programs and the shortest programs
# (integration-tests' KillMatrix). About 4 minutes here.
#
#   scripts/kill-matrix.sh                  both classes
#   scripts/kill-matrix.sh RepairTest       one of them
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"
"$here/setup.sh" >/dev/null
fthp_find_jdk
cd "$FTHP_HOME"
classes=("$@")
[ ${#classes[@]} -gt 0 ] || classes=(RepairTest SuiteUnderKillsTest)
mvn -B -q -DskipTests install >/dev/null
FTHP_KILL_MATRIX=full mvn -B -o verify -pl integration-tests -Dtest="$(IFS=,; echo "${classes[*]}")" \
  -Dsurefire.failIfNoSpecifiedTests=false
