#!/usr/bin/env bash
# Checkpoint cost against state size, beside this machine's memory and disk, and restart time (not part of the
# suite). Needs a built tree (scripts/build.sh).
#
#   bench/checkpoint.sh                                   # 1 16 64 256 1024 MiB per rank, 7 checkpoints each
#   SIZES="1 64" REPS=5 RESTARTS=3 bench/checkpoint.sh
#   CKPT_DIR=/some/fs bench/checkpoint.sh                 # the disk runs' --checkpoint-dir (default under /tmp)
#   PARTS=restart RESTARTS=5 bench/checkpoint.sh          # only some parts: any of yardsticks cost restart auto
#   PARTS="rollback spare" ROLLBACK_REPS=5 bench/checkpoint.sh   # rollback in place against relaunch; an idle spare
#   PARTS=restart RESTART_FROM=memory RESTART_VARIANTS=$'cache;\nno-cache;FTHP_AOT_CACHE=off' bench/checkpoint.sh
#   PARTS=restart RESTART_KILL=checkpoint RESTART_LOOP="20 100" bench/checkpoint.sh    # a loaded machine, quicker
#
# Yardsticks, measured in the same run: memcpy (one thread, System.arraycopy of 256 MiB, median of 5) and the
# disk's write bandwidth (dd of 512 MiB with conv=fdatasync into the checkpoint directory, median of 3).
#
# Cost: 2 ranks on 2 emulated nodes (each piece held by its node's coordinator and the other's), REPS forced
# checkpoints of SIZE MiB of doubles per rank, one at a time (the next once the last committed, as in a real run
# where checkpoints are minutes apart). Per size, medians over the checkpoints:
#   blocked   the slowest rank's time in Checkpoint.checkpoint() (encode into shared memory, hand-off to its
#             node's coordinator): what the program pays, and the C of Young/Daly
#   committed from the call to the commit (the partner node holds its copy too), in the background
#   durable   (disk runs, --checkpoint-disk-every 1) from the call to the epoch's manifest on disk
# Ratios: state bytes / blocked against memcpy; state bytes / (durable - committed) against dd.
#
# Restart: 4 ranks + 4 replicas on 2 nodes (8 processes; RESTART_RANKS=R: R + R), 64 MiB per rank, a checkpoint
# due every second, both copies of rank 1 (rank 0 when R = 1) killed; from the kill of the last copy to every
# process back in its main loop (the slowest "resumed" line), median of RESTARTS runs, from memory and from disk (FTHP_BENCH_PIECES_FROM_DISK: the
# coordinators read the pieces from the checkpoint directory, page cache dropped, as after losing their memory),
# with the breakdown of the median run. RESTART_KILL=checkpoint: rank 1 dies writing its piece of epoch 2, its
# promoted replica its piece of epoch 3 (FTHP_KILL_IN_CHECKPOINT) instead of at 6 s, so a restart from epoch 2 happens however slow the start is (on a
# loaded machine 6 s may come before the first checkpoint: a restart from the beginning, which prints nothing);
# the time then runs from the coordinators' detection of the last death. RESTART_LOOP: iterations and
# milliseconds each of the program's main loop (default 60 200). RESTART_FROM: memory, disk or both (the default). RESTART_VARIANTS: one
# per line, "name;VAR=value ...", environments the restart runs are made in, interleaved (run 1 of each, then run 2
# of each...) so that the load of the shared machine falls on all of them alike; each gets its line, with the
# user + system CPU of the whole job (fthp-run and everything it waited for) beside its times.
# Then the interval --checkpoint-interval auto chose.
#
# Rollback in place against relaunch (PARTS=rollback): the same program (CheckpointBench resilient: the loop inside
# Checkpoint.resilient, ROLLBACK_MIB MiB per rank allocated and registered by the body, filled on the first run
# only: a restart's recover overwrites it), R ranks + R replicas on 2
# nodes for R in ROLLBACK_RANKS, both copies of rank 1 (rank 0 when R = 1) killed ROLLBACK_KILL_AT seconds after
# MPI_Init (default 8: a loaded machine may not have committed a checkpoint of 64 MiB by 4 s, and then the run
# relaunches; such runs are left out and listed), ROLLBACK_LOOP iterations and milliseconds of compute between two
# MPI calls (700 20: a survivor unwinds at its next MPI call, and real codes call MPI every few milliseconds; "70
# 200" shows what a long step adds to the unwind), a checkpoint
# due every ROLLBACK_INTERVAL seconds (1); with --spares 1 (rollback in place) and without (--restart 1, relaunch),
# ROLLBACK_REPS repetitions, each running every configuration and both recoveries once, in a rotating order. From
# the kill of the last copy (the launcher's failure-injected event) to every process, replicas and spare included,
# back in its main loop, with the split (FTHP_TRACE_ROLLBACK and the program's timings, the coordinators' events):
#   rollback: detection (kill to the primary's failure-detected of the last copy), agreement (to the last process
#             told: the rollback decided and sent down, the spare assigned), unwind (to the last survivor back at
#             Checkpoint.resilient), rebuild (to the last new engine built, the spare's MPI_Init returned),
#             body setup (to the last state registered), state load (to the last process back in the loop)
#   relaunch: detection, abort (to the primary's job-aborted), relaunch (to job-restarted), start (JVM, MPI_Init:
#             to the last MPI_Init returned), body setup, state load
# Medians of the repetitions, and the median of the ratios rollback/relaunch within each repetition. ROLLBACK_RAW=DIR
# keeps every run's output, stderr and events there (bench/rollback_report.py DIR REPS "RANKS" "MIBS" reads them).
# RANK_JAVA_OPTS: extra JVM options for every rank of the rollback and spare parts (both recoveries alike).
#
# Idle spare (PARTS=spare): 1 rank + 1 spare, the loop for SPARE_SECONDS + 10 s without a failure; the spare's CPU
# (user + system from /proc) over SPARE_SECONDS from 5 s after the job started, and its RSS then.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
source "$root/scripts/lib.sh"
fthp_find_jdk
SIZES="${SIZES:-1 16 64 256 1024}"
REPS="${REPS:-7}"
RESTARTS="${RESTARTS:-3}"
PARTS="${PARTS:-yardsticks cost restart auto}"
RESTART_FROM="${RESTART_FROM:-both}"
RESTART_VARIANTS="${RESTART_VARIANTS:-"default;"}"
RESTART_KILL="${RESTART_KILL:-time}"
RESTART_LOOP="${RESTART_LOOP:-60 200}"
RESTART_RANKS="${RESTART_RANKS:-4}"
ROLLBACK_RANKS="${ROLLBACK_RANKS:-1 2 4}"
ROLLBACK_MIB="${ROLLBACK_MIB:-1 64}"
ROLLBACK_REPS="${ROLLBACK_REPS:-5}"
ROLLBACK_KILL_AT="${ROLLBACK_KILL_AT:-8}"
ROLLBACK_LOOP="${ROLLBACK_LOOP:-700 20}"
ROLLBACK_INTERVAL="${ROLLBACK_INTERVAL:-1}"
SPARE_SECONDS="${SPARE_SECONDS:-60}"
read -r -a rank_jvm <<<"${RANK_JAVA_OPTS:-}"
part() { [[ " $PARTS " == *" $1 "* ]]; }
jar="$root/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
runtime="$root/replication/target/fthp-mpi.jar"
work="$(mktemp -d)"
ckpt_base="${CKPT_DIR:-$work}"
mkdir -p "$ckpt_base"
trap 'rm -rf "$work" "$ckpt_base"/fthp-bench-ckpt-*' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "# Checkpoint benchmark, $(date -u +%FT%TZ), $(nproc) cores; load average before: $(load)"
echo
copy_mbs=0 disk_mbs=0
if part yardsticks || part cost; then
memcpy=$("$JAVA_HOME/bin/java" -Xmx1g -cp "$jar:$runtime" org.fthp.bench.CopyBandwidth 256 5)
copy_mbs=$(awk '/^memcpy/{print $2}' <<<"$memcpy")
dd_runs=""
for i in 1 2 3; do
  r=$(dd if=/dev/zero of="$ckpt_base/fthp-bench-ckpt-dd" bs=1M count=512 conv=fdatasync 2>&1 | tail -1)
  rm -f "$ckpt_base/fthp-bench-ckpt-dd"
  # "536870912 bytes (537 MB, 512 MiB) copied, 1.2 s, 447 MB/s"
  secs=$(sed -E 's/.*copied, ([0-9.]+) s.*/\1/' <<<"$r")
  dd_runs+="$(awk -v s="$secs" 'BEGIN{printf "%.0f ", 536870912 / s / 1e6}')"
