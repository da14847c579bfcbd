#!/usr/bin/env bash
# What a job's start costs, wall and CPU (not part of the suite). Needs a built tree (scripts/build.sh).
#
#   bench/start.sh                          # -np 8 and -np 4 --replicas 4, 7 runs each, every variant
#   RUNS=5 SHAPES="-np 8" bench/start.sh
#   VARIANTS=$'cache;;\nno-cache;FTHP_AOT_CACHE=off;\nc1;;-XX:TieredStopAtLevel=1' bench/start.sh
#
# Each run is `fthp-run SHAPE -- [variant's java options] -cp bench.jar org.fthp.bench.StartTime DIR` (MPI.Init,
# a barrier, MPI.Finalize) under /usr/bin/time. VARIANTS: one per line, "name;VAR=value ...;java options"; the
# runs of all variants are interleaved (run 1 of each, then run 2 of each...) so that the load of the shared
# machine falls on all of them alike. Per shape and variant, medians over the runs of:
#   job wall       fthp-run from start to exit (coordinators, mpirun, every JVM's start and end)
#   job CPU        user + system seconds of fthp-run and everything it waited for (JVMs, mpirun, coordinators)
#   to main        process start to main(), the slowest process (the JVM's own start: class loading, linking)
#   MPI.Init       main() to MPI.Init's return, the slowest process
#   ready          the first process start to the last process out of MPI.Init
#   CPU per rank   the rank JVM's user + system CPU at MPI.Init's return, median over the processes
# The load average (1 min) before each shape's runs is printed next to the figures: the machine is shared.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$root/scripts/lib.sh"
fthp_find_jdk
RUNS="${RUNS:-7}"
SHAPES="${SHAPES:-"-np 8;-np 4 --replicas 4"}"
VARIANTS="${VARIANTS:-"default;;"}"
jar="$root/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "# Job start, $(date -u +%FT%TZ), $(nproc) cores; load average before: $(load)"
echo
echo "| shape | variant | job wall | job CPU (user+sys) | to main | MPI.Init | ready | CPU per rank | runs | load before |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
IFS=';' read -r -a shapes <<<"$SHAPES"
mapfile -t variants <<<"$VARIANTS"
for s in "${!shapes[@]}"; do
  shape=${shapes[$s]}
  l=$(load)
  for i in $(seq 1 "$RUNS"); do
    for v in "${!variants[@]}"; do
      IFS=';' read -r name envs jopts <<<"${variants[$v]}"
      out="$work/$s.$v.$i"
      mkdir -p "$out"
      # shellcheck disable=SC2086 # the shape, the variant's assignments and options are word lists
      env $envs /usr/bin/time -f "%e %U %S" -o "$out/time" \
          "$root/bin/fthp-run" $shape -- $jopts -cp "$jar" org.fthp.bench.StartTime "$out" \
          >"$out/stdout" 2>"$out/stderr" || { echo "  run failed ($shape, $name):"; tail -5 "$out/stderr"; }
    done
  done
  for v in "${!variants[@]}"; do
    IFS=';' read -r name _ _ <<<"${variants[$v]}"
    python3 - "$work" "$s" "$v" "$RUNS" "$shape" "$name" "$l" <<'PY'
import sys, glob, statistics
work, s, v, runs, shape, name, load = sys.argv[1:8]
rows = []
for i in range(1, int(runs) + 1):
    d = f"{work}/{s}.{v}.{i}"
    try:
        wall, user, system = map(float, open(d + "/time").read().split()[-3:])
    except (OSError, ValueError):
        continue
    procs = []
    for f in glob.glob(d + "/start.*"):
        w = open(f).read().split()  # start process P main M init I barrier B cpu-main C1 cpu-init C2
        procs.append(dict(zip(w[1::2], map(int, w[2::2]))))
    if not procs:
        continue
    rows.append({"wall": wall, "cpu": user + system,
                 "main": max(p["main"] - p["process"] for p in procs) / 1e3,
                 "init": max(p["init"] - p["main"] for p in procs) / 1e3,
                 "ready": (max(p["init"] for p in procs) - min(p["process"] for p in procs)) / 1e3,
                 "rank_cpu": statistics.median(p["cpu-init"] for p in procs) / 1e3,
                 "n": len(procs)})
if not rows:
    print(f"| {shape} | {name} | no complete run | | | | | | 0 | {load} |")
    sys.exit(0)
m = lambda k: statistics.median(r[k] for r in rows)
print(f"| {shape} | {name} | {m('wall'):.2f} s | {m('cpu'):.1f} s | {m('main'):.2f} s | {m('init'):.2f} s "
      f"| {m('ready'):.2f} s | {m('rank_cpu'):.2f} s | {len(rows)} ({rows[0]['n']} processes) | {load} |")
PY
  done
done
echo
echo "load average after: $(load)"
