#!/usr/bin/env bash
# Twin comparison (docs/DESIGN.md §22), by parts (PARTS, default "pingpong"):
# - pingpong: failure-free cost: replicated ping-pong (np 2, 2 replicas) at PP_SIZES (default 8 B, 64 KiB and 4 MiB)
#   with --sdc on against --sdc off, interleaved (the order alternates every repetition), REPS times (default 5);
#   prints each size's one-way medians and the median and spread of the on/off ratio within repetitions, of the runs'
#   median slices and of their fastest slices (the least disturbed by other jobs' load); the CPU the timed part cost
#   the 4 processes together per round trip (waits spin and yield, so it counts them too); and each run's peak send
#   log (a run at the log limit, 256 MiB, has its computational copies paced by their replicas' acknowledgements).
# - allreduce: the same for a replicated allreduce (AllReduce: 1 and 1024 doubles, np 2, 2 replicas), per call.
# PIN (pingpong and allreduce): each rank's JVM pinned to one core, the same placement for every mode, so a run's
#   wall time does not depend on where the scheduler puts four busy-polling processes on two cores: "pairs" (the
#   default) puts both computational copies on core 0 and both replicas on core 1, so each ping-pong runs on a core
#   of its own and the two never compete for one; "twins" puts each rank's two copies on one core; "none" leaves it
#   to the scheduler; or the cores of native ranks 0..3 (computational copies, then replicas), e.g. "0 1 1 0".
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
# Needs a built tree. Usage: [PARTS="pingpong allreduce latency cost cpu kernel pack apps"] [PIN=pairs] [MODES="on java off"] bench/sdc.sh [REPS]
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
part pingpong || part allreduce || { echo "raw outputs: $OUT"; exit 0; }
# Each rank's JVM pinned to one core (PIN): a java wrapper that fthp-run takes as its JDK (FTHP_JAVA_HOME) runs the
# real JVM under taskset with the core PIN gives its native rank (computational copies 0..N-1, then the replicas).
source "$HERE/scripts/lib.sh"
real_jdk="$(fthp_jdk_home)"
case "${PIN:-pairs}" in
  pairs) cores="0 0 1 1" ;;
  twins) cores="0 1 0 1" ;;
  none) cores="" ;;
  *) cores="$PIN" ;;
esac
pin_env=()
if [[ -n "$cores" ]]; then
  mkdir -p "$OUT/pinned-jdk/bin"
  cat > "$OUT/pinned-jdk/bin/java" <<WRAP
#!/usr/bin/env bash
read -r -a cores <<< "$cores"
r="\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-}}"
[[ -n "\$r" && -n "\${cores[\$r]:-}" ]] && exec taskset -c "\${cores[\$r]}" "$real_jdk/bin/java" "\$@"
exec "$real_jdk/bin/java" "\$@"
WRAP
  chmod +x "$OUT/pinned-jdk/bin/java"
  pin_env=(FTHP_JAVA_HOME="$OUT/pinned-jdk")