done
disk_mbs=$(tr ' ' '\n' <<<"$dd_runs" | grep . | sort -n | sed -n 2p)
echo "Yardsticks: memcpy $copy_mbs MB/s (one thread); CRC32C $(awk '/^crc32c/{print $2}' <<<"$memcpy") MB/s;" \
     "encode into a new shared-memory file $(awk '/^encode-shm/{print $2}' <<<"$memcpy") MB/s;" \
     "disk (dd conv=fdatasync, $ckpt_base) $disk_mbs MB/s (runs: $dd_runs)"
echo
fi

cost_run() { # mb, disk(0|1) -> prints the per-checkpoint lines and the durable times in $work/cost.*
  local mb=$1 disk=$2 extra=() heap
  heap=$(( mb * 3 / 1024 + 1 ))
  local mem=$(( mb * 6 + 512 ))M
  if [ "$disk" = 1 ]; then
    rm -rf "$ckpt_base/fthp-bench-ckpt-cost"
    extra=(--checkpoint-dir "$ckpt_base/fthp-bench-ckpt-cost" --checkpoint-disk-every 1)
  fi
  "$root/bin/fthp-run" -np 2 --nodes 2 --checkpoint-interval 3600 --checkpoint-memory "$mem" \
      --events "$work/cost.$mb.$disk.events" "${extra[@]}" -- \
      -Xmx${heap}g -cp "$jar" org.fthp.bench.CheckpointBench cost "$mb" "$REPS" \
      >"$work/cost.$mb.$disk" 2>"$work/cost.$mb.$disk.err"
}

