#!/bin/sh
# Open MPI's launch agent for FTHP-J (a prototype): runs the orted of a remote host with the
# proxy library (proxy-launcher/native/fthp_proxy.c) preloaded, so a rank killed on that host is
# hidden from its orted, as the library hides one from mpirun on the launching host, and its pid is
# reported on that host.
#
#   mpirun --mca orte_launch_agent /path/to/scripts/fthp-orted.sh --mca fthp_proxy_report_dir DIR ...
#
# Open MPI starts each remote daemon as `<plm_rsh_agent> HOST <orte_launch_agent> -mca ... ` and
# copies mpirun's own --mca options onto that command line, so DIR arrives here as the words
# `fthp_proxy_report_dir DIR` (orted ignores a parameter no component registers). The agent value
# itself must be one word: Open MPI also passes orte_launch_agent on to the daemons unquoted, and a
# value with spaces breaks the orted command line.
#
# Reports go to DIR/proxy-report.HOSTNAME: the host's coordinator makes that FIFO (or, for a test,
# any plain file there collects the pids). DIR must be a path every host has (node-local /tmp is
# fine: each host reports only to itself); with a shared DIR the hostname keeps hosts apart.
# Runs under /bin/sh on the remote side: POSIX shell only.
set -eu

home=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
library=${FTHP_PROXY_LIB:-$home/proxy-launcher/target/libfthp_proxy.so}

dir=
previous=
for word in "$@"; do
  if [ "$previous" = fthp_proxy_report_dir ]; then
    dir=$word
  fi
  previous=$word
done
if [ -z "$dir" ]; then
  echo "fthp-orted: no fthp_proxy_report_dir on the orted command line (mpirun --mca fthp_proxy_report_dir DIR)" >&2
  exit 1
fi
if [ ! -f "$library" ]; then
  echo "fthp-orted: proxy library $library not found on $(hostname)" >&2
  exit 1
fi

export LD_PRELOAD="$library"
export FTHP_PROXY_REPORT="$dir/proxy-report.$(hostname)"
# the orteds run with orte_enable_recovery (fthp-run adds it on several hosts), which ignores a rank's non-zero
# exit: the library reports those too (proxy-launcher/native/fthp_proxy.c)
export FTHP_PROXY_REPORT_EXITS=1
exec orted "$@"
