#!/usr/bin/env bash
# run.sh NP [HPCG options] : runs the HPCG port on NP ranks through bin/fthp-run.
#   apps/hpcg/run.sh 4 --nx=32 --rt=60 --out=/tmp/hpcg
# Extra fthp-run options (e.g. --replicas 2) go in FTHP_RUN_OPTS; JVM options in HPCG_JVM_OPTS.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
home="$(cd "$here/../.." && pwd)"
if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 NP [--nx=N --ny=N --nz=N --rt=SECONDS --npx=P --npy=P --npz=P --dat=FILE --out=DIR]" >&2
  exit 2
fi
np="$1"; shift
if [[ ! -f "$here/target/classes/org/fthp/apps/hpcg/Hpcg.class" ]]; then
  echo "run.sh: apps/hpcg is not built; run: mvn -B -o -DskipTests -pl apps/hpcg -am package" >&2
  exit 3
fi
# shellcheck disable=SC2086
exec "$home/bin/fthp-run" -np "$np" ${FTHP_RUN_OPTS:-} -- ${HPCG_JVM_OPTS:-} -cp "$here/target/classes" \
  org.fthp.apps.hpcg.Hpcg "$@"