if part cost; then
echo "## Checkpoint cost per rank (2 ranks, 2 nodes; median of $REPS checkpoints; MB = 10^6 bytes)"
echo
echo "| state per rank | first | blocked (memory) | rate | vs memcpy | committed (both copies) | blocked (disk run) | durable on disk | disk rate | vs dd | load |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for mb in $SIZES; do
  l=$(load)
  ok=1
  cost_run "$mb" 0 || ok=0
  cost_run "$mb" 1 || ok=0
  if [ "$ok" = 0 ]; then
    echo "| $mb MiB | failed | | | | | | | | | $l |"
    tail -5 "$work/cost.$mb.0.err" "$work/cost.$mb.1.err" | sed 's/^/    /'
    continue
  fi
  python3 - "$work/cost.$mb.0" "$work/cost.$mb.1" "$work/cost.$mb.1.events" "$mb" "$copy_mbs" "$disk_mbs" "$l" <<'PY'
import sys, json, statistics, datetime
mem, disk, events, mb, copy, dd, load = sys.argv[1:8]
mb = float(mb); copy = float(copy); dd = float(dd)
state = mb * (1 << 20)
def lines(path):
    out = []
    for l in open(path):
        if l.startswith("checkpoint "):
            f = l.split()   # checkpoint BYTES BLOCKED epoch E start MS committed S
            out.append((float(f[2]), int(f[4]), int(f[6]), float(f[8])))
    return out
m_all, d_all = lines(mem), lines(disk)
first = m_all[0][0]
m, d = m_all[2:] or m_all, d_all[2:] or d_all
durable = {}
for l in open(events):
    e = json.loads(l)
    if e.get("event") == "checkpoint-on-disk":
        t = datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")).timestamp()
        durable[e["epoch"]] = t
blocked = statistics.median(x[0] for x in m)
committed = statistics.median(x[3] for x in m)
blocked_d = statistics.median(x[0] for x in d)
lat = [durable[x[1]] - x[2] / 1e3 for x in d if x[1] in durable]
committed_d = statistics.median(x[3] for x in d)
if lat:
    dur = statistics.median(lat)
    rate_d = state / 1e6 / max(dur - committed_d, 1e-9)
    dtxt, rtxt, vtxt = f"{dur * 1e3:.0f} ms", f"{rate_d:.0f} MB/s", f"{rate_d / dd:.2f}"
else:
    dtxt, rtxt, vtxt = "not seen", "", ""
rate = state / 1e6 / blocked
def ms(s):
    return f"{s * 1e3:.1f} ms" if s < 10 else f"{s:.2f} s"
print(f"| {mb:g} MiB | {ms(first)} | {ms(blocked)} | {rate:.0f} MB/s | {rate / copy:.2f} | {ms(committed)} | {ms(blocked_d)} "
      f"| {dtxt} | {rtxt} | {vtxt} | {load} |")
