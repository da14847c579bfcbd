#!/usr/bin/env bash
# bench.sh [NX] [RT] [REPEATS] : the benchmark behind the figures in README.md.
#   1. KernelBench: Java streaming copy vs SpMV / SymGS bandwidth on one process (reference byte model);
#   2. HPCG at NX^3 per rank (default 64) with --rt=RT (default 10) on 1 and 2 ranks, REPEATS times (default 3);
# prints every run's GFLOP/s rating, the medians, and the load average before each run (shared machine).
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
home="$(cd "$here/../.." && pwd)"
nx="${1:-64}"; rt="${2:-10}"; reps="${3:-3}"
source "$home/scripts/lib.sh"
java="$(fthp_jdk_home)/bin/java"
out="$(mktemp -d /tmp/hpcg-bench.XXXXXX)"
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "== KernelBench (1 process, ${nx}^3) load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$java" -cp "$here/target/classes:$home/replication/target/fthp-mpi.jar" org.fthp.apps.hpcg.KernelBench --n="$nx"

for np in 1 2; do
  : > "$out/gflops.$np"
  for r in $(seq "$reps"); do
    load="$(cut -d' ' -f1-3 /proc/loadavg)"
    line="$("$here/run.sh" "$np" --nx="$nx" --rt="$rt" --out="$out" | grep -E 'VALID|INVALID')"
    g="$(sed -n 's/.*rating of \([0-9.e+-]*\).*/\1/p' <<<"$line")"
    echo "np=$np run $r: $line (load before: $load)"
    echo "$g" >> "$out/gflops.$np"
  done
  echo "np=$np ${nx}^3 per rank, --rt=$rt: median GFLOP/s $(median < "$out/gflops.$np") over $reps runs"
done
echo "reports and logs: $out"
