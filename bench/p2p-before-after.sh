#!/usr/bin/env bash
# Small point-to-point messages before and after a change, against native C and Open MPI's own Java binding,
# in one interleaved run. Per repetition: native C's ping-pong; PingPong --arrays (byte[]) under the before tree
# and under the after tree; SmallExchange (iRecv, iSend, waitAll between two ranks) under both trees and, when
# its mpi.jar is there, under the binding. Prints medians per kind, and ratios taken within each repetition
# (to C for the ping-pong, to the binding for the exchange), their median and range; once from each run's
# median slice, once from its fastest (steadier when other work shares the cores). Not part of the suite.
#
#   bench/p2p-before-after.sh /path/to/before-tree [/path/to/after-tree]     # after: this tree
#   REPS=5 SIZES=8,512 MPI_JAR=bench/target/ompi-java/mpi.jar bench/p2p-before-after.sh ...
#
# Both trees must be built (scripts/build.sh); the bench jar is the after tree's. The ranks run without the
# AOT cache in both trees (FTHP_AOT_CACHE=off): the figures are steady state, after JitWarmup.
set -euo pipefail
before="$(cd "$1" && pwd)"
after="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
REPS="${REPS:-5}"
SIZES="${SIZES:-8,512}"
MPI_JAR="${MPI_JAR:-$after/bench/target/ompi-java/mpi.jar}"
jar="$after/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
source "$after/scripts/lib.sh"
fthp_find_jdk
mpicc -O2 -o "$out/pingpong" "$after/bench/src/main/c/pingpong.c"
jni_lib="$(mpicc --showme:libdirs | awk '{print $1}')"
export FTHP_AOT_CACHE=off
mpirun=(mpirun)
if [[ "$(id -u)" == 0 ]]; then mpirun+=(--allow-run-as-root); fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((rep = 1; rep <= REPS; rep++)); do
  "${mpirun[@]}" --oversubscribe --bind-to none -np 2 "$out/pingpong" >"$out/c.pingpong.$rep" 2>/dev/null
  for tree in before after; do
    home="$before"; [[ "$tree" == after ]] && home="$after"
    "$home/bin/fthp-run" -np 2 -- -cp "$jar" org.fthp.bench.PingPong --arrays --sizes "$SIZES" \
      >"$out/$tree.pingpong.$rep" 2>/dev/null
    "$home/bin/fthp-run" -np 2 -- -cp "$jar" org.fthp.bench.SmallExchange >"$out/$tree.exchange.$rep" 2>/dev/null
  done
  if [[ -f "$MPI_JAR" ]]; then
    "${mpirun[@]}" --bind-to none -np 2 "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED \
      -Djava.library.path="$jni_lib" -cp "$MPI_JAR:$jar" org.fthp.bench.SmallExchange \
      >"$out/binding.exchange.$rep" 2>/dev/null
  fi
  echo "rep $rep done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
python3 - "$out" "$REPS" <<'PY'
import sys, os, statistics
out, reps = sys.argv[1], int(sys.argv[2])
# column of the median slice, and of the fastest slice (a steadier figure on a busy machine)
COLUMNS = {"pingpong": (2, 4), "exchange": (2, 3)}
def read(kind, bench, rep, fastest):
    path = f"{out}/{kind}.{bench}.{rep}"
    col = COLUMNS[bench][1 if fastest else 0]
    vals = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) > col and f[0] == bench:
                vals[int(f[1])] = float(f[col])
    return vals
def table(bench, kinds, base, fastest=False):
    print(f"{bench}, {'fastest' if fastest else 'median'} slice of each run, median over runs:")
    runs = {k: [read(k, bench, r, fastest) for r in range(1, reps + 1)] for k in kinds}
    sizes = sorted(set().union(*[set(v) for v in runs["after"]]))
    head = " | ".join(f"{k} (µs)" for k in kinds)
    ratios = [k for k in kinds if k != base]
    print(f"| {bench} size | {head} | " + " | ".join(f"{k} / {base}" for k in ratios) + " |")
    print("| ---: |" + " ---: |" * (len(kinds) + len(ratios)))
    for s in sizes:
        cells = []
        for k in kinds:
            v = [r[s] for r in runs[k] if s in r]
            cells.append(f"{statistics.median(v):.3f}" if v else "-")
        for k in ratios:
            q = [a[s] / b[s] for a, b in zip(runs[k], runs[base]) if s in a and s in b and b[s] > 0]
            cells.append(f"{statistics.median(q):.2f} ({min(q):.2f}-{max(q):.2f})" if q else "-")
        print(f"| {s} | " + " | ".join(cells) + " |")
    print()
for fastest in (False, True):
    table("pingpong", ["c", "before", "after"], "c", fastest)
    table("exchange", ["binding", "before", "after"], "binding", fastest)
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