PY
done
echo
echo "committed: in the background, the rank already went on; durable: the epoch's MANIFEST written (all pieces"
echo "fsync'd); disk rate = state per rank / (durable - committed) per node (each node writes its own rank's piece)."
echo
fi

restart_run() { # from_disk(0|1) index variant-environment
  local disk=$1 i=$2 env=() extra=()
  local out="$work/restart.$disk.$i"
  read -r -a env <<<"${3:-}"
  if [ "$disk" = 1 ]; then
    rm -rf "$ckpt_base/fthp-bench-ckpt-restart"
    extra=(--checkpoint-dir "$ckpt_base/fthp-bench-ckpt-restart" --checkpoint-disk-every 1)
    env+=(FTHP_BENCH_PIECES_FROM_DISK=1)
  fi
  # logical rank 1 (rank 0 of a 1-rank job) and its replica, native rank RESTART_RANKS + that
  local victim=$(( RESTART_RANKS > 1 ? 1 : 0 ))
  if [ "$RESTART_KILL" = checkpoint ]; then
    # a replica writes no piece until promoted
    env+=(FTHP_KILL_IN_CHECKPOINT=$victim:2,$(( RESTART_RANKS + victim )):3)
    extra+=(-x FTHP_KILL_IN_CHECKPOINT)
  else
    extra+=(--kill "$victim:cmp@6" --kill "$victim:rep@6")
  fi
  # shellcheck disable=SC2086 # RESTART_LOOP: two numbers
  env "${env[@]}" /usr/bin/time -f "%U %S" -o "$out.cpu" "$root/bin/fthp-run" -np "$RESTART_RANKS" \
      --replicas "$RESTART_RANKS" --nodes 2 --checkpoint-interval 1 --restart 1 \
      --checkpoint-memory 2G --events "$out.events" "${extra[@]}" -x FTHP_BENCH_TRACE=1 \
      -- -Xmx1g -cp "$jar" org.fthp.bench.CheckpointBench loop 64 $RESTART_LOOP \
      >"$out" 2>"$out.err"
}

if part restart; then
echo "## Restart ($RESTART_RANKS ranks + $RESTART_RANKS replicas = $(( 2 * RESTART_RANKS )) processes, 2 nodes, 64 MiB per rank, both copies of rank $(( RESTART_RANKS > 1 ? 1 : 0 )) killed)"
echo
case "$RESTART_FROM" in memory) froms=0 ;; disk) froms=1 ;; *) froms="0 1" ;; esac
mapfile -t restart_variants <<<"$RESTART_VARIANTS"
for disk in $froms; do
  l=$(load)
  for i in $(seq 1 "$RESTARTS"); do
    for v in "${!restart_variants[@]}"; do
      IFS=';' read -r _ venv <<<"${restart_variants[$v]}"
      restart_run "$disk" "$v.$i" "$venv" \
        || { echo "restart run failed:"; tail -20 "$work/restart.$disk.$v.$i.err"; }
    done
  done
  for v in "${!restart_variants[@]}"; do
  IFS=';' read -r vname _ <<<"${restart_variants[$v]}"
  python3 - "$work" "$disk" "$RESTARTS" "$l" "$v" "$vname" <<'PY'
import sys, json, datetime, statistics
work, disk, runs, load, variant, vname = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
def ts(e):
    return datetime.datetime.fromisoformat(e["time"].replace("Z", "+00:00")).timestamp()
rows = []
for i in range(1, runs + 1):
    base = f"{work}/restart.{disk}.{variant}.{i}"
    try:
        ev = [json.loads(l) for l in open(base + ".events")]
    except FileNotFoundError:
        continue
    try:
        cpu = sum(map(float, open(base + ".cpu").read().split()[-2:]))
    except (OSError, ValueError):
        cpu = float("nan")
    # RESTART_KILL=checkpoint: the processes kill themselves; the coordinators' detection stands for the kill
    kills = [ts(e) for e in ev if e["event"] == "failure-injected"] or \
            [ts(e) for e in ev if e["event"] == "failure-detected"]
    restarted = [e for e in ev if e["event"] == "job-restarted"]
    aborted = [ts(e) for e in ev if e["event"] == "job-aborted"]
    resumed = []
    for l in open(base + ".err"):
        if l.startswith("resumed "):
            f = l.split()  # resumed NOW process P main M init I registered R cpu C
            resumed.append({"now": int(f[1]) / 1e3, "main": int(f[5]) / 1e3, "init": int(f[7]) / 1e3,
                            "registered": int(f[9]) / 1e3, "cpu": int(f[11]) / 1e3 if len(f) > 11 else float("nan")})
    if not kills or not restarted or not resumed:
        continue
    k = max(kills)
    last = max(resumed, key=lambda r: r["now"])
    rows.append({
        "total": last["now"] - k,
        "detect": (min(aborted) - k) if aborted else float("nan"),
        "relaunch": ts(restarted[0]) - (min(aborted) if aborted else k),
        "jvm": min(r["main"] for r in resumed) - ts(restarted[0]),
        "init": statistics.median(r["init"] - r["main"] for r in resumed),
        "build": statistics.median(r["registered"] - r["init"] for r in resumed),
        "recover": statistics.median(r["now"] - r["registered"] for r in resumed),
        "recover_max": max(r["now"] - r["registered"] for r in resumed),
        "epoch": restarted[0].get("epoch"), "n": len(resumed), "cpu": cpu,
        "start_cpu": statistics.median(r["cpu"] for r in resumed)})
