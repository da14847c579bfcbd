#!/usr/bin/env bash
# Twin comparison (docs/DESIGN.md §22), by parts (PARTS, default "pingpong"):
# - pingpong: failure-free cost: replicated ping-pong (np 2, 2 replicas) at 8 B, 64 KiB and 4 MiB with --sdc on
#   against --sdc off, interleaved (the order alternates every repetition), REPS times (default 5); prints each size's
#   one-way medians and the median and spread of the on/off ratio within repetitions, of the runs' median slices and
#   of their fastest slices (the least disturbed by other jobs' load).
# - latency: detection latency: SdcLatency (np 2, 2 replicas, checkpoints on, a ring exchange and a snapshot every
#   LAT_MS ms, default 10); rank 0's computational copy flips its message at MPI call C, varied every repetition so
#   the flip falls at another point of the comparison timer; --sdc abort ends the job at the detection. The time from
#   the flip's stderr line to the first detection line, as fthp-run relays them, for each --sdc-interval in
#   LAT_INTERVALS (default "1", the default), REPS times interleaved: median and range.
# - cost: the same loop without a flip (COST_ITERATIONS, default 400) at each interval in LAT_INTERVALS and with
#   --sdc off, REPS times interleaved: the loop's median seconds and each interval's ratio to off within repetitions.
# - cpu: what the hash costs in CPU, which load from other jobs does not change as it does wall time: LargeCost
#   --self (np 2, 2 replicas; every rank sends CPU_BYTES, default 4 MiB, to itself, so nobody waits) with --sdc on
#   against off, REPS times interleaved; the calling thread's CPU per send and receive, both ranks' mean, and the
#   difference and ratio on/off within repetitions.
# - kernel: the fused copy+CRC32C kernel (replication/.../sdc/fthp_crc32c.c) in C alone, built with cc -O2 beside
#   bench/src/main/c/crc32c_copy.c: its CRC against a bitwise CRC32C over 20 000 lengths and alignments, then per
#   copy of 64 KiB (in cache) and 4 MiB (8 buffers round robin, from memory): the copy alone (memcpy), copy then CRC,
#   copy and CRC in 64 KiB blocks, fused, the CRC alone.
# - pack: what hashing costs a send's pack, in one JVM (replication's PackHashCost, needs its test classes:
#   mvn -pl replication -am test-compile): thread CPU per pack of PACK_SIZES (default 8, 64 KiB, 4 MiB) from a
#   direct buffer, the pack alone against SendDigest.packSent on the fused kernel and on the JDK's CRC32C.
# - apps: HPCG (--nx=32 --rt=10: its GFLOP/s rating) and CloverLeaf's short deck (cell updates/s and rank 0's main
#   thread CPU per step), APPS_NP ranks (default 2; the issue's figure is 4) + as many replicas, each mode of
#   MODES interleaved, REPS times: medians and each mode's ratio to off within repetitions (the rating and cell
#   updates: off/mode, so above 1 is a cost, as for times).
#   APPS_JAVA_OPTS: java options for every rank (e.g. -XX:+CITime: then also the methods the 8 JVMs compiled, C1 and
#   C2, per mode, and each mode's difference to off within repetitions: a figure other jobs' load moves little).
# MODES (pingpong, cpu and apps; default "on off"): which contenders run, interleaved: on and off are --sdc on and off,
# java is --sdc on hashing with the JDK's CRC32C instead of the fused kernel (FTHP_CRC_KERNEL=java), ffm is --sdc on
# with the fused kernel called by FFM downcalls instead of JNI (FTHP_CRC_KERNEL=ffm); every mode is reported against
# off, and on against java when both run.
# Needs a built tree. Usage: [PARTS="pingpong latency cost cpu kernel pack apps"] [MODES="on java off"] bench/sdc.sh [REPS]
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
REPS="${1:-5}"
PARTS="${PARTS:-pingpong}"
LAT_MS="${LAT_MS:-10}"
LAT_INTERVALS="${LAT_INTERVALS:-1}"
COST_ITERATIONS="${COST_ITERATIONS:-400}"
CPU_BYTES="${CPU_BYTES:-4194304}"
MODES="${MODES:-on off}"
PACK_SIZES="${PACK_SIZES:-8 65536 4194304}"
OUT="$HERE/bench/target/sdc-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT"
JAR="$(ls "$HERE"/bench/target/fthp-bench-*.jar | grep -v sources | head -1)"
part() { [[ " $PARTS " == *" $1 "* ]]; }
if part kernel; then
  cc -O2 -shared -fPIC -o "$OUT/libfthp_crc32c.so" \
    "$HERE/replication/src/main/resources/org/fthp/replication/sdc/fthp_crc32c.c"
  cc -O2 -o "$OUT/crc32c_copy" "$HERE/bench/src/main/c/crc32c_copy.c" -L"$OUT" -lfthp_crc32c -Wl,-rpath,"$OUT"
  "$OUT/crc32c_copy" | tee "$OUT/kernel.txt"
