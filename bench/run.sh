#!/usr/bin/env bash
# FTHP-J benchmark: ping-pong and allreduce, native C vs the mpi facade (see bench/README.md).
#
#   bench/run.sh                 # REPS=5, prints a Markdown report
#   REPS=3 bench/run.sh
#   REPLICATED=1 bench/run.sh    # 2 logical ranks with full replication (4 processes) vs native C
#                                # on 4 processes doing the same (two concurrent ping-pongs, a 4-rank allreduce)
#
# Environment (all optional):
#   REPS=5              repetitions of every benchmark, interleaved C / Java / ...
#   NP=2                ranks for allreduce (ping-pong always uses 2)
#   ARRAYS=1            also run the Java ping-pong with byte[] (--arrays); 0 to skip (replicated: 0 unless set)
#   C_BIND=none         mpirun --bind-to for the native C runs (fthp-run uses none too: same placement)
#   FTHP_RUN=bin/fthp-run  launcher for the Java runs
#   FTHP_RUN_OPTS=      extra options for bin/fthp-run, placed before `--` (passed on to mpirun;
#                       fthp-run adds --bind-to none unless one is given)
#   JAVA_OPTS=          extra JVM options for the Java runs (after `--`)
#   SKIP_BUILD=1        do not build (use the existing jars)
#   SKIP_JAVA=1         native C only
#   MPI_JAR=/path/mpi.jar   Open MPI's own Java binding, for a JNI comparison (auto-detected
#                       next to libmpi if present; Debian does not ship it)
#   RUN_TIMEOUT=300     seconds before a single run is killed
#   RESULTS=dir         where result files go (default bench/target/results/<timestamp>)
#   MPI=openmpi         or mpich: native C built with mpicc.mpich and run by mpiexec.hydra, the facade
#                       run with fthp-run --mpi mpich (install: FTHP_MPI=mpich scripts/setup.sh)
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
cd "$ROOT"

REPS="${REPS:-5}"
REPLICATED="${REPLICATED:-0}"
NP="${NP:-2}"
# every logical rank gets a replica: twice the processes, so native C runs twice as many too
COPIES=1
if [[ "$REPLICATED" == 1 ]]; then
  COPIES=2
  ARRAYS="${ARRAYS:-0}"   # replicated byte[] on request: a run with it takes half as long again
fi
ARRAYS="${ARRAYS:-1}"
C_BIND="${C_BIND:-none}"
FTHP_RUN_OPTS="${FTHP_RUN_OPTS:-}"
JAVA_OPTS="${JAVA_OPTS:-}"
SKIP_BUILD="${SKIP_BUILD:-0}"
SKIP_JAVA="${SKIP_JAVA:-0}"
RUN_TIMEOUT="${RUN_TIMEOUT:-300}"
RESULTS="${RESULTS:-$BENCH_DIR/target/results/$(date +%Y%m%d-%H%M%S)}"
NATIVE="$BENCH_DIR/target/native"
VERSION=0.1.0-SNAPSHOT
BENCH_JAR="$BENCH_DIR/target/fthp-bench-$VERSION.jar"
FTHP_RUN="${FTHP_RUN:-$ROOT/bin/fthp-run}"
FACADE_JAR="$ROOT/replication/target/fthp-mpi.jar"

log() { printf '[bench] %s\n' "$*" >&2; }
has_fn() { declare -F "$1" >/dev/null 2>&1; }

# --------------------------------------------------------------------------- environment
if [[ -f "$ROOT/scripts/lib.sh" ]]; then
  # shellcheck source=/dev/null
  source "$ROOT/scripts/lib.sh"
fi

# JDK >= 22: fthp_find_jdk may export JAVA_HOME or print the JDK's path; accept either.
if has_fn fthp_find_jdk; then
  jdk_out="$(mktemp)"
  fthp_find_jdk >"$jdk_out" || { log "fthp_find_jdk failed"; }
  printed="$(tail -n 1 "$jdk_out" | tr -d '[:space:]')"
  rm -f "$jdk_out"
  if [[ -n "$printed" && -x "$printed/bin/java" ]]; then
    export JAVA_HOME="$printed"
  elif [[ -n "$printed" && -x "$printed" && "$printed" == */bin/java ]]; then
    JAVA_HOME="$(cd "$(dirname "$printed")/.." && pwd)"; export JAVA_HOME
  fi
