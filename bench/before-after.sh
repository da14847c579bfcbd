#!/usr/bin/env bash
# Failure-free cost of a change, measured in one interleaved run: the same bench jar (ping-pong with
# byte[] and with direct buffers, allreduce of 1 and 1024 doubles on NP ranks) launched by two FTHP-J
# trees in turn, REPS times, medians per tree. Not part of the suite.
#
#   bench/before-after.sh /path/to/before-tree [/path/to/after-tree]   # after: this tree
#   REPS=5 NP=2 bench/before-after.sh ...
set -euo pipefail
before="$(cd "$1" && pwd)"
after="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
REPS="${REPS:-3}"
NP="${NP:-2}"
jar="$after/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
out="$(mktemp -d)"
for ((rep = 1; rep <= REPS; rep++)); do
  for tree in before after; do
    home="$before"; [[ "$tree" == after ]] && home="$after"
    "$home/bin/fthp-run" -np 2 -- -cp "$jar" org.fthp.bench.PingPong --arrays >"$out/$tree.arrays.$rep" 2>/dev/null
    "$home/bin/fthp-run" -np 2 -- -cp "$jar" org.fthp.bench.PingPong >"$out/$tree.direct.$rep" 2>/dev/null
    "$home/bin/fthp-run" -np "$NP" -- -cp "$jar" org.fthp.bench.AllReduce >"$out/$tree.allreduce.$rep" 2>/dev/null
  done
done
python3 - "$out" "$REPS" <<'PY'
import sys, statistics, collections
out, reps = sys.argv[1], int(sys.argv[2])
def med(tree, kind, key):
    vals = collections.defaultdict(list)
    for r in range(1, reps + 1):
        for line in open(f"{out}/{tree}.{kind}.{r}"):
            f = line.split()
            if f and f[0] == key:
                vals[int(f[1])].append(float(f[2]))
    return {k: statistics.median(v) for k, v in vals.items()}
print(f"| benchmark | size | before (µs) | after (µs) | after / before |")
print(f"| --- | ---: | ---: | ---: | ---: |")
for kind, key, label in [("arrays", "pingpong", "ping-pong byte[]"), ("direct", "pingpong", "ping-pong direct"),
                         ("allreduce", "allreduce", "allreduce doubles")]:
    b, a = med("before", kind, key), med("after", kind, key)
    for size in sorted(b):
        if size in a:
            print(f"| {label} | {size} | {b[size]:.3f} | {a[size]:.3f} | {a[size] / b[size]:.2f} |")
PY
