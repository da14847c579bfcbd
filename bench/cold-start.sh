#!/usr/bin/env bash
# Java programs from their first second, on FTHP-J against Open MPI's own Java binding: the two application
# ports and a ping-pong, each run as a user runs it, with no warm-up phase, so the figures include whatever the
# JVMs compile, load and link on the way. Not part of the suite.
#
#   bench/ompi-java-binding.sh /path/to/ompi      # once: the binding's classes (see bench/README.md)
#   bench/cold-start.sh                           # REPS=5
#   REPLICATED=1 bench/cold-start.sh              # also the apps replicated, 4 + 4 (reported, oversubscribed here)
#   REPS=1 APPS=hpcg HPCG_SETS=2 ROUNDS=1000 bench/cold-start.sh      # a quick look that the pieces run
#   VARIANT_OPTS=-XX:TieredStopAtLevel=1 bench/cold-start.sh   # also FTHP-J with these rank options
#   VARIANT_RUN_OPTS="--bind-to none" bench/cold-start.sh    # also FTHP-J with these fthp-run options
#
# One repetition runs each benchmark once on FTHP-J (bin/fthp-run -np NP, no replicas) and once on the binding
# (mpirun -np NP java, the binding's mpi classes ahead of FTHP-J's, the JVM options fthp-run gives its ranks), back
# to back, the side that goes first alternating from one repetition to the next:
#   hpcg        HPCG, HPCG_NX^3 per rank, HPCG_SETS timed sets: its GFLOP/s rating and the job's wall time
#   cloverleaf  CloverLeaf's short deck (clover_bm_short.in): cell updates per second and the job's wall time
#   pingpong    org.fthp.bench.ColdPingPong: byte[] send/recv between ranks 0 and 1, BLOCKS blocks of ROUNDS round
#               trips of each size in SIZES from MPI_Init on, one-way time per size of the first block (the
#               strict figure) and of the fastest block (a "best of 3, no other warm-up" figure)
# With VARIANT_OPTS or VARIANT_RUN_OPTS set, a third side, fthp-variant, runs FTHP-J again with those JVM options for
# its ranks and those fthp-run options, in the same rotation (reported against fthp and against the binding).
# Placement: the binding as a user's plain mpirun places it (BINDING_BIND=none: unbound), FTHP-J as fthp-run does
# (FTHP_RUN_OPTS="--bind-to none": unbound).
# With REPLICATED=1 the apps run again as REPLICATED_NP ranks + REPLICATED_NP replicas against the binding on
# REPLICATED_NP ranks (fthp-rep<N> against binding-np<N>).
# The report (org.fthp.bench.ColdStartReport, also in RESULTS/report.md): per figure each side's median, range and
# spread (slowest over fastest repetition), the ratio FTHP-J / binding taken within each repetition (median, range,
# how many repetitions FTHP-J was at least as good), and FTHP-J's spread over the binding's.
#
# Knobs: REPS (5), NP (2), APPS ("hpcg cloverleaf"), PINGPONG (1; 0 skips it), ROUNDS (20000), BLOCKS (3), SIZES
# (8,1024,65536,1048576), REPLICATED (0), REPLICATED_NP (4), RESULTS (bench/target/cold-start/<time>), and those of
# bench/binding-lib.sh (HPCG_NX, HPCG_SETS, HPCG_RT, CLOVER_DECK, CLOVER_STEPS, MPI_JAR, RUN_TIMEOUT).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
source "$BENCH_DIR/binding-lib.sh"
fthp_find_jdk
REPS="${REPS:-5}"
NP="${NP:-2}"
read -r -a APPS <<< "${APPS-hpcg cloverleaf}"   # APPS= (empty): the ping-pong alone
PINGPONG="${PINGPONG:-1}"
ROUNDS="${ROUNDS:-20000}"
BLOCKS="${BLOCKS:-3}"
SIZES="${SIZES:-8,1024,65536,1048576}"
REPLICATED="${REPLICATED:-0}"
REPLICATED_NP="${REPLICATED_NP:-4}"
RESULTS="${RESULTS:-$BENCH_DIR/target/cold-start/$(date +%Y%m%d-%H%M%S)}"
BENCH_JAR="$BENCH_DIR/target/fthp-bench-0.1.0-SNAPSHOT.jar"
for n in "$REPS" "$NP" "$ROUNDS" "$BLOCKS" "$REPLICATED_NP"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "cold-start.sh: REPS, NP, ROUNDS, BLOCKS and REPLICATED_NP take a positive integer, not '$n'" >&2; exit 2; }
done
[[ -f "$BENCH_JAR" ]] || { echo "build first: scripts/build.sh (no $BENCH_JAR)" >&2; exit 3; }
mkdir -p "$RESULTS"
binding_init "$RESULTS"
# fthp-run gives its ranks the AOT cache scripts/build.sh makes; a tree built by Maven alone has none
[[ -f "$ROOT/replication/target/fthp-mpi.aot" ]] \
  || echo "cold-start.sh: no AOT cache (replication/target/fthp-mpi.aot): FTHP-J's ranks start without one; scripts/build.sh makes it" >&2

