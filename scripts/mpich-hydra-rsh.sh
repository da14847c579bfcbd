#!/bin/sh
# MPICH's remote launch for FTHP-J on several hosts: hydra's launcher, given as
#
#   mpiexec.hydra -launcher rsh -launcher-exec /path/to/scripts/mpich-hydra-rsh.sh ...
#
# runs this as `mpich-hydra-rsh.sh HOST hydra_pmi_proxy ARGS...` (rsh's convention) for every remote host. It runs
# the real remote agent (FTHP_HYDRA_AGENT: a program taking `HOST word...` as ssh does; default ssh) with the
# proxy library (proxy-launcher/native/fthp_proxy_hydra.c) preloaded into that host's hydra_pmi_proxy, so a rank
# killed there is hidden from its proxy as the library hides one on the launching host, and its pid is reported on
# that host: to FTHP_PROXY_REPORT_DIR/proxy-report.<the remote host's name> (the host's coordinator makes that FIFO;
# a plain file there collects the pids for a test). FTHP_PROXY_REPORT_EXITS (fthp-run sets 1 on several hosts) goes
# with them: a rank's non-zero exit is reported too, so one that fails before registering ends the job through the
# coordinators. The environment does not travel with ssh: the library, the report path and that switch go on the
# remote command line, the hostname is the remote shell's.
# Runs under /bin/sh: POSIX shell only.
set -eu

home=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
library=${FTHP_PROXY_LIB:-$home/proxy-launcher/target/libfthp_proxy_hydra.so}
agent=${FTHP_HYDRA_AGENT:-ssh}

if [ $# -lt 2 ]; then
  echo "mpich-hydra-rsh: usage: $0 HOST COMMAND... (hydra's -launcher rsh -launcher-exec)" >&2
  exit 1
fi
if [ -z "${FTHP_PROXY_REPORT_DIR:-}" ]; then
  echo "mpich-hydra-rsh: FTHP_PROXY_REPORT_DIR is not set (fthp-run sets it for mpiexec.hydra)" >&2
  exit 1
fi
if [ ! -f "$library" ]; then
  echo "mpich-hydra-rsh: proxy library $library not found" >&2
  exit 1
fi
host=$1
shift
# this side's own preload (mpiexec.hydra's) must not reach the agent: the library is given to the remote proxy
# by name, as ssh would have to
unset LD_PRELOAD FTHP_PROXY_REPORT
# the agent may be several words (ssh -p 2222): split as a command line
# shellcheck disable=SC2086
exec $agent "$host" env LD_PRELOAD="$library" FTHP_PROXY_REPORT_EXITS="${FTHP_PROXY_REPORT_EXITS:-0}" \
  FTHP_PROXY_REPORT="$FTHP_PROXY_REPORT_DIR/proxy-report.\$(hostname)" "$@"
