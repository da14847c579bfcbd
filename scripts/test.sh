#!/usr/bin/env bash
# Runs every unit and integration test. Extra arguments go to mvn (e.g. -pl msglog).
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"

# integration tests start real MPI jobs through the built jars; MpichTest runs a part of the suite on MPICH,
# installed beside Open MPI (which stays the plain mpicc/mpirun)
export FTHP_MPI="${FTHP_MPI:-mpich}"
"$here/setup.sh"
fthp_find_jdk
cd "$FTHP_HOME"
mvn -B verify "$@"