fi
if [[ -z "${JAVA_HOME:-}" || ! -x "${JAVA_HOME}/bin/java" ]]; then
  for d in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-2[2-9]-jdk-* /usr/lib/jvm/java-2[2-9]-openjdk-*; do
    if [[ -x "$d/bin/java" ]]; then export JAVA_HOME="$d"; break; fi
  done
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [[ "$SKIP_JAVA" != 1 ]]; then
  jv="$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java\.specification\.version = //p')"
  if [[ -z "$jv" || "${jv%%.*}" -lt 22 ]]; then
    log "no JDK >= 22 found (got '${jv:-none}' from $JAVA); set JAVA_HOME. Running native C only."
    SKIP_JAVA=1
  fi
fi
export PATH="${JAVA_HOME:+$JAVA_HOME/bin:}$PATH"

MPI="${MPI:-openmpi}"
if [[ "$MPI" == mpich ]]; then
  if has_fn fthp_ensure_mpich; then fthp_ensure_mpich; fi
  MPICC=mpicc.mpich
  command -v mpicc.mpich >/dev/null || { log "mpicc.mpich not found (FTHP_MPI=mpich scripts/setup.sh)"; exit 1; }
  # hydra runs as root and oversubscribes without being told
  MPIRUN=(mpiexec.hydra)
  FTHP_RUN_OPTS="--mpi mpich $FTHP_RUN_OPTS"
else
  if has_fn fthp_ensure_openmpi; then fthp_ensure_openmpi; fi
  MPICC=mpicc
  command -v mpicc >/dev/null || { log "mpicc not found (install Open MPI: libopenmpi-dev openmpi-bin)"; exit 1; }
  command -v mpirun >/dev/null || { log "mpirun not found"; exit 1; }
  MPIRUN=(mpirun)
  if [[ "$(id -u)" == 0 ]]; then MPIRUN+=(--allow-run-as-root); fi
fi

# --------------------------------------------------------------------------- build
if [[ "$SKIP_JAVA" != 1 && "$SKIP_BUILD" != 1 ]]; then
  if has_fn fthp_ensure_maven; then fthp_ensure_maven; fi
  if has_fn fthp_ensure_built; then
    # Extra jar argument: rebuild also when the bench module is missing or stale.
    fthp_ensure_built "bench/target/fthp-bench-$VERSION.jar" || log "fthp_ensure_built failed"
  else
    log "building (mvn -q -B -DskipTests install) ..."
    mvn -q -B -DskipTests install || log "maven build failed"
  fi
  # fthp_ensure_built may not cover bench; rebuild it when missing or stale.
  if [[ ! -f "$BENCH_JAR" ]] || [[ -n "$(find "$BENCH_DIR/src/main" "$BENCH_DIR/pom.xml" -newer "$BENCH_JAR" -print -quit)" ]]; then
    log "building bench module ..."
    mvn -q -B -DskipTests -pl bench -am package || log "bench build failed"
  fi
fi
if [[ "$SKIP_JAVA" != 1 ]]; then
  if [[ ! -f "$BENCH_JAR" ]]; then log "missing $BENCH_JAR: native C only"; SKIP_JAVA=1
  elif [[ ! -x "$FTHP_RUN" ]]; then log "missing $FTHP_RUN: native C only"; SKIP_JAVA=1
  elif [[ ! -f "$FACADE_JAR" ]]; then log "warning: $FACADE_JAR not found; trying bin/fthp-run anyway"
  fi
fi

log "compiling native benchmarks ($MPICC -O2) into $NATIVE"
mkdir -p "$NATIVE"
"$MPICC" -O2 -o "$NATIVE/pingpong" "$BENCH_DIR/src/main/c/pingpong.c"
"$MPICC" -O2 -o "$NATIVE/allreduce" "$BENCH_DIR/src/main/c/allreduce.c"

