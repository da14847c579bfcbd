# Sourced by the benchmarks that set FTHP-J beside Open MPI's own Java binding (bench/apps-vs-binding.sh,
# bench/cold-start.sh): how one Java program is launched on either with only the MPI layer different, and how the
# two application ports are run and their figures read. The caller sets ROOT (the checkout) and JAVA_HOME
# (scripts/lib.sh's fthp_find_jdk), then calls binding_init.
#
# Knobs read by binding_init: MPI_JAR (bench/target/ompi-java/mpi.jar), HPCG_NX (32), HPCG_SETS (60 timed sets of
# 50 CG iterations), HPCG_RT (10, in seconds: the running time HPCG fits its sets into when HPCG_SETS=0, which lets
# each run size its own work; with sets given it only keeps HPCG on the reference's path, as 0 would select its
# QuickPath), CLOVER_DECK (apps/cloverleaf/decks/clover_bm_short.in, 87 steps), CLOVER_STEPS (the deck's end_step
# instead, e.g. 500 for a run long enough that start-up no longer counts), RUN_TIMEOUT (900 s per run),
# BINDING_BIND (empty: mpirun's own placement, as a user's plain `mpirun -np 2 java ...` gets it, Open MPI 4.1
# binding each process to a core up to 2 processes; a --bind-to value such as none: that placement), FTHP_RUN_OPTS and
# VARIANT_RUN_OPTS (fthp-run options before "--" for the fthp and fthp-variant sides, e.g. --bind-to none).
#
# On the binding the programs' checkpoint calls do nothing (org.fthp.checkpoint.api.Checkpoint: another mpi
# implementation ahead on the class path means a job without checkpoint storage); fthp-run runs them without
# checkpoint storage too, so both sides do the same work.

# binding_init WORKDIR: checks what both sides need and settles the knobs; WORKDIR receives a rewritten deck
binding_init() {
  MPI_JAR="${MPI_JAR:-$ROOT/bench/target/ompi-java/mpi.jar}"
  FACADE_JAR="$ROOT/replication/target/fthp-mpi.jar"
  HPCG_NX="${HPCG_NX:-32}"
  HPCG_RT="${HPCG_RT:-10}"
  HPCG_SETS="${HPCG_SETS:-60}"
  CLOVER_DECK="$(readlink -f "${CLOVER_DECK:-$ROOT/apps/cloverleaf/decks/clover_bm_short.in}")"
  CLOVER_STEPS="${CLOVER_STEPS:-}"
  RUN_TIMEOUT="${RUN_TIMEOUT:-900}"
  read -r -a VARIANT_OPTS_ARRAY <<< "${VARIANT_OPTS:-}"
  read -r -a FTHP_RUN_OPTS_ARRAY <<< "${FTHP_RUN_OPTS:-}"
  read -r -a VARIANT_RUN_OPTS_ARRAY <<< "${VARIANT_RUN_OPTS:-}"
  BINDING_BIND="${BINDING_BIND:-}"
  [[ -f "$MPI_JAR" ]] || { echo "no Open MPI Java binding at $MPI_JAR: run bench/ompi-java-binding.sh first" >&2; exit 2; }
  [[ -f "$FACADE_JAR" && -d "$ROOT/apps/hpcg/target/classes" && -d "$ROOT/apps/cloverleaf/target/classes" ]] \
    || { echo "build first: scripts/build.sh" >&2; exit 3; }
  BINDING_LIBDIR=""
  local d
  for d in $(mpicc --showme:libdirs 2>/dev/null) /usr/lib/x86_64-linux-gnu/openmpi/lib; do
    [[ -f "$d/libmpi_java.so" ]] && { BINDING_LIBDIR="$d"; break; }
  done
  [[ -n "$BINDING_LIBDIR" ]] || { echo "libmpi_java.so not found (Debian: libopenmpi-dev)" >&2; exit 2; }
  BINDING_MPIRUN=(mpirun); [[ -n "$BINDING_BIND" ]] && BINDING_MPIRUN+=(--bind-to "$BINDING_BIND")
  [[ "$(id -u)" == 0 ]] && BINDING_MPIRUN+=(--allow-run-as-root)
  HPCG_WORK="--rt=$HPCG_RT"; [[ "$HPCG_SETS" != 0 ]] && HPCG_WORK+=" --sets=$HPCG_SETS"
  if [[ -n "$CLOVER_STEPS" ]]; then
    # the same deck run for CLOVER_STEPS steps: end_step decides, end_time is moved out of its way
    local deck
    deck="$1/$(basename "$CLOVER_DECK" .in)_${CLOVER_STEPS}.in"
    sed -E "s/end_step=[0-9]+/end_step=$CLOVER_STEPS/; s/end_time=[0-9.]+/end_time=1000.0/" "$CLOVER_DECK" > "$deck"
    CLOVER_DECK="$deck"
  fi
}

