#!/usr/bin/env bash
# The slower cluster and resume cases, outside CI (scripts/test.sh leaves out the tests tagged outside-ci):
#   - SlurmJobTest#aRequeuedJobResumesFromItsCheckpoint   scontrol requeue of a running job, which resumes
#   - ResumeTest#aSignalBeforeTheTimeLimit...              SIGUSR1 to a one-host fthp-run, then the same command
#   - HostRestartTest                                      --restart on 3 emulated hosts: a lost host's rank
#                                                          relaunched on the live hosts with the spare; too few
#                                                          hosts left: exit 4
#   - RollbackTest (two cases)                             the only spare killed during its rollback: relaunch;
#                                                          on MPICH, a copy killed during a rollback, and a
#                                                          promotion in the generation after one
# About 3 minutes on 2 cores. Extra arguments go to mvn.
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"
"$here/setup.sh"
fthp_find_jdk
cd "$FTHP_HOME"
mvn -B -pl integration-tests -am verify -Dgroups=outside-ci -Dfthp.excludedGroups=none \
  -Dsurefire.failIfNoSpecifiedTests=false "$@"
