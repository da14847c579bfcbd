#!/bin/sh
# Starts a node coordinator on a remote host for fthp-run: fthp-run runs
#
#   <plm_rsh_agent> HOST "exec /path/to/scripts/fthp-coordinator.sh /path/to/java ... CoordinatorMain ARGS"
#
# and writes the per-job secret as the first line of the agent's stdin, the one private channel every
# rsh-like agent carries (ssh encrypts it; an agent's environment does not cross to the remote side, and
# a command line is readable by every user of the host). The secret goes into the coordinator's
# environment only (/proc/PID/environ is readable by its owner alone); the rest of stdin stays the
# coordinator's control channel and lifeline. Runs under /bin/sh on the remote side: POSIX shell only.
set -eu
if ! IFS= read -r FTHP_JOB_SECRET; then
  echo "fthp-coordinator: no job secret on stdin" >&2
  exit 3
fi
export FTHP_JOB_SECRET
exec "$@"
