#!/usr/bin/env bash
# How many Java methods a small blocking send and receive enter, from the program's call to the native call, on
# FTHP-J and on Open MPI's binding: bench CallCount (one rank, a byte[] to itself) under a JVMTI agent that counts
# method entries (bench/src/main/c/call_count.c, compiled here with cc). Every method stays interpreted under it, so
# these are the calls a program's first messages make. Not part of the suite.
#
#   bench/call-count.sh                     # per send, then per send+recv, both sides; SIZE=8
#   SIDES=fthp TOP=40 bench/call-count.sh   # FTHP-J alone, the 40 most entered methods of each
#
# Prints "<side> <what> total <calls per call>" and, below each, the methods with their entries per call.
# Knobs: SIDES ("binding fthp"), SIZE (8; Open MPI completes a send to self up to 512 B), ROUNDS (100), TOP (60),
# MPI_JAR (bench/target/ompi-java/mpi.jar, built by bench/ompi-java-binding.sh).
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
source "$ROOT/scripts/lib.sh"
source "$BENCH_DIR/binding-lib.sh"
fthp_find_jdk
read -r -a SIDES <<< "${SIDES:-binding fthp}"
SIZE="${SIZE:-8}"
ROUNDS="${ROUNDS:-100}"
TOP="${TOP:-60}"
BENCH_JAR="$BENCH_DIR/target/fthp-bench-0.1.0-SNAPSHOT.jar"
for n in "$SIZE" "$ROUNDS" "$TOP"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "call-count.sh: SIZE, ROUNDS and TOP take an integer, not '$n'" >&2; exit 2; }
done
[[ -f "$BENCH_JAR" ]] || { echo "build first: scripts/build.sh (no $BENCH_JAR)" >&2; exit 3; }
out="$BENCH_DIR/target/call-count"
mkdir -p "$out"
binding_init "$out"
cc -O2 -shared -fPIC -I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux" -o "$out/libcallcount.so" \
  "$BENCH_DIR/src/main/c/call_count.c"
for side in "${SIDES[@]}"; do
  for what in sends pairs; do
    more=(); [[ "$what" == sends ]] && more=(--sends)
    java_job "$side" 1 "$BENCH_JAR" org.fthp.bench.CallCount --rounds "$ROUNDS" --size "$SIZE" "${more[@]}"
    # the agent goes in among the JVM options, ahead of the class path
    cmd=()
    for word in "${CMD[@]}"; do
      [[ "$word" == -cp ]] && cmd+=("-agentpath:$out/libcallcount.so")
      cmd+=("$word")
    done
    CALLS_PER="$ROUNDS" timeout --kill-after=10 "$RUN_TIMEOUT" "${cmd[@]}" 2>"$out/$side.$what.err" \
      | awk -v side="$side" -v what="$what" -v top="$TOP" '
          $1 == "callcount" && $2 == "total" { printf "%s %s total %s\n", side, what, $3; next }
          $1 == "callcount" && ++n <= top { printf "  %s %s\n", $2, $3 }'
  done
done