# variant_wanted: whether a third side, fthp-variant, runs (VARIANT_OPTS or VARIANT_RUN_OPTS set)
variant_wanted() { [[ -n "${VARIANT_OPTS:-}${VARIANT_RUN_OPTS:-}" ]]; }

# placement IMPL: what the side's placement is, for the reports
placement() {
  case "$1" in
    binding) echo "mpirun ${BINDING_BIND:+--bind-to }${BINDING_BIND:-default placement}" ;;
    fthp) echo "fthp-run ${FTHP_RUN_OPTS:-default placement}" ;;
    fthp-variant) echo "fthp-run ${VARIANT_RUN_OPTS:-${FTHP_RUN_OPTS:-default placement}}" ;;
  esac
}

# java_job IMPL NP CLASSPATH MAIN [ARGS...]: CMD=(the command line). IMPL: fthp (fthp-run -np NP FTHP_RUN_OPTS),
# fthp-variant (fthp-run -np NP VARIANT_RUN_OPTS, else FTHP_RUN_OPTS, with the rank JVM options in VARIANT_OPTS,
# e.g. a JIT option or a runtime switch), fthp-replicated
# (fthp-run -np NP --replicas NP) or binding (mpirun -np NP java with the binding's classes ahead of FTHP-J's)
java_job() {
  local impl="$1" np="$2" cp="$3"; shift 3
  case "$impl" in
    fthp) CMD=("$ROOT/bin/fthp-run" -np "$np" "${FTHP_RUN_OPTS_ARRAY[@]}" -- -cp "$cp" "$@") ;;
    fthp-variant)
      local run=("${FTHP_RUN_OPTS_ARRAY[@]}")
      [[ -n "${VARIANT_RUN_OPTS:-}" ]] && run=("${VARIANT_RUN_OPTS_ARRAY[@]}")
      CMD=("$ROOT/bin/fthp-run" -np "$np" "${run[@]}" -- "${VARIANT_OPTS_ARRAY[@]}" -cp "$cp" "$@") ;;
    fthp-replicated) CMD=("$ROOT/bin/fthp-run" -np "$np" --replicas "$np" -- -cp "$cp" "$@") ;;
    binding)
      local more=()
      (( np > $(nproc) )) && more=(--oversubscribe)
      # the JVM options fthp-run gives its ranks (MpirunCommand), so only the MPI layer differs: the serial
      # collector alone changes HPCG's rating on the binding by more than the gap being measured
      CMD=("${BINDING_MPIRUN[@]}" "${more[@]}" -np "$np" "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED
           -XX:+UseSerialGC -Djava.library.path="$BINDING_LIBDIR" -cp "$MPI_JAR:$FACADE_JAR:$cp" "$@") ;;
    *) echo "java_job: unknown implementation $impl" >&2; return 2 ;;
  esac
}

# app_job IMPL NP APP DIR: CMD=(the command that runs APP, hpcg or cloverleaf, its report files in DIR)
app_job() {
  local impl="$1" np="$2" app="$3" dir="$4"
  case "$app" in
    # shellcheck disable=SC2086
    hpcg) java_job "$impl" "$np" "$ROOT/apps/hpcg/target/classes" org.fthp.apps.hpcg.Hpcg --nx="$HPCG_NX" $HPCG_WORK \
            --out="$dir" ;;
    cloverleaf) java_job "$impl" "$np" "$ROOT/apps/cloverleaf/target/classes" org.fthp.apps.cloverleaf.CloverLeaf \
                  --in "$CLOVER_DECK" --out "$dir/clover.out" ;;
    *) echo "app_job: unknown app $app" >&2; return 2 ;;
  esac
}

# app_unit APP: what app_figure reads, for table headings
app_unit() {
  case "$1" in
    hpcg) echo "GFLOP/s (HPCG rating, ${HPCG_NX}^3 per rank, $HPCG_WORK)" ;;
    cloverleaf) echo "cell updates/s ($(basename "$CLOVER_DECK"))" ;;
  esac
}

# app_figure APP FILE: the app's own figure from its output (empty when the run gave none)
app_figure() {
  case "$1" in
    hpcg) sed -n 's/.*rating of \([0-9.e+-]*\).*/\1/p' "$2" | head -n 1 ;;
    cloverleaf) sed -n -E 's/.* ms\/step, ([0-9.e+]+) cell updates.*/\1/p' "$2" | head -n 1 ;;
  esac
}

# run_app IMPL NP APP DIR: runs it in DIR (created), output in DIR/out.txt; sets APP_FIGURE (empty: no result) and
# APP_WALL (seconds from launch to the launcher's exit)
run_app() {
  local impl="$1" np="$2" app="$3" dir="$4" t0
  mkdir -p "$dir"
  app_job "$impl" "$np" "$app" "$dir"
  t0=$(date +%s.%N)
  (cd "$dir" && timeout --kill-after=10 "$RUN_TIMEOUT" "${CMD[@]}") >"$dir/out.txt" 2>&1 || true
  APP_WALL="$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')"
  APP_FIGURE="$(app_figure "$app" "$dir/out.txt")"
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
