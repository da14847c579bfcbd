#!/usr/bin/env bash
# Figures of fthp-run under Slurm, on a private Slurm of 3 emulated nodes (scripts/slurm-cluster.sh), one run each:
#   1. sbatch to MPI_Init: submission to the moment every rank of a replicated job (2 ranks + 2 replicas) has
#      ended MPI_Init (the ranks' ready-* marks in their node's job directory)
#   2. node-loss detection: SIGKILL of every process on n2 to the primary's failure-detected event
#   3. relaunch on live nodes: SIGKILL of n2 (holding an unreplicated rank's only copy, --restart 1, n3 spare)
#      to the first line the relaunched ranks print (they checkpoint every iteration, so that line is the next
#      iteration's: MPI_Init, the piece read from disk and one iteration of 150 ms)
#   4. resume in a new job: a job stopped by SIGUSR1 (exit 75), the same script submitted again: submission
#      to the first line it prints (as 3: MPI_Init, the piece from disk, one iteration)
# Not in CI. Needs root; about 2 minutes. Usage: scripts/slurm-figures.sh [DIR] (default: a new directory in
# target/, removed at the end).
set -euo pipefail
here="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
source "$here/lib.sh"
home="$FTHP_HOME"
work="${1:-$home/integration-tests/target/slurm-figures-$$}"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cluster="$work/cluster"
"$here/slurm-cluster.sh" up 3 "$cluster" "f$$" >/dev/null
trap '"$here/slurm-cluster.sh" down "$cluster"; rm -rf "$work"' EXIT
export SLURM_CONF="$cluster/slurm.conf"
programs="$home/integration-tests/target/classes"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f s", b - a }'; }

# batch NAME FTHP_OPTIONS PROGRAM ARGS...: the batch script of SlurmJobTest
batch() {
  local name=$1 options=$2
  shift 2
  cat > "$work/$name.sbatch" <<EOF
#!/bin/bash
#SBATCH --nodes=3 --ntasks-per-node=1 --no-kill --open-mode=append
#SBATCH --output=$work/$name-%j.out --error=$work/$name-%j.err
cd "$home/integration-tests"
"$home/bin/fthp-run" -np 2 $options --mca oob_tcp_if_include 10.231.0.0/24 --mca btl_tcp_if_include 10.231.0.0/24 \
  -- -XX:TieredStopAtLevel=1 -XX:-UsePerfData -cp "$programs" $* &
pid=\$!
trap 'kill -USR1 \$pid' USR1 TERM
while :; do wait \$pid; rc=\$?; kill -0 \$pid 2>/dev/null || break; done
wait \$pid 2>/dev/null; last=\$?; [[ \$last == 127 ]] || rc=\$last
exit \$rc
EOF
  echo "$work/$name.sbatch"
}

await_end() {
  local job=$1 state
  for _ in $(seq 600); do
    state=$(scontrol -o show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL) echo "$state"; return ;; esac
    sleep 0.2
  done
  echo "timeout"
}

await_text() {   # FILE TEXT: waits until FILE holds TEXT; prints the time it was seen
  for _ in $(seq 3000); do
    if [[ -f "$1" ]] && grep -qF -- "$2" "$1"; then now; return; fi
    sleep 0.05
  done
  echo "never"
}

# 1. sbatch to MPI_Init
script=$(batch init "--replicas 2" org.fthp.it.programs.RepairP2p 60)
t0=$(now)
job=$(sbatch --parsable "$script")
ready=never
for _ in $(seq 3000); do
  if (( $(find "$cluster"/tmp/n*/ -maxdepth 2 -name 'ready-*' 2>/dev/null | wc -l) >= 4 )); then ready=$(now); break; fi
  sleep 0.02
done
echo "1. sbatch to MPI_Init (4 processes on 3 nodes): $(elapsed "$t0" "$ready")   [job $job: $(await_end "$job")]"

# 2. node-loss detection
events="$work/nodeloss.events.jsonl"
script=$(batch nodeloss "--replicas 2 --events $events" org.fthp.it.programs.RepairP2p 300 5000)
job=$(sbatch --parsable "$script")
await_text "$work/nodeloss-$job.out" "RepairP2p iteration 40 " >/dev/null
tc=$(now)
"$here/slurm-cluster.sh" crash "$cluster" n2
for _ in $(seq 400); do grep -q failure-detected "$events" 2>/dev/null && break; sleep 0.05; done
detected=$(grep -m1 failure-detected "$events" | sed 's/.*"time":"\([^"]*\)".*/\1/')
echo "2. node loss to failure-detected: $(elapsed "$tc" "$(date -d "$detected" +%s.%N)")   [job $job: $(await_end "$job")]"
"$here/slurm-cluster.sh" restart "$cluster" n2

# 3. relaunch on the live nodes
script=$(batch spare "--checkpoint-dir $work/ckpt-spare --checkpoint-interval 600 --restart 1" \
  org.fthp.it.programs.RestartIterations 40 150 --force 1)
job=$(sbatch --parsable "$script")
await_text "$work/spare-$job.out" "iteration 17 " >/dev/null
tc=$(now)
"$here/slurm-cluster.sh" crash "$cluster" n2
scontrol update nodename=n2 state=down reason=figures
last=$(grep -c '^iteration' "$work/spare-$job.out")
await_text "$work/spare-$job.err" "relaunching" >/dev/null
back=never
for _ in $(seq 3000); do
  (( $(grep -c "^iteration" "$work/spare-$job.out") > last )) && { back=$(now); break; }
  sleep 0.05
done
echo "3. node loss to the relaunched ranks' next line: $(elapsed "$tc" "$back")   [job $job: $(await_end "$job"); $(grep -o 'relaunching.*' "$work/spare-$job.err")]"
"$here/slurm-cluster.sh" restart "$cluster" n2

# 4. resume in a new job
script=$(batch limit "--replicas 1 --checkpoint-dir $work/ckpt-limit" org.fthp.it.programs.RestartIterations 40 150)
job=$(sbatch --parsable "$script")
await_text "$work/limit-$job.out" "iteration 12 " >/dev/null
scancel --signal=USR1 --batch "$job"
echo "   first job: $(await_end "$job") $(scontrol -o show job "$job" | grep -o 'ExitCode=[0-9:]*')"
printed=$(grep -c '^iteration' "$work/limit-$job.out")
t0=$(now)
job2=$(sbatch --parsable "$script")
first=$(await_text "$work/limit-$job2.out" "iteration $printed ")
echo "4. resubmission to the resumed job's first line: $(elapsed "$t0" "$first")   [job $job2: $(await_end "$job2"); $(grep -o 'resuming.*' "$work/limit-$job2.err")]"
