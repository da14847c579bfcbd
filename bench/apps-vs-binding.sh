#!/usr/bin/env bash
# The two application ports on FTHP-J against the same Java code on Open MPI's own Java binding,
# unreplicated, interleaved: HPCG's GFLOP/s rating and CloverLeaf's cell updates per second, medians
# of REPS runs each, and their ratio (FTHP-J / binding: above 1 is faster). Not part of the suite.
#
#   bench/ompi-java-binding.sh /path/to/ompi      # once: the binding's classes (see bench/README.md)
#   REPS=5 NP=2 bench/apps-vs-binding.sh
#
# Knobs: REPS (3), NP (2), HPCG_NX (32), HPCG_SETS (60 timed sets of 50 CG iterations),
# HPCG_RT (10, in seconds: the running time HPCG fits its sets into when HPCG_SETS=0, which lets each run size its own
# work; with sets given it only keeps HPCG on the reference's path, as 0 would select its QuickPath), CLOVER_DECK
# (apps/cloverleaf/decks/clover_bm_short.in, 87 steps), CLOVER_STEPS (the deck's end_step instead, e.g. 500
# for a run long enough that start-up no longer counts), MPI_JAR (bench/target/ompi-java/mpi.jar), APPS
# ("hpcg cloverleaf").
#
# Both sides do the same work. HPCG left to itself (--rt) times a first set and fits as many sets into --rt
# as that speed allows; the side whose JIT is still compiling in that set (FTHP-J's data path is more Java
# code than the binding's) then runs fewer sets, so less of its run is compiled steady state, and HPCG's
# rating charges its setup time once per 10 sets: the two ratings would weigh different amounts of start-up.
# On the binding the programs' checkpoint calls do nothing (org.fthp.checkpoint.api.Checkpoint: another
# mpi implementation ahead on the class path means a job without checkpoint storage); fthp-run runs them
# without checkpoint storage too, so both sides do the same work.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
fthp_find_jdk
REPS="${REPS:-3}"
NP="${NP:-2}"
HPCG_NX="${HPCG_NX:-32}"
HPCG_RT="${HPCG_RT:-10}"
HPCG_SETS="${HPCG_SETS:-60}"
CLOVER_DECK="$(readlink -f "${CLOVER_DECK:-$ROOT/apps/cloverleaf/decks/clover_bm_short.in}")"
CLOVER_STEPS="${CLOVER_STEPS:-}"
MPI_JAR="${MPI_JAR:-$BENCH_DIR/target/ompi-java/mpi.jar}"
read -r -a APPS <<< "${APPS:-hpcg cloverleaf}"
FACADE_JAR="$ROOT/replication/target/fthp-mpi.jar"
[[ -f "$MPI_JAR" ]] || { echo "no Open MPI Java binding at $MPI_JAR: run bench/ompi-java-binding.sh first" >&2; exit 2; }
[[ -f "$FACADE_JAR" && -d "$ROOT/apps/hpcg/target/classes" && -d "$ROOT/apps/cloverleaf/target/classes" ]] \
  || { echo "build first: scripts/build.sh" >&2; exit 3; }
libdir=""
for d in $(mpicc --showme:libdirs 2>/dev/null) /usr/lib/x86_64-linux-gnu/openmpi/lib; do
  [[ -f "$d/libmpi_java.so" ]] && { libdir="$d"; break; }
done
[[ -n "$libdir" ]] || { echo "libmpi_java.so not found (Debian: libopenmpi-dev)" >&2; exit 2; }
mpirun=(mpirun --bind-to none); [[ "$(id -u)" == 0 ]] && mpirun+=(--allow-run-as-root)
out="$(mktemp -d /tmp/apps-vs-binding.XXXXXX)"
hpcg_work="--rt=$HPCG_RT"; [[ "$HPCG_SETS" != 0 ]] && hpcg_work+=" --sets=$HPCG_SETS"
if [[ -n "$CLOVER_STEPS" ]]; then
  # the same deck run for CLOVER_STEPS steps: end_step decides, end_time is moved out of its way
  deck="$out/$(basename "$CLOVER_DECK" .in)_${CLOVER_STEPS}.in"
  sed -E "s/end_step=[0-9]+/end_step=$CLOVER_STEPS/; s/end_time=[0-9.]+/end_time=1000.0/" "$CLOVER_DECK" > "$deck"
  CLOVER_DECK="$deck"
fi

# main class and arguments of each app; its figure is parsed from the output
app_main() {
  case "$1" in
    hpcg) echo "-cp $ROOT/apps/hpcg/target/classes org.fthp.apps.hpcg.Hpcg --nx=$HPCG_NX $hpcg_work --out=$2" ;;
    cloverleaf) echo "-cp $ROOT/apps/cloverleaf/target/classes org.fthp.apps.cloverleaf.CloverLeaf --in $CLOVER_DECK --out $2/clover.out" ;;
  esac
}
figure() {   # app output-file -> number
  case "$1" in
    hpcg) sed -n 's/.*rating of \([0-9.e+-]*\).*/\1/p' "$2" | head -n 1 ;;
    cloverleaf) sed -n -E 's/.* ms\/step, ([0-9.e+]+) cell updates.*/\1/p' "$2" | head -n 1 ;;
  esac
}

run_one() {   # impl app rep
  local impl="$1" app="$2" rep="$3" dir="$out/$1.$2.$3"
  mkdir -p "$dir"
  read -r -a args <<< "$(app_main "$app" "$dir")"
  # the class path of the app (args[1]) gets the binding's or FTHP-J's mpi classes in front
  if [[ "$impl" == fthp ]]; then
    (cd "$dir" && timeout 900 "$ROOT/bin/fthp-run" -np "$NP" -- "${args[@]}") >"$dir/out.txt" 2>&1 || true
  else
    args[1]="$MPI_JAR:$FACADE_JAR:${args[1]}"
    # the JVM options fthp-run gives its ranks (MpirunCommand), so only the MPI layer differs: the serial
    # the collector alone changes HPCG's rating on the binding by more than the gap being measured
    (cd "$dir" && timeout 900 "${mpirun[@]}" -np "$NP" "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
        -XX:+UseSerialGC -Djava.library.path="$libdir" "${args[@]}") >"$dir/out.txt" 2>&1 || true
  fi
  local f; f="$(figure "$app" "$dir/out.txt")"
  echo "$impl $app run $rep: ${f:-FAILED (see $dir/out.txt)}  [load $(cut -d' ' -f1-3 /proc/loadavg)]"
  [[ -n "$f" ]] && echo "$f" >> "$out/$impl.$app"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

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
  unit="GFLOP/s (HPCG rating, ${HPCG_NX}^3 per rank, $hpcg_work)"; [[ "$app" == cloverleaf ]] && unit="cell updates/s ($(basename "$CLOVER_DECK"))"
  ratio="$(awk -v f="$f" -v b="$b" 'BEGIN { if (b + 0 > 0 && f + 0 > 0) printf "%.2f", f / b; else print "–" }')"
  echo "| $app | $unit | $b | $f | $ratio |"
done
echo
echo "medians of $REPS runs; load after: $(cut -d' ' -f1-3 /proc/loadavg); outputs in $out"
