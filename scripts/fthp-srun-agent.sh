#!/bin/sh
# fthp-run's remote agent inside a Slurm allocation: runs a command on one node of the job as
# ssh would (`fthp-srun-agent.sh HOST 'one command line'`), through a Slurm step, since many clusters allow
# no ssh between nodes. The step overlaps the job's others (a coordinator takes no CPUs from the ranks), is not
# killed with a failed node elsewhere (--no-kill), and forwards stdin (the job secret, then the coordinator's
# control channel and lifeline) and stdout (its ready line).
set -eu
if [ $# -lt 2 ]; then
  echo "fthp-srun-agent: usage: fthp-srun-agent.sh HOST COMMAND" >&2
  exit 255
fi
host=$1
shift
exec srun --overlap --nodes=1 --ntasks=1 --nodelist="$host" --no-kill --kill-on-bad-exit=0 --quiet \
  --input=all --export=ALL --job-name=fthp-coordinator /bin/sh -c "$*"
