#!/usr/bin/env bash
# Replicate, checkpoint, or both? The paper's §VII experiment on this machine (not part of
# the suite). Runs the HPCG port on the same P processes under the same Weibull failure process in the
# paper's modes, several seeds each, and prints measured efficiency next to the model's prediction.
#
#   bench/efficiency.sh                  # P=4, 3 seeds, per-process MTBF 120 s (system MTBF 30 s)
#   QUICK=1 bench/efficiency.sh          # 1 seed, 15 timed sets: a few minutes, for development
#   P=4 MTBF=200 SEEDS="1 2 3 4 5" SETS=60 bench/efficiency.sh
#   APP=cloverleaf bench/efficiency.sh   # the CloverLeaf port instead of HPCG
#
# Modes, all on P processes (P even), all with the same input per rank (HPCG: local grid NX^3 per rank, SETS timed
# sets of 50 CG iterations, fixed with --sets so no mode decides its work from its own speed; CloverLeaf: a deck of
# CLOVER_X x CLOVER_Y cells per rank, the ranks side by side in x, STEPS steps, written per rank count):
#   baseline                failure-free, P ranks, no injection
#   replicated-free         failure-free, P/2 ranks + P/2 replicas (measures replication's own overhead)
#   checkpoint-restart      P ranks, --checkpoint-interval auto (Daly from the measured cost and the job's
#                           MTTI) and --restart K: every failure ends the job, which resumes from its last
#                           checkpoint
#   replication             P/2 ranks + P/2 replicas, no checkpoints; --restart K, so a run that loses both
#                           copies of a rank starts over from the beginning (its time counts, its work not)
#   replication-checkpoint  P/2 + P/2, --checkpoint-interval auto (from the replicated job's MTTI), --restart K
# The failure modes all run --inject weibull --mtbf-per-process MTBF --shape SHAPE --seed N (the same seed in
# every mode; fthp-run advances it per incarnation), so the machine fails at the same rate in every mode.
#
# Efficiency, as the paper defines it (§VII): useful work per core per second over that of the failure-free
# unreplicated run on the same cores. HPCG is weak-scaled as in the paper: every rank has its own NX^3 block, so
# the replicated modes' P/2 logical ranks do half the baseline's work on the same P cores (half the processes
# repeat their twin's work). Work = the HPCG report's floating-point operations of the timed sets:
#     efficiency = (flops_run / wall_run) / (flops_baseline / wall_baseline)      (same P cores)
# with the baseline's median (CloverLeaf: work = cell updates); a run that does not end with a valid result counts
# 0, and so does a CloverLeaf run whose field summaries (full precision) differ from the failure-free run's of the
# same layout (failures must not change the answer). Replication is therefore
# capped at 0.5 / (1 + its overhead), as in the paper's Fig. 11.
#
# Time split (Fig. 12), per run, from fthp-run's --events log and exit summary: useful = the failure-free wall
# time of the same layout; checkpoint writes = the committed checkpoints' costs; rollback = work redone after
# restarts + relaunch (abort to new mpirun) + repairs (count x median survivor repair); log trimming; restart =
# the remainder (the relaunched program's start-up and restore, and noise).
#
# Output: RESULTS (default bench/target/efficiency/<time>/): MODE/seed-N/ (run.properties, events.jsonl,
# stdout.txt, stderr.txt, out/ with the HPCG report), calibration.properties (the model's calibration from
# these runs: `bin/fthp-plan --calibration FILE`), report.md (the tables printed, then the planner's advice for
# the measured job on that calibration), projection/ (with PROJECT=1: the model's projections on it,
# model/projection.sh; minutes of CPU when the measured checkpoint cost grows steeply with the ranks).
#
# Knobs: APP (hpcg | cloverleaf), P (4), MTBF (per process, s: 120), SHAPE (0.7), SEEDS ("1 2 3"), NX (16),
# SETS (400), CLOVER_X (200), CLOVER_Y (200), STEPS (3000), RESTARTS (40), MODES (all five, in order),
# RUN_TIMEOUT (900 s per run), MODEL_RUNS (4000), PROJECT (0), RESULTS, QUICK.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$root/scripts/lib.sh"
fthp_find_jdk >/dev/null

