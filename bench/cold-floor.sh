#!/usr/bin/env bash
# Where the cold cost of a small message sits: the warm-up-free ping-pong (ColdPingPong's 20 000 round trips per
# size, timed from MPI_Init) on Open MPI's Java binding and on FTHP-J, beside ColdFloor, the same ping-pong straight
# over the native calls with none of the facade, through each way Java can reach MPI. All sides run interleaved,
# the order rotating per repetition, the floors under plain mpirun with the binding side's JVM options. Not part of
# the suite.
#
#   bench/cold-floor.sh                           # REPS=5, FLOORS="ffm"
#   FLOORS="ffm jni" REPS=3 bench/cold-floor.sh
#
# Sides: binding (ColdPingPong on the binding), fthp (ColdPingPong through fthp-run; FTHP=0 leaves it out),
# floor-<path> for each path in FLOORS (ColdFloor --path <path>), fthp-variant when VARIANT_OPTS is set (FTHP-J
# with those rank options, e.g. a runtime switch). The report (ColdStartReport) sets each side against the binding
# and the floors against floor-ffm. Knobs: REPS (5), FLOORS (ffm), FTHP (1), ROUNDS (20000), SIZES
# (8,1024,65536,1048576), FLOOR_OPTS (extra JVM options for the floors' ranks), RESULTS, MPI_JAR, RUN_TIMEOUT.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
source "$BENCH_DIR/binding-lib.sh"
fthp_find_jdk
REPS="${REPS:-5}"
read -r -a FLOORS <<< "${FLOORS:-ffm}"
FTHP="${FTHP:-1}"
ROUNDS="${ROUNDS:-20000}"
SIZES="${SIZES:-8,1024,65536,1048576}"
read -r -a FLOOR_OPTS_ARRAY <<< "${FLOOR_OPTS:-}"
RESULTS="${RESULTS:-$BENCH_DIR/target/cold-floor/$(date +%Y%m%d-%H%M%S)}"
BENCH_JAR="$BENCH_DIR/target/fthp-bench-0.1.0-SNAPSHOT.jar"
[[ "$REPS" =~ ^[1-9][0-9]*$ && "$ROUNDS" =~ ^[1-9][0-9]*$ ]] \
  || { echo "cold-floor.sh: REPS and ROUNDS take a positive integer" >&2; exit 2; }
[[ -f "$BENCH_JAR" ]] || { echo "build first: scripts/build.sh (no $BENCH_JAR)" >&2; exit 3; }
mkdir -p "$RESULTS"
binding_init "$RESULTS"

load() { cut -d' ' -f1-3 /proc/loadavg; }

# side LABEL REP: one run of that side, its lines into RESULTS/LABEL.pingpong.REP.txt (stderr: .err)
side() {
  local label="$1" rep="$2" base="$RESULTS/$1.pingpong.$2"
  case "$label" in
    binding|fthp|fthp-variant)
      java_job "$label" 2 "$BENCH_JAR" org.fthp.bench.ColdPingPong --rounds "$ROUNDS" --sizes "$SIZES" ;;
    floor-*)
      CMD=("${BINDING_MPIRUN[@]}" -np 2 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC
           "${FLOOR_OPTS_ARRAY[@]}" -cp "$FACADE_JAR:$BENCH_JAR" org.fthp.bench.ColdFloor --path "${label#floor-}"
           --rounds "$ROUNDS" --sizes "$SIZES") ;;
  esac
  (cd "$RESULTS" && timeout --kill-after=10 "$RUN_TIMEOUT" "${CMD[@]}") >"$base.txt" 2>"$base.err" || true
  local line
  line="$(awk '$1 == "coldpingpong" {printf "%s B %s us; ", $2, $3} $1 == "coldjit" {printf "jit %s ms", $2}' "$base.txt")"
  echo "rep $rep: $label ${line:-FAILED (see $base.err)}  [load $(load)]"
}

sides=(binding)
[[ "$FTHP" == 1 ]] && sides+=(fthp)
[[ -n "${VARIANT_OPTS:-}" ]] && sides+=(fthp-variant)
for f in "${FLOORS[@]}"; do sides+=("floor-$f"); done
echo "cold-floor.sh: commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); load $(load);" \
     "sides ${sides[*]}; results in $RESULTS"
for ((rep = 1; rep <= REPS; rep++)); do
  n=${#sides[@]}
  order=("${sides[@]:$(( rep % n ))}" "${sides[@]:0:$(( rep % n ))}")
  for label in "${order[@]}"; do side "$label" "$rep"; done
done

pairs=()
for s in "${sides[@]}"; do [[ "$s" != binding ]] && pairs+=("$s:binding"); done
for f in "${FLOORS[@]}"; do [[ "$f" != ffm && " ${FLOORS[*]} " == *" ffm "* ]] && pairs+=("floor-$f:floor-ffm"); done
{
  echo
  echo "## Cold floor: the native-call path alone against the binding and FTHP-J, no warm-up"
  echo
  echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), REPS=$REPS, $ROUNDS round trips of each of $SIZES bytes."
  [[ -n "${FLOOR_OPTS:-}" ]] && echo "- floors' rank options: $FLOOR_OPTS"
  [[ -n "${VARIANT_OPTS:-}" ]] && echo "- fthp-variant: FTHP-J with the rank options $VARIANT_OPTS"
  echo
  "$JAVA_HOME/bin/java" -cp "$BENCH_JAR" org.fthp.bench.ColdStartReport "$RESULTS" "${pairs[@]}"
  echo "load after: $(load)"
} | tee "$RESULTS/report.md"
