#!/usr/bin/env bash
# Builds and installs every module, whatever their state (tests skipped: see test.sh).
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

fthp_ensure_maven
fthp_find_jdk
cd "$FTHP_HOME"
mvn -B -DskipTests install "$@"