# Open MPI's own Java binding (JNI), for comparison only if its mpi.jar exists: Debian ships the native
# half (libmpi_java.so) but not the classes; bench/ompi-java-binding.sh builds them from Open MPI's
# sources into bench/target/ompi-java/mpi.jar, found here.
if [[ -z "${MPI_JAR:-}" && "$MPI" != mpich ]]; then
  for d in "$BENCH_DIR/target/ompi-java" $(mpicc --showme:libdirs 2>/dev/null) /usr/lib/x86_64-linux-gnu/openmpi/lib /usr/share/java /usr/local/lib /opt/openmpi/lib; do
    if [[ -f "$d/mpi.jar" ]]; then MPI_JAR="$d/mpi.jar"; break; fi
  done
fi
JNI=0
if [[ "$REPLICATED" == 1 ]]; then
  # the binding has no replicas: its 2 processes beside C's 4 and the facade's 2 + 2 would compare nothing
  MPI_JAR=""
fi
if [[ "$SKIP_JAVA" != 1 && -n "${MPI_JAR:-}" && -f "$MPI_JAR" ]]; then
  # the native half sits with Open MPI's libraries, wherever the classes came from
  JNI_LIBDIR="$(dirname "$MPI_JAR")"
  for d in $(mpicc --showme:libdirs 2>/dev/null) /usr/lib/x86_64-linux-gnu/openmpi/lib; do
    if [[ -f "$d/libmpi_java.so" ]]; then JNI_LIBDIR="$d"; break; fi
  done
  JNI=1
  log "Open MPI JNI binding found: $MPI_JAR, native half in $JNI_LIBDIR (compared as 'jni')"
fi

# --------------------------------------------------------------------------- runs
mkdir -p "$RESULTS"
log "results in $RESULTS"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

# run <impl> <bench> <rep> <command...>: stdout -> .txt, stderr -> .err; a failure is recorded, not fatal.
run() {
  local impl="$1" bench="$2" rep="$3"; shift 3
  local out="$RESULTS/$impl.$bench.$rep.txt" err="$RESULTS/$impl.$bench.$rep.err" rc=0
  timeout --kill-after=10 "$RUN_TIMEOUT" "$@" >"$out" 2>"$err" || rc=$?
  if [[ $rc -ne 0 ]]; then
    log "rep $rep: $impl $bench FAILED (exit $rc); see $err"
    tail -n 5 "$err" | sed 's/^/[bench]   /' >&2 || true
  else
    log "rep $rep: $impl $bench ok"
  fi
}

# Command prefixes (run() needs real commands: `timeout` cannot run shell functions).
# shellcheck disable=SC2206
FR_OPTS=($FTHP_RUN_OPTS)
# shellcheck disable=SC2206
JOPTS=($JAVA_OPTS)
if [[ "$MPI" == mpich ]]; then
  C_RUN=("${MPIRUN[@]}" -bind-to "$C_BIND")
else
  C_RUN=("${MPIRUN[@]}" --oversubscribe --bind-to "$C_BIND")
fi
# bin/fthp-run -np N [FTHP_RUN_OPTS] -- [JAVA_OPTS] -cp bench.jar Main args
java_cmd() {
  local np="$1"; shift
  local replicas=()
  if [[ "$REPLICATED" == 1 ]]; then replicas=(--replicas "$np"); fi
  CMD=("$FTHP_RUN" -np "$np" "${replicas[@]}" "${FR_OPTS[@]}" -- "${JOPTS[@]}" -cp "$BENCH_JAR" "$@")
}
# mpirun -np N java -cp mpi.jar:bench.jar Main args   (Open MPI's JNI binding)
jni_cmd() {
  local np="$1"; shift
  CMD=("${MPIRUN[@]}" --bind-to none -np "$np" "$JAVA" --enable-native-access=ALL-UNNAMED "${JOPTS[@]}"
       -Djava.library.path="$JNI_LIBDIR"
       -cp "$MPI_JAR:$BENCH_JAR" "$@")
}

