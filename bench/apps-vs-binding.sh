#!/usr/bin/env bash
# The two application ports on FTHP-J against the same Java code on Open MPI's own Java binding,
# unreplicated, interleaved: HPCG's GFLOP/s rating and CloverLeaf's cell updates per second, medians
# of REPS runs each, and their ratio (FTHP-J / binding: above 1 is faster). Not part of the suite.
#
#   bench/ompi-java-binding.sh /path/to/ompi      # once: the binding's classes (see bench/README.md)
#   REPS=5 NP=2 bench/apps-vs-binding.sh
#
# Knobs: REPS (3), NP (2), APPS ("hpcg cloverleaf"), and those of bench/binding-lib.sh (HPCG_NX, HPCG_SETS,
# HPCG_RT, CLOVER_DECK, CLOVER_STEPS, MPI_JAR, RUN_TIMEOUT).
#
# Both sides do the same work. HPCG left to itself (--rt) times a first set and fits as many sets into --rt
# as that speed allows; the side whose JIT is still compiling in that set (FTHP-J's data path is more Java
# code than the binding's) then runs fewer sets, so less of its run is compiled steady state, and HPCG's
# rating charges its setup time once per 10 sets: the two ratings would weigh different amounts of start-up.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
source "$BENCH_DIR/binding-lib.sh"
fthp_find_jdk
REPS="${REPS:-3}"
NP="${NP:-2}"
read -r -a APPS <<< "${APPS:-hpcg cloverleaf}"
out="$(mktemp -d /tmp/apps-vs-binding.XXXXXX)"
binding_init "$out"

run_one() {   # impl app rep
  local impl="$1" app="$2" rep="$3"
  run_app "$impl" "$NP" "$app" "$out/$1.$2.$3"
  echo "$impl $app run $rep: ${APP_FIGURE:-FAILED (see $out/$1.$2.$3/out.txt)}  [load $(cut -d' ' -f1-3 /proc/loadavg)]"
  [[ -n "$APP_FIGURE" ]] && echo "$APP_FIGURE" >> "$out/$impl.$app"
  return 0
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $NP ranks; binding: $MPI_JAR"
for ((rep = 1; rep <= REPS; rep++)); do
  for app in "${APPS[@]}"; do
    # alternate which side runs first, so a slow phase of the machine hits both alike
    if (( rep % 2 )); then order=(fthp binding); else order=(binding fthp); fi
    for impl in "${order[@]}"; do run_one "$impl" "$app" "$rep"; done
  done
done
echo
echo "| app | figure | Open MPI binding | FTHP-J | FTHP-J / binding |"
echo "| --- | --- | ---: | ---: | ---: |"
for app in "${APPS[@]}"; do
  b="$(median < "$out/binding.$app" 2>/dev/null || echo nan)"
  f="$(median < "$out/fthp.$app" 2>/dev/null || echo nan)"
  unit="$(app_unit "$app")"
  ratio="$(awk -v f="$f" -v b="$b" 'BEGIN { if (b + 0 > 0 && f + 0 > 0) printf "%.2f", f / b; else print "–" }')"
  echo "| $app | $unit | $b | $f | $ratio |"
done
echo
echo "medians of $REPS runs; load after: $(cut -d' ' -f1-3 /proc/loadavg); outputs in $out"
