#!/usr/bin/env bash
# Failure-free cost of twin comparison (docs/DESIGN.md §22): replicated ping-pong (np 2, 2 replicas) at 8 B, 64 KiB
# and 4 MiB with --sdc on against --sdc off, interleaved (the order alternates every repetition), REPS times
# (default 5); prints each size's one-way medians and the median and spread of the on/off ratio within repetitions.
# Needs a built tree. Usage: bench/sdc.sh [REPS]
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
REPS="${1:-5}"
OUT="$HERE/bench/target/sdc-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
JAR="$(ls "$HERE"/bench/target/fthp-bench-*.jar | grep -v sources | head -1)"
for rep in $(seq 1 "$REPS"); do
  if (( rep % 2 )); then order=(on off); else order=(off on); fi
  for mode in "${order[@]}"; do
    timeout 600 "$HERE/bin/fthp-run" -np 2 --replicas 2 --sdc "$mode" -- -cp "$JAR" org.fthp.bench.PingPong \
      --sizes 8,65536,4194304 > "$OUT/pp-$rep-$mode.out" 2> "$OUT/pp-$rep-$mode.err"
  done
done
python3 - "$OUT" <<'PY'
import glob, re, statistics as st, sys
res = {}
for f in glob.glob(sys.argv[1] + '/pp-*.out'):
    rep, mode = re.search(r'pp-(\d+)-(on|off)\.out', f).groups()
    for line in open(f):
        p = line.split()
        if p and p[0] == 'pingpong':
            res.setdefault((int(rep), mode), {})[int(p[1])] = float(p[2])
for size in (8, 65536, 4194304):
    on, off, ratios = [], [], []
    for rep in sorted({r for r, _ in res}):
        a, b = res.get((rep, 'on'), {}).get(size), res.get((rep, 'off'), {}).get(size)
        if a and b:
            on.append(a); off.append(b); ratios.append(a / b)
    if ratios:
        print(f"{size:>8} B: {len(ratios)} reps; one-way us median on {st.median(on):.2f}, off {st.median(off):.2f};"
              f" on/off median {st.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")
PY
echo "raw outputs: $OUT"
