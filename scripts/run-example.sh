#!/usr/bin/env bash
# Runs the example program on 4 ranks. Extra arguments go to the program.
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"

examples_jar=examples/target/fthp-examples-0.1.0-SNAPSHOT.jar
"$here/setup.sh" "$examples_jar"
if [[ ! -f "$FTHP_HOME/$examples_jar" ]]; then
  echo "run-example.sh: $examples_jar was not built (is the examples module in the root pom?)" >&2
  exit 1
fi
exec "$FTHP_HOME/bin/fthp-run" -np 4 ${FTHP_RUN_OPTS:-} -- -cp "$FTHP_HOME/$examples_jar" org.fthp.examples.RingPi "$@"
