#!/usr/bin/env bash
# Writes the model's projections: per scenario a CSV, an efficiency-vs-processes PNG
# (like the paper's Fig. 11) and a time-split PNG (like Fig. 12), and crossover.csv; prints the tables.
#
#   model/projection.sh [OUTPUT_DIR] [--calibration FILE] [--runs N] [--seed S]
#
# OUTPUT_DIR defaults to model/target/projection. Without --calibration the costs are the paper's HPCG
# ones (model/src/main/resources/org/fthp/model/calibration/paper-hpcg.properties).
set -euo pipefail
MODEL_DIR="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
source "$MODEL_DIR/../scripts/lib.sh"
fthp_find_jdk >/dev/null

out="$MODEL_DIR/target/projection"
if [[ $# -gt 0 && "$1" != -* ]]; then
  out="$1"
  shift
fi
jar="$MODEL_DIR/target/fthp-model-0.1.0-SNAPSHOT.jar"
if [[ ! -f "$jar" || ! -d "$MODEL_DIR/target/lib" ]]; then
  (cd "$FTHP_HOME" && mvn -q -B -DskipTests -pl model package)
fi
exec "$JAVA_HOME/bin/java" -Djava.awt.headless=true -cp "$jar:$MODEL_DIR/target/lib/*" \
  org.fthp.model.projection.ProjectionMain "$out" "$@"