fi
echo "native ranks pinned to cores: ${cores:-none} (cmp 0, cmp 1, rep 0, rep 1)"
read -r -a modes <<< "$MODES"
# job NAME MODE REP PROGRAM ARGS...: one replicated job (np 2, 2 replicas), every process's CPU into cpu-NAME-REP-MODE
job() {
  local name=$1 mode=$2 rep=$3 sdc=on kernel=
  shift 3
  [[ $mode == off ]] && sdc=off
  [[ $mode == java || $mode == ffm ]] && kernel=$mode
  env "${pin_env[@]}" FTHP_CRC_KERNEL="${kernel:-${FTHP_CRC_KERNEL:-}}" timeout 600 "$HERE/bin/fthp-run" -np 2 \
    --replicas 2 --sdc "$sdc" -- -Dfthp.bench.cpuDir="$OUT/cpu-$name-$rep-$mode" -cp "$JAR" "$@" \
    > "$OUT/$name-$rep-$mode.out" 2> "$OUT/$name-$rep-$mode.err" || echo "$name rep $rep $mode: exit $?"
}
for rep in $(seq 1 "$REPS"); do
  k=$(( (rep - 1) % ${#modes[@]} ))
  for mode in "${modes[@]:k}" "${modes[@]:0:k}"; do
    part pingpong && job pp "$mode" "$rep" org.fthp.bench.PingPong --sizes "${PP_SIZES:-8,65536,4194304}"
    part allreduce && job ar "$mode" "$rep" org.fthp.bench.AllReduce
  done
done
python3 - "$OUT" $MODES <<'PY'
import glob, os, re, statistics as st, sys
out, modes = sys.argv[1], sys.argv[2:]
def load(name, kind):
    wall, fastest, cpu, logs = {}, {}, {}, {}
    for f in glob.glob(f'{out}/{name}-*.out'):
        rep, mode = re.search(rf'{name}-(\d+)-(\w+)\.out', f).groups()
        key = (int(rep), mode)
        for line in open(f):
            p = line.split()
            if p and p[0] == kind:
                wall.setdefault(key, {})[int(p[1])] = float(p[2])
                fastest.setdefault(key, {})[int(p[1])] = float(p[4] if kind == 'pingpong' else p[3])
        # every process's CPU per call over the timed part, summed: computational copies and replicas
        files = glob.glob(f'{out}/cpu-{name}-{rep}-{mode}/cpu-*.txt')
        if len(files) == 4:
            for c in files:
                for line in open(c):
                    p = line.split()
                    cpu.setdefault(key, {}).setdefault(int(p[2]), 0.0)
                    cpu[key][int(p[2])] += float(p[3])
        m = re.search(r'peak message log ([0-9.]+) (\w+)', open(f[:-4] + '.err').read())
        if m:
            logs[key] = float(m.group(1)) * {'B': 2**-20, 'KiB': 2**-10, 'MiB': 1, 'GiB': 1024}.get(m.group(2), 1)
    return wall, fastest, cpu, logs
def spread(v):
    return f'{st.median(v):.3f} ({min(v):.3f}-{max(v):.3f})'
pairs = [(m, 'off') for m in modes if m != 'off' and 'off' in modes]
if 'on' in modes and 'java' in modes:
    pairs.append(('on', 'java'))
for name, kind, unit in (('pp', 'pingpong', 'one-way us'), ('ar', 'allreduce', 'us per call')):
    wall, fastest, cpu, logs = load(name, kind)
    if not wall:
        continue
    reps = sorted({r for r, _ in wall})
    sizes = sorted({s for v in wall.values() for s in v})
    for a, b in pairs:
        for size in sizes:
            got = [(wall[(r, a)][size], wall[(r, b)][size], r) for r in reps
                   if size in wall.get((r, a), {}) and size in wall.get((r, b), {})]
            if not got:
                continue
            q = [x / y for x, y, _ in got]
            quick = [fastest[(r, a)][size] / fastest[(r, b)][size] for _, _, r in got]
            line = (f'{kind} {size:>8}, {a} against {b}: {len(got)} reps; {unit} median {a} {st.median(x for x, _, _ in got):.2f},'
                    f' {b} {st.median(y for _, y, _ in got):.2f}; {a}/{b} {spread(q)}; fastest slices {a}/{b} {spread(quick)}')
            c = [(cpu[(r, a)][size], cpu[(r, b)][size]) for _, _, r in got
                 if size in cpu.get((r, a), {}) and size in cpu.get((r, b), {})]
            if c:
                line += (f'; CPU of the 4 processes per {"round trip" if kind == "pingpong" else "call"}, us: {a}'
                         f' {st.median(x for x, _ in c):.2f}, {b} {st.median(y for _, y in c):.2f}, {a}-{b} median'
                         f' {st.median(x - y for x, y in c):+.2f} (min {min(x - y for x, y in c):+.2f}, max'
                         f' {max(x - y for x, y in c):+.2f}), {a}/{b} {spread([x / y for x, y in c])}')
            print(line)
    if logs:
        # a run whose computational copies ran a whole send log ahead of their replicas waits for acknowledgements
        print(f'{kind} peak send log per run, MiB: ' + ', '.join(
            f'{m} ' + ' '.join(f'{logs[(r, m)]:.0f}' for r in reps if (r, m) in logs) for m in modes))
PY
echo "raw outputs: $OUT"