fi
if part pack; then
  source "$HERE/scripts/lib.sh"
  fthp_find_jdk
  java_bin="$JAVA_HOME/bin/java"
  cp="$HERE/replication/target/classes:$HERE/replication/target/test-classes:$(ls "$HERE"/empi-binding/target/fthp-empi-binding-*.jar | grep -v sources | head -1)"
  for size in $PACK_SIZES; do
    "$java_bin" --enable-native-access=ALL-UNNAMED -cp "$cp" org.fthp.replication.sdc.PackHashCost "$size" \
      | tee -a "$OUT/pack.txt"
  done
fi
if part latency; then
  python3 - "$HERE" "$JAR" "$OUT" "$REPS" "$LAT_MS" $LAT_INTERVALS <<'PY'
import statistics as st, subprocess, sys, time
here, jar, out, reps, ms, intervals = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6:]
lat = {i: [] for i in intervals}
for rep in range(1, reps + 1):
    for interval in (intervals if rep % 2 else intervals[::-1]):
        call = 200 + 37 * rep
        cmd = [here + "/bin/fthp-run", "-np", "2", "--replicas", "2", "--checkpoint-interval", "600",
               "--sdc", "abort", "--sdc-interval", interval, "--corrupt", f"0:cmp:msg#{call}", "--",
               "-cp", jar, "org.fthp.bench.SdcLatency", "100000", ms]
        flip = found = None
        with open(f"{out}/lat-{rep}-{interval}.err", "w") as log:
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for line in p.stderr:
                now = time.monotonic()
                log.write(f"{now:.6f} {line}")
                if flip is None and "flips bit" in line:
                    flip = now
                if found is None and "silent data corruption detected:" in line:
                    found = now
            p.wait(timeout=600)
        if flip is not None and found is not None:
            lat[interval].append(found - flip)
            print(f"latency rep {rep} interval {interval} s call {call}: {found - flip:.3f} s", flush=True)
        else:
            print(f"latency rep {rep} interval {interval} s call {call}: no flip/detection seen (exit {p.returncode})")
for interval, v in lat.items():
    if v:
        print(f"detection latency, --sdc-interval {interval} s, snapshot every {ms} ms: {len(v)} runs; median"
              f" {st.median(v):.3f} s (min {min(v):.3f}, max {max(v):.3f})")
PY
fi
if part cost; then
  python3 - "$HERE" "$JAR" "$OUT" "$REPS" "$LAT_MS" "$COST_ITERATIONS" $LAT_INTERVALS <<'PY'
import re, statistics as st, subprocess, sys
here, jar, out, reps, ms, iterations, intervals = sys.argv[1:6] + [sys.argv[6], sys.argv[7:]]
modes = ["off"] + intervals
secs = {m: [] for m in modes}
for rep in range(1, int(reps) + 1):
    for m in (modes if rep % 2 else modes[::-1]):
        sdc = ["--sdc", "off"] if m == "off" else ["--sdc-interval", m]
        cmd = [here + "/bin/fthp-run", "-np", "2", "--replicas", "2", "--checkpoint-interval", "600", *sdc, "--",
               "-cp", jar, "org.fthp.bench.SdcLatency", iterations, ms]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        open(f"{out}/cost-{rep}-{m}.err", "w").write(r.stderr)
        found = re.search(r"SdcLatency loop ([0-9.]+) s", r.stdout)
        secs[m].append(float(found.group(1)) if found else None)
        print(f"cost rep {rep} {m}: {secs[m][-1]}", flush=True)
for m in intervals:
    pairs = [(a, b) for a, b in zip(secs[m], secs["off"]) if a and b]
    if pairs:
        ratios = [a / b for a, b in pairs]
        print(f"loop of {iterations} x {ms} ms, --sdc-interval {m} s: median {st.median(a for a, _ in pairs):.3f} s,"
              f" off {st.median(b for _, b in pairs):.3f} s; ratio median {st.median(ratios):.4f}"
              f" (min {min(ratios):.4f}, max {max(ratios):.4f})")
