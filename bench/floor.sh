#!/usr/bin/env bash
# Where the small-message floor lies (issue 23's "8 B <= 1.5x native C"): 2-rank ping-pong at 8, 64 and
# 512 bytes, interleaved, REPS times each, medians of the one-way times:
#   c            native C, blocking MPI_Send/MPI_Recv (bench/src/main/c/pingpong.c)
#   c-nb         native C, MPI_Isend/MPI_Irecv completed by MPI_Test loops: what FTHP-J's rule allows
#   ffm-floor    Java over the EMPI downcalls alone, the same nonblocking calls, a byte[] copied in and out
#                of one native buffer (org.fthp.bench.FfmFloor): no header, pool, objects or checks
#   binding      Open MPI's own Java binding, byte[] (bench/ompi-java-binding.sh builds it; skipped if absent)
#   fthp         the facade, byte[] (org.fthp.bench.PingPong --arrays), under plain mpirun
# Usage: REPS=5 bench/floor.sh   (builds nothing: run bench/run.sh or mvn install first)
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$BENCH_DIR/.." && pwd)"
# shellcheck source=/dev/null
source "$ROOT/scripts/lib.sh"
fthp_find_jdk >/dev/null
JAVA="${JAVA_HOME:?}/bin/java"
REPS="${REPS:-5}"
SIZES=8,64,512
BENCH_JAR="$BENCH_DIR/target/fthp-bench-0.1.0-SNAPSHOT.jar"
FACADE_JAR="$ROOT/replication/target/fthp-mpi.jar"
MPI_JAR="${MPI_JAR:-$BENCH_DIR/target/ompi-java/mpi.jar}"
JNI_LIBDIR="${JNI_LIBDIR:-/usr/lib/x86_64-linux-gnu/openmpi/lib}"
NATIVE="$BENCH_DIR/target/native"
mkdir -p "$NATIVE"
mpicc -O2 -o "$NATIVE/pingpong" "$BENCH_DIR/src/main/c/pingpong.c"
MPIRUN=(mpirun --oversubscribe --bind-to none -np 2)
[[ $EUID -eq 0 ]] && MPIRUN=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2)
JOPTS=(--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC)
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

run() {   # label command...: the "<kind> <bytes> <one-way µs> ..." lines, labelled
  local label=$1; shift
  timeout 300 "$@" 2>/dev/null | awk -v l="$label" '$1 == "pingpong" || $1 == "ffmfloor" {print l, $2, $3}' >> "$out" || true
}

for ((r = 1; r <= REPS; r++)); do
  run c "${MPIRUN[@]}" "$NATIVE/pingpong"
  run c-nb "${MPIRUN[@]}" "$NATIVE/pingpong" --nonblocking
  run ffm-floor "${MPIRUN[@]}" "$JAVA" "${JOPTS[@]}" -cp "$FACADE_JAR:$BENCH_JAR" org.fthp.bench.FfmFloor
  if [[ -f "$MPI_JAR" ]]; then
    run binding "${MPIRUN[@]}" "$JAVA" -Djava.library.path="$JNI_LIBDIR" -XX:+UseSerialGC \
      -cp "$MPI_JAR:$BENCH_JAR" org.fthp.bench.PingPong --arrays --sizes "$SIZES"
  fi
  run fthp "${MPIRUN[@]}" "$JAVA" "${JOPTS[@]}" -cp "$FACADE_JAR:$BENCH_JAR" org.fthp.bench.PingPong \
    --arrays --sizes "$SIZES"
done

python3 - "$out" "$REPS" <<'PY'
import sys, statistics, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    label, size, us = line.split()
    if int(size) in (8, 64, 512):
        d[(label, int(size))].append(float(us))
labels = [l for l in ("c", "c-nb", "ffm-floor", "binding", "fthp") if any(k[0] == l for k in d)]
print(f"one-way µs, medians of {sys.argv[2]} interleaved runs (ratio to c)")
print("| size | " + " | ".join(labels) + " |")
print("| ---: |" + " ---: |" * len(labels))
for size in (8, 64, 512):
    c = statistics.median(d[("c", size)]) if d[("c", size)] else float("nan")
    cells = []
    for l in labels:
        v = d[(l, size)]
        cells.append(f"{statistics.median(v):.3f} ({statistics.median(v) / c:.2f})" if v else "-")
    print(f"| {size} B | " + " | ".join(cells) + " |")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
