#!/usr/bin/env bash
# Makes the ranks' ahead-of-time cache, replication/target/fthp-mpi.aot, and its stamp (scripts/build.sh runs it
# after the Maven build; see org.fthp.launcher.AotCache): a short replicated, checkpointed job with one kill records
# what its ranks load and link on their way into their main loop and through a repair (-XX:AOTMode=record), then one
# JVM assembles the cache from the promoted replica's record (-XX:AOTMode=create), with the ranks' own options and
# class path. fthp-run passes it to
# every rank while the runtime jar and the JVM are the very files it was made from.
#
# Needs JDK 24+ (the AOT cache, JEP 483) and a runnable native MPI; without them there is no cache and the ranks
# start without one. Runs one short training job.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

fthp_find_jdk
java="$JAVA_HOME/bin/java"
runtime="$FTHP_HOME/replication/target/fthp-mpi.jar"
launcher="$FTHP_HOME/proxy-launcher/target/fthp-proxy-launcher-0.1.0-SNAPSHOT.jar"
cache="$(dirname "$runtime")/fthp-mpi.aot"
stamp="$cache.stamp"
# an old cache never stays beside a new jar, whatever happens below
rm -f "$cache" "$stamp"
if (( $(fthp_java_major "$java") < 24 )); then
  echo "$(fthp_me): $java is older than 24: no ahead-of-time cache for the ranks" >&2
  exit 0
fi
work="$(mktemp -d)"
# AOT_KEEP=1 keeps the training's records and output (for a look at what was trained)
trap '[[ -n "${AOT_KEEP:-}" ]] || rm -rf "$work"' EXIT

# the ranks' options as fthp-run gives them (MpirunCommand), so that the cache fits the JVMs it is made for
rank_options=(--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC)
# Open MPI's mpirun puts its working directory first on a java rank's class path; a cache cannot be made with a
# directory holding files on its path, so the training runs in an empty one (the JVM takes the cache whatever
# directory comes first later)
mkdir "$work/cwd"
# the training kills logical rank 1's computational copy among AotTraining's closing rounds (its TRAINING_KILL-th
# MPI call), so the survivors' repair and the replica's promotion are recorded too: untrained, a job's first
# repair loads and links that code while every survivor waits. Should that job fail, the training runs once more
# without the kill (a cache without the repair, still good for starting)
TRAINING_KILL=${TRAINING_KILL:-300}
# then, with a spare, both copies of rank 0 at their ROLLBACK_KILL-th call: the survivors (the promoted replica among
# them) roll back in place, so the readiness round, the generation's communicators and the recovery are in the
# record as well. Should that job fail, the training runs with the repair's kill alone
ROLLBACK_KILL=${ROLLBACK_KILL:-600}
# classes only, no method profiles (JEP 515): the JIT compiles a program's hot path from the training's profiles (a
# replicated job's: replica branches, twin decisions, other operations at the same call sites) and keeps what it
# compiled, so an unreplicated job's small messages would go through code shaped for a replicated one and be
# slower for the whole run. The profiles would make a first repair faster, but a job pays the data path on every
# message and a repair once per failure. What the cache saves a rank's start and a first repair is the loading and linking
# of classes, which stays
no_profiles=(-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining)
train() {
  rm -f "$work"/rank.*.aotconf "$work/repairs.jsonl"
  (cd "$work/cwd" && "$FTHP_HOME/bin/fthp-run" -np 2 --replicas 2 --nodes 2 --checkpoint-interval 3600 --checkpoint-memory 256M \
      -x "FTHP_REPAIR_LOG=$work/repairs.jsonl" "$@" -- \
      -XX:AOTMode=record -XX:AOTConfiguration="$work/rank.%p.aotconf" "${no_profiles[@]}" -Xlog:aot=warning \
      -cp "$runtime" org.fthp.replication.startup.AotTraining) >"$work/training.out" 2>&1
}
if ! train --spares 1 --kill "1:cmp#$TRAINING_KILL" --kill "0:cmp#$ROLLBACK_KILL" --kill "0:rep#$ROLLBACK_KILL"; then
  echo "$(fthp_me): the training job with a rollback failed; training with the repair alone" >&2
  tail -20 "$work/training.out" >&2
  if ! train --kill "1:cmp#$TRAINING_KILL"; then
  echo "$(fthp_me): the training job with a kill failed; training without the repair" >&2
  tail -20 "$work/training.out" >&2
  train || {
    echo "$(fthp_me): the training job failed: no ahead-of-time cache for the ranks" >&2
    tail -20 "$work/training.out" >&2
    exit 1
  }
  fi
fi
# the record of the promoted replica (it started as a replica, repaired as one, then ran as the computational
# copy: the most paths), else of the process that loaded the most (every process runs the same program)
promoted="$(grep -o '"pid":[0-9]*,[^}]*"promoted":true' "$work/repairs.jsonl" 2>/dev/null | head -n 1 | sed 's/"pid":\([0-9]*\).*/\1/')"
conf="$work/rank.pid$promoted.aotconf"
if [[ -z "$promoted" || ! -s "$conf" ]]; then
  conf="$(ls -S "$work"/rank.*.aotconf 2>/dev/null | head -n 1)"
fi
if [[ -z "$conf" ]]; then
  echo "$(fthp_me): the training job left no record: no ahead-of-time cache for the ranks" >&2
  exit 1
fi
"$java" "${rank_options[@]}" -XX:AOTMode=create -XX:AOTConfiguration="$conf" -XX:AOTCache="$work/fthp-mpi.aot" \
    -cp "$work/cwd:$runtime" >"$work/create.out" 2>&1 || {
  echo "$(fthp_me): making the cache failed: no ahead-of-time cache for the ranks" >&2
  tail -20 "$work/create.out" >&2
  exit 1
}
mv "$work/fthp-mpi.aot" "$cache"
"$java" -cp "$launcher" org.fthp.launcher.AotCache stamp "$runtime" "$java"
echo "$(fthp_me): $cache ($(du -h "$cache" | cut -f1)) for $(basename "$runtime") and $java"