PY
fi
if part apps; then
  python3 - "$HERE" "$OUT" "$REPS" $MODES <<'PY'
import os, re, statistics as st, subprocess, sys
here, out, reps, modes = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
apps = {
    "hpcg": (["-cp", here + "/apps/hpcg/target/classes", "org.fthp.apps.hpcg.Hpcg", "--nx=32", "--rt=10"],
             [("rating GFLOP/s", r"GFLOP/s rating of ([0-9.eE+-]+)", True)]),
    "cloverleaf": (["-cp", here + "/apps/cloverleaf/target/classes", "org.fthp.apps.cloverleaf.CloverLeaf", "--in",
                    here + "/apps/cloverleaf/decks/clover_bm_short.in"],
                   [("cell updates/s", r"([0-9.eE+-]+) cell updates/s", True),
                    ("rank 0 main thread CPU ms/step", r"main thread CPU ([0-9.]+) ms/step", False)]),
}
res = {}
for rep in range(1, reps + 1):
    k = (rep - 1) % len(modes)
    for mode in modes[k:] + modes[:k]:
        env = dict(os.environ, FTHP_CRC_KERNEL=mode) if mode in ("java", "ffm") else None
        for app, (args, metrics) in apps.items():
            d = f"{out}/{app}-{rep}-{mode}"
            os.makedirs(d, exist_ok=True)
            extra = ["--out=" + d] if app == "hpcg" else ["--out", d + "/clover.out"]
            np = os.environ.get("APPS_NP", "2")
            cmd = [here + "/bin/fthp-run", "-np", np, "--replicas", np, "--sdc", "off" if mode == "off" else "on",
                   "--", *os.environ.get("APPS_JAVA_OPTS", "").split(), *args, *extra]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
            open(f"{d}/run.txt", "w").write(r.stdout + r.stderr)
            for tier in ("C1", "C2"):
                counts = re.findall(tier + r" \{speed.*?(\d+) methods; osr.*?(\d+) methods", r.stdout)
                if counts:
                    res[(app, tier + " methods compiled", rep, mode)] = float(sum(int(a) + int(b) for a, b in counts))
            for name, rx, _ in metrics:
                m = re.search(rx, r.stdout)
                res[(app, name, rep, mode)] = float(m.group(1)) if m else None
                print(f"apps rep {rep} {mode} {app} {name}: {res[(app, name, rep, mode)]}", flush=True)
for app, (_, metrics) in apps.items():
    for name, _, higher_better in metrics + [(t + " methods compiled", None, False) for t in ("C1", "C2")]:
        if not any(k[0] == app and k[1] == name for k in res):
            continue
        med = {m: [res[(app, name, r, m)] for r in range(1, reps + 1) if res.get((app, name, r, m))] for m in modes}
        line = f"{app} {name}: " + ", ".join(f"{m} {st.median(v):.4g}" for m, v in med.items() if v)
        for m in modes:
            if m == "off" or "off" not in modes:
                continue
            q = []
            for r in range(1, reps + 1):
                a, b = res.get((app, name, r, m)), res.get((app, name, r, "off"))
                if a and b:
                    q.append(b / a if higher_better else a / b)
            if q:
                line += f"; cost {m}/off median {st.median(q):.4f} (min {min(q):.4f}, max {max(q):.4f}, {len(q)} reps)"
            if q and name.endswith("compiled"):
                d = [res[(app, name, r, m)] - res[(app, name, r, "off")] for r in range(1, reps + 1)
                     if res.get((app, name, r, m)) and res.get((app, name, r, "off"))]
                line += f"; {m} - off median {st.median(d):+.0f} (min {min(d):+.0f}, max {max(d):+.0f})"
        print(line)
PY
fi
if part cpu; then
  python3 - "$HERE" "$JAR" "$OUT" "$REPS" "$CPU_BYTES" $MODES <<'PY'
