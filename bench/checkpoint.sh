#!/usr/bin/env bash
# Checkpoint cost against state size, and restart time (not part of the suite). Needs a built tree.
#
#   bench/checkpoint.sh                      # sizes 1 16 64 256 1024 MiB per rank, 3 checkpoints each
#   SIZES="1 64" REPS=5 bench/checkpoint.sh
#
# Cost: 2 ranks on 2 emulated nodes (--nodes 2: each piece is held by its node's coordinator and the
# other's), forced checkpoints of SIZE MiB of doubles per rank; the slowest rank's time in
# Checkpoint.checkpoint() (encode + put to both coordinators' memory), median of REPS, and MiB/s.
# Restart: 4 ranks + 4 replicas on 2 nodes, 64 MiB per rank, both copies of rank 1 killed; time from
# the kill of the last copy to every rank back in its main loop (the slowest "resumed" line).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
SIZES="${SIZES:-1 16 64 256 1024}"
REPS="${REPS:-3}"
jar="$root/bench/target/fthp-bench-0.1.0-SNAPSHOT.jar"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "| state per rank | checkpoint cost (median of $REPS, slowest rank) | rate per rank |"
echo "| ---: | ---: | ---: |"
for mb in $SIZES; do
  heap=$(( mb * 3 / 1024 + 1 ))
  "$root/bin/fthp-run" -np 2 --nodes 2 --checkpoint-interval 3600 --checkpoint-memory 8G -- \
      -Xmx${heap}g -cp "$jar" org.fthp.bench.CheckpointBench cost "$mb" "$REPS" >"$work/cost.$mb" 2>"$work/cost.$mb.err" \
    || { echo "| $mb MiB | failed (see below) | |"; tail -5 "$work/cost.$mb.err"; continue; }
  python3 - "$work/cost.$mb" "$mb" <<'PY'
import sys, statistics
secs = [float(l.split()[2]) for l in open(sys.argv[1]) if l.startswith("checkpoint ")]
mb = float(sys.argv[2]); m = statistics.median(secs)
print(f"| {mb:g} MiB | {m * 1e3:.1f} ms | {mb / m:.0f} MiB/s |")
PY
done

echo
echo "Restart of 4 ranks + 4 replicas (8 processes, 2 nodes, 64 MiB per rank) after both copies of rank 1 die:"
events="$work/events.jsonl"
"$root/bin/fthp-run" -np 4 --replicas 4 --nodes 2 --checkpoint-interval 1 --restart 1 --events "$events" \
    --kill 1:cmp@6 --kill 1:rep@6 -- -Xmx1g -cp "$jar" org.fthp.bench.CheckpointBench loop 64 60 200 \
    >"$work/restart.out" 2>"$work/restart.err" || { echo "restart run failed:"; tail -20 "$work/restart.err"; exit 1; }
python3 - "$events" "$work/restart.err" <<'PY'
import sys, json, datetime
kills = [json.loads(l) for l in open(sys.argv[1]) if '"failure-injected"' in l]
restarted = [json.loads(l) for l in open(sys.argv[1]) if '"job-restarted"' in l]
last_kill = max(datetime.datetime.fromisoformat(k["time"].replace("Z", "+00:00")).timestamp() for k in kills)
resumed = [int(l.split()[1]) / 1e3 for l in open(sys.argv[2]) if l.startswith("resumed ")]
print(f"- from checkpoint epoch {restarted[0].get('epoch')} ({len(resumed)} processes resumed)")
print(f"- kill of the last copy to every process back in its main loop: {max(resumed) - last_kill:.2f} s "
      f"(fastest {min(resumed) - last_kill:.2f} s)")
print(f"- of which relaunch (abort to new mpirun, fthp-run's event): {restarted[0].get('restartSeconds')} s")
PY
