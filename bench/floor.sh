#!/usr/bin/env bash
# Where the small-message floor lies (how close to native C a rule-abiding small send can get): 2-rank ping-pong at 8, 64 and
# 512 bytes, interleaved, REPS times each, medians of the one-way times:
#   c            native C, blocking MPI_Send/MPI_Recv (bench/src/main/c/pingpong.c)
#   c-nb         native C, MPI_Isend/MPI_Irecv completed by MPI_Test loops: what FTHP-J's rule allows
#   ffm-floor    Java over the EMPI downcalls alone, the same nonblocking calls, a byte[] copied in and out
#                of one native buffer (org.fthp.bench.FfmFloor): no header, pool, objects or checks
#   binding      Open MPI's own Java binding, byte[] (bench/ompi-java-binding.sh builds it; skipped if absent)
#   fthp         the facade, byte[] (org.fthp.bench.PingPong --arrays), under plain mpirun
# then the CPU one 8-byte send and receive costs one process sending to itself (org.fthp.bench.SelfLoop: no peer,
# so no scheduling in the figure), the facade against the bare downcalls, REPS times each, interleaved, with
# the heap bytes each send and receive allocates
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
# one process, bound to a core: its loop never waits for another to be scheduled
SELF=(mpirun --bind-to core -np 1)
[[ $EUID -eq 0 ]] && SELF=(mpirun --allow-run-as-root --bind-to core -np 1)
self="$(mktemp)"
trap 'rm -f "$out" "$self"' EXIT
for ((r = 1; r <= REPS; r++)); do
  for kind in facade ffm; do
    flag=(); [[ $kind == ffm ]] && flag=(--ffm)
    timeout 300 "${SELF[@]}" "$JAVA" "${JOPTS[@]}" -cp "$FACADE_JAR:$BENCH_JAR" org.fthp.bench.SelfLoop "${flag[@]}" \
      2>/dev/null | awk '$1 == "selfloop"' >> "$self" || true
  done
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
python3 - "$self" "$REPS" <<'PY'
import sys, statistics, collections
ns, heap = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    _, kind, size, median, fastest, slowest, allocated = line.split()
    ns[kind].append(float(median))
    heap[kind].append(float(allocated))
print()
print(f"one process, 8 B to itself: ns per send and receive, median of {sys.argv[2]} runs (each the median of its slices)")
print("| | ns | runs | heap bytes |")
print("| --- | ---: | ---: | ---: |")
for kind, label in (("ffm", "bare downcalls"), ("facade", "FTHP-J")):
    if ns[kind]:
        print(f"| {label} | {statistics.median(ns[kind]):.1f} | {min(ns[kind]):.1f}-{max(ns[kind]):.1f} "
              f"| {statistics.median(heap[kind]):.0f} |")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
