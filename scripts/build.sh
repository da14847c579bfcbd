#!/usr/bin/env bash
# Builds and installs every module, whatever their state (tests skipped: see test.sh).
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

fthp_ensure_maven
fthp_find_jdk
cd "$FTHP_HOME"
mvn -B -DskipTests install "$@"
# the ranks' ahead-of-time cache, made from the jars just built (a failure leaves the ranks starting without one)
"$FTHP_HOME/scripts/aot-cache.sh" || echo "build.sh: continuing without the ranks' ahead-of-time cache" >&2