APP="${APP:-hpcg}"
P="${P:-4}"
MTBF="${MTBF:-120}"
SHAPE="${SHAPE:-0.7}"
NX="${NX:-16}"
CLOVER_X="${CLOVER_X:-200}"
CLOVER_Y="${CLOVER_Y:-200}"
RESTARTS="${RESTARTS:-40}"
RUN_TIMEOUT="${RUN_TIMEOUT:-900}"
MODEL_RUNS="${MODEL_RUNS:-4000}"
PROJECT="${PROJECT:-0}"
MODES="${MODES:-baseline replicated-free checkpoint-restart replication replication-checkpoint}"
if [[ "${QUICK:-0}" == 1 ]]; then
  SEEDS="${SEEDS:-1}"
  SETS="${SETS:-15}"
  STEPS="${STEPS:-300}"
else
  SEEDS="${SEEDS:-1 2 3}"
  SETS="${SETS:-400}"
  STEPS="${STEPS:-3000}"
fi
case "$APP" in
  hpcg|cloverleaf) ;;
  *) echo "efficiency.sh: APP must be hpcg or cloverleaf, not $APP" >&2; exit 2 ;;
esac
if (( P < 2 || P % 2 != 0 )); then
  echo "efficiency.sh: P must be even and >= 2 (half the processes are replicas in the replicated modes), not $P" >&2
  exit 2
fi
RESULTS="${RESULTS:-$root/bench/target/efficiency/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$RESULTS"

hpcg_classes="$root/apps/hpcg/target/classes"
clover_classes="$root/apps/cloverleaf/target/classes"
bench_jar="$root/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
model_jar="$root/model/target/fthp-model-0.1.0-SNAPSHOT.jar"
if [[ ! -f "$hpcg_classes/org/fthp/apps/hpcg/Hpcg.class" || ! -f "$clover_classes/org/fthp/apps/cloverleaf/CloverLeaf.class" \
      || ! -f "$bench_jar" || ! -f "$model_jar" \
      || ! -f "$root/replication/target/fthp-mpi.jar" ]]; then
  echo "efficiency.sh: building (scripts/build.sh)" >&2
  "$root/scripts/build.sh" -q >&2
fi

load() { cut -d' ' -f1 /proc/loadavg; }

# clover_deck RANKS: CloverLeaf's deck for RANKS ranks (CLOVER_X cells of x per rank, weak scaling), written once
clover_deck() {
  local deck="$RESULTS/decks/clover-$1.in"
  if [[ ! -f "$deck" ]]; then
    mkdir -p "$RESULTS/decks"
    cat >"$deck" <<DECK
*clover
 state 1 density=0.2 energy=1.0
 state 2 density=1.0 energy=2.5 geometry=rectangle xmin=0.0 xmax=5.0 ymin=0.0 ymax=2.0
 x_cells=$((CLOVER_X * $1))
 y_cells=$CLOVER_Y
 xmin=0.0
 ymin=0.0
 xmax=10.0
 ymax=10.0
 initial_timestep=0.04
 timestep_rise=1.5
 max_timestep=0.04
 end_time=1000000.0
 end_step=$STEPS
*endclover
DECK
  fi
  echo "$deck"
}
count() { if [[ -f "$2" ]]; then grep -c -- "$1" "$2" || true; else echo 0; fi; }