where = ("disk (page cache dropped)" if disk == "1" else "memory") + (f", {vname}" if vname != "default" else "")
if not rows:
    print(f"- from {where}: no complete run")
    sys.exit(0)
rows.sort(key=lambda r: r["total"])
med = rows[len(rows) // 2]
print(f"- from {where}: kill of the last copy to every process back in its main loop: median "
      f"{statistics.median(r['total'] for r in rows):.2f} s of {len(rows)} runs "
      f"({', '.join('%.2f' % r['total'] for r in rows)}); CPU (user+sys) of a restarted process up to back in the "
      f"loop, median over the processes that print (the replicas' output is not relayed) "
      f"{statistics.median(r['start_cpu'] for r in rows):.2f} s; "
      f"job CPU (whole run) median {statistics.median(r['cpu'] for r in rows):.1f} s; load {load}")
print(f"  median run (epoch {med['epoch']}, {med['n']} processes reported): detection and abort "
      f"{med['detect']:.2f} s, relaunch {med['relaunch']:.2f} s, JVM start to main {med['jvm']:.2f} s, "
      f"MPI.Init {med['init']:.2f} s, program's own setup {med['build']:.2f} s, fetch + decode of the piece "
      f"{med['recover']:.3f} s (slowest {med['recover_max']:.3f} s)")
PY
  done
done
echo
fi

rollback_run() { # ranks mib rollback|relaunch rep
  local ranks=$1 mb=$2 how=$3 rep=$4 extra=()
  local out="$rb_dir/rb.$ranks.$mb.$how.$rep"
  local victim=$(( ranks > 1 ? 1 : 0 ))
  [ "$how" = rollback ] && extra=(--spares 1)
  FTHP_TRACE_ROLLBACK=1 timeout 300 "$root/bin/fthp-run" -np "$ranks" --replicas "$ranks" --nodes 2 "${extra[@]}" \
      --checkpoint-interval "$ROLLBACK_INTERVAL" --restart 1 --checkpoint-memory 2G --events "$out.events" \
      --kill "$victim:cmp@$ROLLBACK_KILL_AT" --kill "$victim:rep@$ROLLBACK_KILL_AT" -x FTHP_TRACE_ROLLBACK \
      -- -Xmx1g "${rank_jvm[@]}" -cp "$jar" org.fthp.bench.CheckpointBench resilient "$mb" $ROLLBACK_LOOP >"$out" 2>"$out.err" \
    || echo "rollback run failed ($ranks+$ranks, $mb MiB, $how, rep $rep): $(tail -1 "$out.err")" >&2
}

if part rollback; then
echo "## Rollback in place against relaunch ($ROLLBACK_REPS repetitions interleaved; R ranks + R replicas, 2 nodes)"
echo
l_before=$(load)
rb_dir="${ROLLBACK_RAW:-$work}"
mkdir -p "$rb_dir"
configs=()
for r in $ROLLBACK_RANKS; do for mb in $ROLLBACK_MIB; do
  configs+=("$r $mb rollback" "$r $mb relaunch")
done; done
n=${#configs[@]}
for rep in $(seq 1 "$ROLLBACK_REPS"); do
  for k in $(seq 0 $(( n - 1 ))); do
    # rotate the order each repetition so the machine's slow spells fall on every contender alike
    read -r r mb how <<<"${configs[$(( (k + rep - 1) % n ))]}"
    rollback_run "$r" "$mb" "$how" "$rep"
  done
  echo "load after repetition $rep: $(load)" >&2
done
python3 "$here/rollback_report.py" "$rb_dir" "$ROLLBACK_REPS" "$ROLLBACK_RANKS" "$ROLLBACK_MIB"
if [[ -s "$rb_dir/largest.split" ]]; then
  read -r p_procs p_nodes p_split <"$rb_dir/largest.split"
  echo
  echo "Projected from the largest job's split (model: RollbackScaling; 32 processes per node, coordinator groups of"
  echo "32, 2 µs per message of a round):"
  echo
  "$JAVA_HOME/bin/java" -cp "$root/model/target/fthp-model-0.1.0-SNAPSHOT.jar" org.fthp.model.projection.RollbackScalingMain \
    --split "$p_split" --processes "$p_procs" --nodes "$p_nodes"
fi
echo
echo "load average before: $l_before; after: $(load)"
echo
fi

if part spare; then
echo "## An idle spare (1 rank + 1 spare, no failure; its CPU over $SPARE_SECONDS s and its RSS)"
loop_iterations=$(( (SPARE_SECONDS + 10) * 5 ))
"$root/bin/fthp-run" -np 1 --spares 1 --checkpoint-interval 600 -- -Xmx1g "${rank_jvm[@]}" -cp "$jar" \
    org.fthp.bench.CheckpointBench resilient 1 "$loop_iterations" 200 >"$work/spare.out" 2>"$work/spare.err" &
job=$!
descendants() { local c; for c in $(pgrep -P "$1" || true); do echo "$c"; descendants "$c"; done; }
spare_pid=""
for _ in $(seq 1 150); do
  sleep 0.2
  # the spare: the job's Java process of native rank 1 (Open MPI's OMPI_COMM_WORLD_RANK, MPICH's PMI_RANK)
  for p in $(descendants "$job"); do
    if tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "CheckpointBench resilient" \
        && tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qxE "(OMPI_COMM_WORLD_RANK|PMI_RANK)=1"; then
      spare_pid=$p
    fi
  done
  [ -n "$spare_pid" ] && break
done
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
if [ -z "$spare_pid" ]; then
  echo "- the spare's process was not found"
else
  sleep 5
  t0=$(cpu_ticks "$spare_pid"); s0=$(date +%s.%N)
  sleep "$SPARE_SECONDS"
  t1=$(cpu_ticks "$spare_pid"); s1=$(date +%s.%N)
  rss=$(awk '/^VmRSS/{print $2}' "/proc/$spare_pid/status")
  hz=$(getconf CLK_TCK)
  awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s0="$s0" -v s1="$s1" -v rss="$rss" -v l="$(load)" 'BEGIN {
    printf "- spare (pid %s): %.3f s of CPU (user + system) over %.1f s idle; RSS %.1f MiB; load %s\n",
      "'"$spare_pid"'", (b - a) / hz, s1 - s0, rss / 1024, l }'
fi
wait "$job" || echo "- the spare job failed: $(tail -1 "$work/spare.err")"
grep -o "an idle spare used .*" "$work/spare.err" | sed 's/^/- fthp-run summary: /' || true
echo
fi

if part auto; then
echo "## --checkpoint-interval auto (4 ranks + 4 replicas, 64 MiB per rank, --mtbf-per-process 600)"
l=$(load)
"$root/bin/fthp-run" -np 4 --replicas 4 --nodes 2 --checkpoint-interval auto --mtbf-per-process 600 \
    --checkpoint-memory 2G --events "$work/auto.events" -- \
    -Xmx1g -cp "$jar" org.fthp.bench.CheckpointBench loop 64 60 200 >"$work/auto.out" 2>"$work/auto.err" \
  || { echo "auto run failed:"; tail -10 "$work/auto.err"; }
python3 - "$work/auto.events" "$l" <<'PY'
import sys, json
ev = [json.loads(l) for l in open(sys.argv[1])]
chosen = [e for e in ev if e["event"] == "checkpoint-interval"]
costs = [e["costSeconds"] for e in ev if e["event"] == "checkpoint-committed"]
for e in chosen:
    print(f"- {e['seconds']:.1f} s ({e['basis']})")
print(f"- {len(costs)} checkpoints, measured costs {', '.join('%.0f ms' % (c * 1e3) for c in costs)}; "
      f"load {sys.argv[2]}")
PY
echo
fi
echo "load average after: $(load)"
