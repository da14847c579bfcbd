#!/usr/bin/env bash
# Runs every unit and integration test. Extra arguments go to mvn (e.g. -pl msglog).
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"

"$here/setup.sh"   # integration tests start real MPI jobs through the built jars
fthp_find_jdk
cd "$FTHP_HOME"
mvn -B verify "$@"
