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
# so no scheduling in the figure), the facade against the bare downcalls, and the CPU of SmallExchange's loop
# (iRecv, iSend, waitAll) to itself at 128 B and 2 KiB, the facade against Open MPI's binding, REPS times each,
# interleaved, with the heap bytes each loop allocates
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
selfloop() {   # label classpath args...: SelfLoop's line, labelled
  local label=$1 cp=$2; shift 2
  timeout 300 "${SELF[@]}" "$JAVA" "${JOPTS[@]}" -Djava.library.path="$JNI_LIBDIR" -cp "$cp" org.fthp.bench.SelfLoop \
    "$@" 2>/dev/null | awk -v l="$label" '$1 == "selfloop" {$1 = l; print}' >> "$self" || true
}
for ((r = 1; r <= REPS; r++)); do
  selfloop facade "$FACADE_JAR:$BENCH_JAR"
  selfloop ffm "$FACADE_JAR:$BENCH_JAR" --ffm
  # SmallExchange's iRecv, iSend, waitAll to itself, direct buffers: many short slices, the fastest kept
  for bytes in 128 2048; do
    selfloop exchange-fthp "$FACADE_JAR:$BENCH_JAR" --exchange --bytes "$bytes" --slices 300 --per-slice 10000
    if [[ -f "$MPI_JAR" ]]; then
      selfloop exchange-binding "$MPI_JAR:$BENCH_JAR" --exchange --bytes "$bytes" --slices 300 --per-slice 10000
    fi
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
    label, _, size, median, fastest, slowest, allocated = line.split()
    # the send-and-receive loops: the median slice; the exchanges (short slices): the fastest
    ns[(label, int(size))].append(float(fastest if label.startswith("exchange") else median))
    heap[(label, int(size))].append(float(allocated))
print()
print(f"one process to itself, CPU per loop, median of {sys.argv[2]} runs: an 8 B send and receive (each run the "
      "median of its slices); SmallExchange's iRecv, iSend, waitAll (each run its fastest slice)")
print("| | bytes | ns | runs | heap bytes |")
print("| --- | ---: | ---: | ---: | ---: |")
for kind, label in (("ffm", "send+recv, bare downcalls"), ("facade", "send+recv, FTHP-J"),
                    ("exchange-binding", "exchange, binding"), ("exchange-fthp", "exchange, FTHP-J")):
    for size in sorted(s for k, s in ns if k == kind):
        v = ns[(kind, size)]
        print(f"| {label} | {size} | {statistics.median(v):.1f} | {min(v):.1f}-{max(v):.1f} "
              f"| {statistics.median(heap[(kind, size)]):.0f} |")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
