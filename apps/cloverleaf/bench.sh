#!/usr/bin/env bash
# Benchmark of the CloverLeaf port: runs a deck (default: the reference's 960x960, 87-step
# clover_bm_short.in) several times at each rank count and prints the wall time per step and the
# cell updates per second of every run, then their medians. Records the machine load alongside.
#
#   apps/cloverleaf/bench.sh [RUNS] [RANK COUNTS] [DECK]
#   apps/cloverleaf/bench.sh 5 "1 2"          # default
#
# Needs a build first (scripts/build.sh). Each run works in its own temporary directory.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="$(cd "$here/../.." && pwd)"
runs="${1:-5}"
nps="${2:-1 2}"
deck="$(readlink -f "${3:-$here/decks/clover_bm_short.in}")"
classes="$here/target/classes"
[[ -d "$classes/org/fthp/apps/cloverleaf" ]] || { echo "build first: scripts/build.sh" >&2; exit 3; }

median() { sort -g | awk '{a[NR]=$1} END {m = (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; printf "%.4g\n", m}'; }

echo "deck: $deck"
echo "load before: $(uptime)"
# Rank counts alternate within each round, so that on a shared machine every count sees the same
# spread of background load.
declare -A ms cups cpu
for ((r = 1; r <= runs; r++)); do
  for np in $nps; do
    dir="$(mktemp -d)"
    line="$(cd "$dir" && "$home/bin/fthp-run" -np "$np" -- -cp "$classes" org.fthp.apps.cloverleaf.CloverLeaf \
              --in "$deck" --out "$dir/clover.out" 2>&1 | grep ' Benchmark:' || true)"
    pass="$(grep -c 'This test is considered PASSED' "$dir/clover.out" || true)"
    rm -rf "$dir"
    [[ -n "$line" ]] || { echo "np=$np run $r: no Benchmark line (job failed)" >&2; exit 1; }
    m="$(sed -E 's/.* s, ([0-9.]+) ms\/step, .*/\1/' <<<"$line")"
    c="$(sed -E 's/.* ms\/step, ([0-9.e+]+) cell updates.*/\1/' <<<"$line")"
    u="$(sed -E 's/.*CPU ([0-9.]+) ms\/step.*/\1/' <<<"$line")"
    ms[$np]+="$m "; cups[$np]+="$c "; cpu[$np]+="$u "
    echo "np=$np run $r: $m ms/step, $c cell updates/s, rank-0 CPU $u ms/step (test passed: $pass)  [load $(cut -d' ' -f1-3 /proc/loadavg)]"
  done
done
for np in $nps; do
  echo "np=$np median of $runs: $(tr ' ' '\n' <<<"${ms[$np]}" | grep . | median) ms/step," \
       "$(tr ' ' '\n' <<<"${cups[$np]}" | grep . | median) cell updates/s," \
       "rank-0 CPU $(tr ' ' '\n' <<<"${cpu[$np]}" | grep . | median) ms/step"
done
echo "load after: $(uptime)"
