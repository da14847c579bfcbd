#!/usr/bin/env bash
# Failure-free cost of a change, measured in one interleaved run: the same bench jar (ping-pong with
# byte[] and with direct buffers, allreduce of 1 and 1024 doubles on NP ranks) launched by two FTHP-J
# trees in turn, REPS times, medians per tree and the median (range) of the after/before ratios taken within
# each repetition. REPLICATED=1: every rank has a replica (NP ranks + NP replicas); AFTER_OPTS: fthp-run options
# for the after tree only (e.g. "--sdc off" to leave out a feature the before tree lacks). Not part of the suite.
#
#   bench/before-after.sh /path/to/before-tree [/path/to/after-tree]   # after: this tree
#   REPS=5 NP=2 REPLICATED=1 bench/before-after.sh ...
set -euo pipefail
before="$(cd "$1" && pwd)"
after="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
REPS="${REPS:-3}"
NP="${NP:-2}"
pair=() all=()
[[ "${REPLICATED:-0}" == 1 ]] && pair=(--replicas 2) all=(--replicas "$NP")
jar="$after/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
out="$(mktemp -d)"
read -r -a after_opts <<< "${AFTER_OPTS:-}"
for ((rep = 1; rep <= REPS; rep++)); do
  for tree in before after; do
    home="$before" opts=()
    [[ "$tree" == after ]] && home="$after" opts=("${after_opts[@]}")
    "$home/bin/fthp-run" -np 2 "${pair[@]}" "${opts[@]}" -- -cp "$jar" org.fthp.bench.PingPong --arrays >"$out/$tree.arrays.$rep" 2>/dev/null
    "$home/bin/fthp-run" -np 2 "${pair[@]}" "${opts[@]}" -- -cp "$jar" org.fthp.bench.PingPong >"$out/$tree.direct.$rep" 2>/dev/null
    "$home/bin/fthp-run" -np "$NP" "${all[@]}" "${opts[@]}" -- -cp "$jar" org.fthp.bench.AllReduce >"$out/$tree.allreduce.$rep" 2>/dev/null
  done
done
python3 - "$out" "$REPS" <<'PY'
import sys, statistics, collections
out, reps = sys.argv[1], int(sys.argv[2])
def values(tree, kind, key, rep):
    vals = {}
    for line in open(f"{out}/{tree}.{kind}.{rep}"):
        f = line.split()
        if f and f[0] == key:
            vals[int(f[1])] = float(f[2])
    return vals
print("| benchmark | size | before (µs) | after (µs) | after / before, within repetitions: median (range) |")
print("| --- | ---: | ---: | ---: | ---: |")
for kind, key, label in [("arrays", "pingpong", "ping-pong byte[]"), ("direct", "pingpong", "ping-pong direct"),
                         ("allreduce", "allreduce", "allreduce doubles")]:
    b = collections.defaultdict(list); a = collections.defaultdict(list); r = collections.defaultdict(list)
    for rep in range(1, reps + 1):
        vb, va = values("before", kind, key, rep), values("after", kind, key, rep)
        for size in vb:
            b[size].append(vb[size])
            if size in va:
                a[size].append(va[size]); r[size].append(va[size] / vb[size])
    for size in sorted(r):
        print(f"| {label} | {size} | {statistics.median(b[size]):.3f} | {statistics.median(a[size]):.3f} "
              f"| {statistics.median(r[size]):.2f} ({min(r[size]):.2f}–{max(r[size]):.2f}) |")
PY