# run MODE SEED: one fthp-run job into $RESULTS/MODE/seed-SEED, in its own process group (ended by that
# group's id if it outlives RUN_TIMEOUT)
run() {
  local mode="$1" seed="$2" half=$((P / 2))
  local dir="$RESULTS/$mode/seed-$seed"
  mkdir -p "$dir/out"
  local inject=(--inject weibull --mtbf-per-process "$MTBF" --shape "$SHAPE" --seed "$seed")
  local opts
  case "$mode" in
    baseline) opts=(-np "$P") ;;
    replicated-free) opts=(-np "$half" --replicas "$half") ;;
    checkpoint-restart) opts=(-np "$P" "${inject[@]}" --checkpoint-interval auto --restart "$RESTARTS") ;;
    replication) opts=(-np "$half" --replicas "$half" "${inject[@]}" --restart "$RESTARTS") ;;
    replication-checkpoint) opts=(-np "$half" --replicas "$half" "${inject[@]}" --checkpoint-interval auto
                                  --restart "$RESTARTS") ;;
    *) echo "efficiency.sh: unknown mode $mode" >&2; exit 2 ;;
  esac
  local ranks replicas
  if [[ "$mode" == replicat* ]]; then ranks=$half; replicas=$half; else ranks=$P; replicas=0; fi
  local program
  if [[ "$APP" == cloverleaf ]]; then
    program=(-cp "$clover_classes" org.fthp.apps.cloverleaf.CloverLeaf --in "$(clover_deck "$ranks")"
             --out "$dir/out/clover.out" --summary-file "$dir/out/summary.txt")
  else
    program=(-cp "$hpcg_classes" org.fthp.apps.hpcg.Hpcg "--nx=$NX" "--sets=$SETS" "--out=$dir/out")
  fi
  local cmd=("$root/bin/fthp-run" "${opts[@]}" --events "$dir/events.jsonl" -- "${program[@]}")
  local before start end code=0
  before="$(load)"
  start="$(date +%s.%N)"
  setsid "${cmd[@]}" >"$dir/stdout.txt" 2>"$dir/stderr.txt" &
  local pid=$!
  # polled every 0.1 s: the wall time is taken when the poll sees the end, so the step bounds its error
  local waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if (( waited >= RUN_TIMEOUT * 10 )); then
      echo "efficiency.sh: $mode seed $seed still running after ${RUN_TIMEOUT}s: ending its process group" >&2
      kill -TERM -- "-$pid" 2>/dev/null || true
      sleep 10
      kill -KILL -- "-$pid" 2>/dev/null || true
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  wait "$pid" || code=$?
  end="$(date +%s.%N)"
  cat >"$dir/run.properties" <<EOF
mode=$mode
seed=$seed
ranks=$ranks
replicas=$replicas
mtbf.per.process=$MTBF
shape=$SHAPE
wall.seconds=$(python3 -c "print(round($end - $start, 3))")
exit=$code
load.before=$before
load.after=$(load)
command=${cmd[*]}
EOF
  printf 'efficiency.sh: %-24s seed %-3s exit %-3s %7.1f s  load %s -> %s  %s failures, %s restarts\n' \
    "$mode" "$seed" "$code" "$(python3 -c "print($end - $start)")" "$before" "$(load)" \
    "$(count '"failure-injected"' "$dir/events.jsonl")" "$(count '"job-restarted"' "$dir/events.jsonl")" >&2
}

{
  echo "# bench/efficiency.sh, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  if [[ "$APP" == cloverleaf ]]; then input="CLOVER_X=$CLOVER_X CLOVER_Y=$CLOVER_Y STEPS=$STEPS"; else input="NX=$NX SETS=$SETS"; fi
  echo "APP=$APP P=$P MTBF=$MTBF SHAPE=$SHAPE SEEDS=\"$SEEDS\" $input RESTARTS=$RESTARTS on $(nproc) cores;" \
       "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
} >"$RESULTS/report.md"

# seeds outermost, modes interleaved: a slow phase of the shared machine hits every mode alike
for seed in $SEEDS; do
  for mode in $MODES; do
    run "$mode" "$seed"
  done
done

"$JAVA_HOME/bin/java" -cp "$bench_jar:$model_jar" org.fthp.bench.efficiency.EfficiencyReport "$RESULTS" \
  --shape "$SHAPE" --model-runs "$MODEL_RUNS" >>"$RESULTS/report.md"
echo >>"$RESULTS/report.md"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULTS/report.md"

if [[ "$PROJECT" == 1 ]]; then
  {
    echo
    echo "## Projection on this calibration (model/projection.sh --calibration)"
    echo
    echo '```'
    "$root/model/projection.sh" "$RESULTS/projection" --calibration "$RESULTS/calibration.properties" \
      | grep -E '^(==|crossover)'
    echo '```'
  } >>"$RESULTS/report.md"
fi
work="$(sed -n 's/.*the baseline.s median wall time, \([0-9.]*\) s$/\1/p' "$RESULTS/report.md" | head -1)"
{
  echo
  echo "## fthp-plan on this calibration (the measured job: $P processes, ${work:-?} s of work)"
  echo
  echo '```'
  "$root/bin/fthp-plan" --processes "$P" --mtbf-per-process "$MTBF" --shape "$SHAPE" --work "${work:-60}" \
    --strikes live --calibration "$RESULTS/calibration.properties" || echo "(fthp-plan failed)"
  echo '```'
} >>"$RESULTS/report.md"
cat "$RESULTS/report.md"
echo "efficiency.sh: results in $RESULTS" >&2
