#!/usr/bin/env bash
# What a small send and receive cost the CPU from a rank's first call on (bench ColdSelf: one rank sends a byte[]
# to itself and receives it, ROUNDS times per size, each tenth timed by the main thread's CPU clock), side by side
# and interleaved: Open MPI's binding, FTHP-J, FTHP-J with its JNI path off (fthp-ffm), and the bare
# native-call floors (ColdFloor's paths). A CPU figure, so a loaded host changes it far less than a ping-pong's
# latency. Open MPI only (MPICH does not complete a send to self before its receive is posted). Not in the suite.
#
#   bench/cold-self.sh                                   # REPS=3, SIDES="binding fthp fthp-ffm ffm fat jni"
#   OPTS=-Xint bench/cold-self.sh                        # every side interpreted only: the per-call cost before any JIT
#   OPTS=-XX:TieredStopAtLevel=1 bench/cold-self.sh      # C1 only
#   ROUNDS=2000000 SIDES="binding fthp fthp-ffm" bench/cold-self.sh   # long enough for the last tenths to be C2's
#
# Prints each run's lines prefixed by repetition and side: "coldself <bytes> <CPU ns per send+recv over all>
# <x10: each tenth>" and "coldjit <ms>" (the compiler threads' CPU over the timed part).
# Knobs: REPS (3), SIDES, ROUNDS (20000), SIZES (8,512: sizes Open MPI sends to self at once), OPTS (JVM options for
# every side), MPI_JAR (bench/target/ompi-java/mpi.jar), RUN_TIMEOUT (120 s per run).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
source "$BENCH_DIR/binding-lib.sh"
fthp_find_jdk
REPS="${REPS:-3}"
read -r -a SIDES <<< "${SIDES:-binding fthp fthp-ffm ffm fat jni}"
ROUNDS="${ROUNDS:-20000}"
SIZES="${SIZES:-8,512}"
read -r -a OPTS_ARRAY <<< "${OPTS:-}"
RUN_TIMEOUT="${RUN_TIMEOUT:-120}"
BENCH_JAR="$BENCH_DIR/target/fthp-bench-0.1.0-SNAPSHOT.jar"
[[ "$REPS" =~ ^[1-9][0-9]*$ && "$ROUNDS" =~ ^[1-9][0-9]*$ ]] \
  || { echo "cold-self.sh: REPS and ROUNDS take a positive integer" >&2; exit 2; }
[[ -f "$BENCH_JAR" ]] || { echo "build first: scripts/build.sh (no $BENCH_JAR)" >&2; exit 3; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
binding_init "$work"
args=(--rounds "$ROUNDS" --sizes "$SIZES")
plain=("${BINDING_MPIRUN[@]}" -np 1 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC)
echo "cold-self.sh: commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'); load $(cut -d' ' -f1-3 /proc/loadavg);" \
     "OPTS=${OPTS:-}; sides ${SIDES[*]}"
for ((rep = 1; rep <= REPS; rep++)); do
  for side in "${SIDES[@]}"; do
    case "$side" in
      binding) cmd=("${plain[@]}" "${OPTS_ARRAY[@]}" -Djava.library.path="$BINDING_LIBDIR" -cp "$MPI_JAR:$FACADE_JAR:$BENCH_JAR"
                    org.fthp.bench.ColdSelf --path mpi "${args[@]}") ;;
      fthp) cmd=("$ROOT/bin/fthp-run" -np 1 -- "${OPTS_ARRAY[@]}" -cp "$BENCH_JAR" org.fthp.bench.ColdSelf --path mpi "${args[@]}") ;;
      fthp-ffm) cmd=("$ROOT/bin/fthp-run" -np 1 -- "${OPTS_ARRAY[@]}" -Dfthp.fastpath=ffm -cp "$BENCH_JAR"
                     org.fthp.bench.ColdSelf --path mpi "${args[@]}") ;;
      *) cmd=("${plain[@]}" "${OPTS_ARRAY[@]}" -cp "$FACADE_JAR:$BENCH_JAR" org.fthp.bench.ColdSelf --path "$side" "${args[@]}") ;;
    esac
    (cd "$work" && timeout --kill-after=10 "$RUN_TIMEOUT" "${cmd[@]}" 2>/dev/null || echo "failed ($side)") \
      | awk -v p="$rep $side" '/^cold|^failed/ {print p, $0}'
  done
done