import os, statistics as st, subprocess, sys
here, jar, out, reps, size, modes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6:]
cpu = {m: [] for m in modes}
for rep in range(1, reps + 1):
    k = (rep - 1) % len(modes)
    for mode in modes[k:] + modes[:k]:
        env = dict(os.environ, FTHP_CRC_KERNEL=mode) if mode in ("java", "ffm") else None
        cmd = [here + "/bin/fthp-run", "-np", "2", "--replicas", "2", "--sdc", "off" if mode == "off" else "on",
               "--", "-cp", jar, "org.fthp.bench.LargeCost", size, "100", "5", "--self"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
        open(f"{out}/cpu-{rep}-{mode}.out", "w").write(r.stdout + r.stderr)
        # largecost-median <rank> <bytes> <oneway_us> <thread_cpu_us> <process_cpu_us>
        per_rank = [float(l.split()[4]) for l in r.stdout.splitlines() if l.startswith("largecost-median")]
        cpu[mode].append(st.mean(per_rank) if len(per_rank) == 2 else None)
        print(f"cpu rep {rep} {mode}: {cpu[mode][-1]}", flush=True)
def compare(a, b):
    pairs = [(x, y) for x, y in zip(cpu[a], cpu[b]) if x and y]
    if pairs:
        d = [x - y for x, y in pairs]
        q = [x / y for x, y in pairs]
        print(f"{size} B to itself, thread CPU per send and receive, {a} against {b}: {len(pairs)} reps; median {a}"
              f" {st.median(x for x, _ in pairs):.1f} us, {b} {st.median(y for _, y in pairs):.1f} us; {a} - {b} median"
              f" {st.median(d):.1f} us (min {min(d):.1f}, max {max(d):.1f}); {a}/{b} median {st.median(q):.3f}"
              f" (min {min(q):.3f}, max {max(q):.3f})")
for m in modes:
    if m != "off" and "off" in modes:
        compare(m, "off")
if "on" in modes and "java" in modes:
    compare("on", "java")
PY
fi
part pingpong || { echo "raw outputs: $OUT"; exit 0; }
read -r -a modes <<< "$MODES"
for rep in $(seq 1 "$REPS"); do
  k=$(( (rep - 1) % ${#modes[@]} ))
  for mode in "${modes[@]:k}" "${modes[@]:0:k}"; do
    sdc=on; kernel=
    [[ $mode == off ]] && sdc=off
    [[ $mode == java || $mode == ffm ]] && kernel=$mode
    FTHP_CRC_KERNEL="${kernel:-${FTHP_CRC_KERNEL:-}}" timeout 600 "$HERE/bin/fthp-run" -np 2 --replicas 2 \
      --sdc "$sdc" -- -cp "$JAR" org.fthp.bench.PingPong --sizes 8,65536,4194304 \
      > "$OUT/pp-$rep-$mode.out" 2> "$OUT/pp-$rep-$mode.err"
  done
done
python3 - "$OUT" $MODES <<'PY'
import glob, re, statistics as st, sys
out, modes = sys.argv[1], sys.argv[2:]
res, fastest = {}, {}
for f in glob.glob(out + '/pp-*.out'):
    rep, mode = re.search(r'pp-(\d+)-(\w+)\.out', f).groups()
    for line in open(f):
        p = line.split()
        if p and p[0] == 'pingpong':
            res.setdefault((int(rep), mode), {})[int(p[1])] = float(p[2])
            fastest.setdefault((int(rep), mode), {})[int(p[1])] = float(p[4])
pairs = [(m, 'off') for m in modes if m != 'off' and 'off' in modes]
if 'on' in modes and 'java' in modes:
    pairs.append(('on', 'java'))
for a_mode, b_mode in pairs:
    for size in (8, 65536, 4194304):
        on, off, ratios = [], [], []
        for rep in sorted({r for r, _ in res}):
            a, b = res.get((rep, a_mode), {}).get(size), res.get((rep, b_mode), {}).get(size)
            if a and b:
                on.append(a); off.append(b); ratios.append(a / b)
        # each run's fastest slice too: other jobs' load only ever adds time, so the fastest of a run's slices is
        # the one it disturbed least, and their ratio spreads less than the medians' under load
        quick = [fastest[(rep, a_mode)][size] / fastest[(rep, b_mode)][size] for rep in sorted({r for r, _ in res})
                 if fastest.get((rep, a_mode), {}).get(size) and fastest.get((rep, b_mode), {}).get(size)]
        if ratios:
            print(f"{size:>8} B, {a_mode} against {b_mode}: {len(ratios)} reps; one-way us median {a_mode}"
                  f" {st.median(on):.2f}, {b_mode} {st.median(off):.2f}; {a_mode}/{b_mode} median"
                  f" {st.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}); fastest slices"
                  f" {a_mode}/{b_mode} median {st.median(quick):.3f} (min {min(quick):.3f}, max {max(quick):.3f})")
PY
echo "raw outputs: $OUT"
