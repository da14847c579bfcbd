#!/usr/bin/env bash
# Builds and runs the plain C programs of this directory against one native MPI:
#   run.sh [mpich|openmpi]     (default mpich)
# MPICH through its suffixed commands (mpicc.mpich, mpiexec.hydra), Open MPI through the plain ones,
# so both can be compared on a machine that has them side by side. Every job has a timeout.
# Nothing is cached: the ABI probe's output goes to a temporary directory removed at exit.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
probe_source="$here/../../../main/resources/org/fthp/empi/abi/empi_abi_probe.c"
mpi="${1:-mpich}"
case "$mpi" in
  mpich)   cc=mpicc.mpich; run=(mpiexec.hydra) ;;
  openmpi) cc=mpicc;       run=(mpirun --allow-run-as-root --oversubscribe) ;;
  *) echo "run.sh: unknown MPI '$mpi' (mpich or openmpi)" >&2; exit 2 ;;
esac
command -v "$cc" >/dev/null || { echo "run.sh: $cc not found (FTHP_MPI=mpich scripts/setup.sh installs MPICH)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for prog in truncate errclass threads eager interroot testall; do
  "$cc" -Wall -Wextra -O1 -o "$work/$prog" "$here/$prog.c"
done
"$cc" -O0 -o "$work/probe" "$probe_source" -ldl

echo "== ABI probe ($cc): layout, not the constants"
"$work/probe" | grep -v -E '^(const|handle)\.MPI_'
"$work/probe" | grep -E '^handle\.MPI_(COMM_WORLD|DOUBLE|REQUEST_NULL|MESSAGE_NULL|SUM)='
echo "== thread levels"
for level in 0 1 2 3; do
  timeout 60 "${run[@]}" -n 1 "$work/threads" "$level"
done
echo "== eager limit between two ranks of this host"
timeout 300 "${run[@]}" -n 2 "$work/eager" | tail -n 1
echo "== error classes under MPI_ERRORS_RETURN"
timeout 120 "${run[@]}" -n 2 "$work/errclass"
echo "== truncated receives (receive of half the message, guard zone behind it)"
timeout 300 "${run[@]}" -n 2 "$work/truncate"
echo "== rooted nonblocking collectives on an intercommunicator, every root of the high half"
timeout 120 "${run[@]}" -n 6 "$work/interroot"
echo "== MPI_Testall with one receive failed and the other pending, then completed through MPI_Request_get_status"
timeout 120 "${run[@]}" -n 2 "$work/testall"
