#!/usr/bin/env bash
# Prepares this machine: Open MPI, Maven, a JDK 22+, and an up-to-date build.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

fthp_ensure_openmpi
fthp_ensure_maven
fthp_find_jdk
fthp_ensure_built "$@"