# One repetition runs every implementation once per benchmark. The order rotates from one repetition
# to the next, so no implementation always runs right after a JVM (or always first): on this machine
# a whole run can land in a slow state, several times slower than the next.
pingpong_runs=(c)
allreduce_runs=(c)
if [[ "$SKIP_JAVA" != 1 ]]; then
  pingpong_runs+=(java)
  allreduce_runs+=(java)
  if [[ "$ARRAYS" == 1 ]]; then pingpong_runs+=(java-arrays); fi
  if [[ "$JNI" == 1 ]]; then
    pingpong_runs+=(jni)
    if [[ "$ARRAYS" == 1 ]]; then pingpong_runs+=(jni-arrays); fi
    allreduce_runs+=(jni)
  fi
fi

# run_one <impl> <bench> <rep>
run_one() {
  local impl="$1" bench="$2" rep="$3" np=2 main=org.fthp.bench.PingPong args=()
  if [[ "$bench" == allreduce ]]; then np="$NP"; main=org.fthp.bench.AllReduce; fi
  if [[ "$impl" == *-arrays ]]; then args=(--arrays); fi
  case "$impl" in
    c)
      if [[ "$bench" == allreduce ]]; then
        run c allreduce "$rep" "${C_RUN[@]}" -np "$((NP * COPIES))" "$NATIVE/allreduce"
      else
        run c pingpong "$rep" "${C_RUN[@]}" -np "$((2 * COPIES))" "$NATIVE/pingpong"
      fi ;;
    java|java-arrays) java_cmd "$np" "$main" "${args[@]}"; run "$impl" "$bench" "$rep" "${CMD[@]}" ;;
    jni|jni-arrays) jni_cmd "$np" "$main" "${args[@]}"; run "$impl" "$bench" "$rep" "${CMD[@]}" ;;
  esac
}

for ((rep = 1; rep <= REPS; rep++)); do
  for bench in pingpong allreduce; do
    if [[ "$bench" == pingpong ]]; then impls=("${pingpong_runs[@]}"); else impls=("${allreduce_runs[@]}"); fi
    n=${#impls[@]}
    for ((i = 0; i < n; i++)); do
      run_one "${impls[$(((i + rep - 1) % n))]}" "$bench" "$rep"
    done
  done
done

# --------------------------------------------------------------------------- report
echo
echo "_Load average (1, 5, 15 min) at the start: $LOAD_BEFORE; at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores. Above the core count the figures measure the scheduler, not the code._"
echo
if [[ "$REPLICATED" == 1 ]]; then
  echo "_Replicated: the facade runs $NP logical ranks, each with a replica ($((2 * NP)) processes);"
  echo "native C runs $((2 * NP)) processes: two concurrent ping-pongs, and a $((2 * NP))-rank allreduce._"
  echo
fi
REPORT_SRC="$BENCH_DIR/src/main/java/org/fthp/bench/BenchReport.java"
if { [[ -f "$BENCH_JAR" ]] && "$JAVA" -cp "$BENCH_JAR" org.fthp.bench.BenchReport "$RESULTS" >"$RESULTS/report.md" 2>/dev/null; } ||
   "$JAVA" "$REPORT_SRC" "$RESULTS" >"$RESULTS/report.md"; then   # single-file source launch, any JDK >= 17
  cat "$RESULTS/report.md"
  log "report saved to $RESULTS/report.md"
else
  log "BenchReport failed; raw results:"
  for f in "$RESULTS"/*.txt; do echo "== $(basename "$f")"; cat "$f"; done
fi
if [[ "$SKIP_JAVA" == 1 ]]; then echo "_Java runs skipped (see messages above)._"; fi
if [[ "$JNI" != 1 && "$REPLICATED" == 1 ]]; then echo "_Open MPI JNI binding not compared: it runs no replicas._";
elif [[ "$JNI" != 1 ]]; then echo "_Open MPI JNI binding not compared: no mpi.jar found (set MPI_JAR)._"; fi