load() { cut -d' ' -f1-3 /proc/loadavg; }

# app LABEL IMPL NP APP REP: one run; its result line "app <name> <rating> <wall s>" into RESULTS/LABEL.APP.REP.txt
app() {
  local label="$1" impl="$2" np="$3" name="$4" rep="$5"
  local dir="$RESULTS/$label.$name.$rep"
  run_app "$impl" "$np" "$name" "$dir"
  if [[ -n "$APP_FIGURE" ]]; then
    echo "app $name $APP_FIGURE $APP_WALL" > "$dir.txt"
  else
    : > "$dir.txt"
  fi
  echo "rep $rep: $label $name ${APP_FIGURE:-FAILED (see $dir/out.txt)}, ${APP_WALL} s  [load $(load)]"
}

# pingpong LABEL IMPL REP: one ColdPingPong run, its lines into RESULTS/LABEL.pingpong.REP.txt (stderr: .err)
pingpong() {
  local label="$1" impl="$2" rep="$3" base="$RESULTS/$1.pingpong.$3"
  java_job "$impl" 2 "$BENCH_JAR" org.fthp.bench.ColdPingPong --rounds "$ROUNDS" --sizes "$SIZES" --blocks "$BLOCKS"
  (cd "$RESULTS" && timeout --kill-after=10 "$RUN_TIMEOUT" "${CMD[@]}") >"$base.txt" 2>"$base.err" || true
  local line
  line="$(awk '$1 == "coldpingpong" {printf "%s B %s us; ", $2, $3}' "$base.txt")"
  echo "rep $rep: $label pingpong ${line:-FAILED (see $base.err)}  [load $(load)]"
}

echo "cold-start.sh: commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); load $(load) on $(nproc) cores;" \
     "$NP ranks; binding $MPI_JAR by $(placement binding); FTHP-J by $(placement fthp); results in $RESULTS"
for ((rep = 1; rep <= REPS; rep++)); do
  # alternate which side runs first, so a slow phase of the machine hits both alike
  if variant_wanted; then
    # three sides: each goes first, second and last in turn
    sides=(fthp fthp-variant binding)
    order=("${sides[@]:$(( rep % 3 ))}" "${sides[@]:0:$(( rep % 3 ))}")
  elif (( rep % 2 )); then order=(fthp binding); else order=(binding fthp); fi
  for name in "${APPS[@]}"; do
    for impl in "${order[@]}"; do app "$impl" "$impl" "$NP" "$name" "$rep"; done
  done
  if [[ "$PINGPONG" == 1 ]]; then
    for impl in "${order[@]}"; do pingpong "$impl" "$impl" "$rep"; done
  fi
  if [[ "$REPLICATED" == 1 ]]; then
    for name in "${APPS[@]}"; do
      for impl in "${order[@]}"; do
        if [[ "$impl" == fthp-variant ]]; then
          continue
        elif [[ "$impl" == fthp ]]; then
          app "fthp-rep$REPLICATED_NP" fthp-replicated "$REPLICATED_NP" "$name" "$rep"
        else
          app "binding-np$REPLICATED_NP" binding "$REPLICATED_NP" "$name" "$rep"
        fi
      done
    done
  fi
done

pairs=(fthp:binding)
variant_wanted && pairs+=(fthp-variant:fthp fthp-variant:binding)
[[ "$REPLICATED" == 1 ]] && pairs+=("fthp-rep$REPLICATED_NP:binding-np$REPLICATED_NP")
{
  echo
  echo "## Cold start: FTHP-J against Open MPI's Java binding, no warm-up"
  echo
  echo "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), REPS=$REPS NP=$NP."
  for name in "${APPS[@]}"; do echo "- $name: $(app_unit "$name")"; done
  [[ "$PINGPONG" == 1 ]] && echo "- ping-pong: byte[], $BLOCKS blocks of $ROUNDS round trips of each of $SIZES bytes, back to back: the first block and the fastest"
  variant_wanted && echo "- fthp-variant: FTHP-J with the rank options ${VARIANT_OPTS:-(none)}, placed by $(placement fthp-variant)"
  echo "- placement: the binding by $(placement binding), FTHP-J by $(placement fthp)"
  [[ "$REPLICATED" == 1 ]] && echo "- replicated: fthp-rep$REPLICATED_NP = $REPLICATED_NP ranks + $REPLICATED_NP replicas, binding-np$REPLICATED_NP = $REPLICATED_NP ranks"
  echo
  "$JAVA_HOME/bin/java" -cp "$BENCH_JAR" org.fthp.bench.ColdStartReport "$RESULTS" "${pairs[@]}"
  echo "load after: $(load)"
} | tee "$RESULTS/report.md"
