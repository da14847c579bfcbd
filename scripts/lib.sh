# Helpers sourced by bin/fthp-run and the scripts in this directory. Not executable on its own.
# Sourcing sets no shell options: each caller sets `set -euo pipefail` itself.

# Repository root (= FTHP_HOME): the parent of the directory holding this file, symlinks resolved.
FTHP_HOME="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
export FTHP_HOME

# Name used in messages: the script that sourced us.
fthp_me() { basename "$0"; }

# Feature (major) version of a java binary: 25 for "25.0.1", 8 for "1.8.0_401"; 0 if unknown.
fthp_java_major() {
  local v
  v="$("$1" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)"
  case "$v" in
    1.*) v="${v#1.}" ;;
  esac
  v="${v%%[!0-9]*}"
  echo "${v:-0}"
}

# Prints the home of a JDK 22+ (FFM is final since 22): $FTHP_JAVA_HOME, else $JAVA_HOME if
# new enough, else the newest /usr/lib/jvm/* that is. Returns 1 when there is none.
fthp_jdk_home() {
  if [[ -n "${FTHP_JAVA_HOME:-}" ]]; then
    # An explicit choice is honoured or refused, never silently replaced.
    if [[ -x "$FTHP_JAVA_HOME/bin/java" ]] && (( $(fthp_java_major "$FTHP_JAVA_HOME/bin/java") >= 22 )); then
      echo "$FTHP_JAVA_HOME"; return 0
    fi
    echo "$(fthp_me): FTHP_JAVA_HOME=$FTHP_JAVA_HOME is not a JDK 22 or newer" >&2
    return 1
  fi
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && (( $(fthp_java_major "$JAVA_HOME/bin/java") >= 22 )); then
    echo "$JAVA_HOME"; return 0
  fi
  local best="" best_major=0 dir major
  for dir in /usr/lib/jvm/*; do
    [[ -x "$dir/bin/java" ]] || continue
    major="$(fthp_java_major "$dir/bin/java")"
    if (( major >= 22 && major > best_major )); then
      best="$dir"; best_major="$major"
    fi
  done
  [[ -n "$best" ]] || return 1
  echo "$best"
}

# Exports JAVA_HOME and PATH for a JDK 22+, or exits with a clear message.
fthp_find_jdk() {
  local home
  if ! home="$(fthp_jdk_home)"; then
    echo "$(fthp_me): no JDK 22+ found (tried FTHP_JAVA_HOME, JAVA_HOME, /usr/lib/jvm/*); install one and set FTHP_JAVA_HOME" >&2
    exit 1
  fi
  export JAVA_HOME="$home"
  export PATH="$JAVA_HOME/bin:$PATH"
}

# Installs Debian packages as root, or tells a non-root user what to run and exits.
fthp_apt_install() {
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "$(fthp_me): missing $*; run as root: apt-get update && apt-get install -y $*" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

# Open MPI: mpirun launches the ranks, mpicc compiles the ABI probe.
fthp_ensure_openmpi() {
  if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    fthp_apt_install openmpi-bin libopenmpi-dev
  fi
}

# Slurm and munge from Debian packages, for the tests that run a private Slurm on emulated nodes
# (scripts/slurm-cluster.sh): only the programs are used; the test starts its own daemons with its own
# configuration, never the system's services.
fthp_ensure_slurm() {
  if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
      && command -v munged >/dev/null && command -v mungekey >/dev/null; then
    return 0
  fi
  fthp_apt_install slurmctld slurmd slurm-client munge
}

# The Debian alternatives that decide what the plain names mpicc/mpirun and <mpi.h>/libmpi.so
# mean. Installing a second MPI may move them (each package registers itself with a priority).
FTHP_MPI_ALTERNATIVES=(mpi mpirun mpi-x86_64-linux-gnu)

# Prints "name target" for each MPI alternative that exists now (nothing for one that does not).
fthp_mpi_alternatives_now() {
  local name target
  for name in "${FTHP_MPI_ALTERNATIVES[@]}"; do
    if target="$(update-alternatives --query "$name" 2>/dev/null | sed -n 's/^Value: //p')" && [[ -n "$target" ]]; then
      echo "$name $target"
    fi
  done
}

# MPICH from Debian packages, side by side with Open MPI: MPICH's commands keep their suffixed
# names (mpicc.mpich, mpiexec.hydra = mpirun.mpich) and the plain mpicc/mpirun stay whatever they
# were (Open MPI when it is installed). Debian gives Open MPI the higher priority on amd64, but an
# alternative a user left in manual mode, or another architecture's priorities, could move them:
# every MPI alternative is put back to the target it had before the install. Idempotent: with
# mpicc.mpich and mpiexec.hydra present it does nothing.
fthp_ensure_mpich() {
  if command -v mpicc.mpich >/dev/null && command -v mpiexec.hydra >/dev/null; then
    return 0
  fi
  local before name target
  before="$(fthp_mpi_alternatives_now)"
  fthp_apt_install mpich libmpich-dev
  while read -r name target; do
    [[ -n "$name" ]] || continue
    if [[ "$(update-alternatives --query "$name" 2>/dev/null | sed -n 's/^Value: //p')" != "$target" ]]; then
      echo "$(fthp_me): installing MPICH moved the '$name' alternative; setting it back to $target" >&2
      update-alternatives --set "$name" "$target"
    fi
  done <<< "$before"
  if ! command -v mpicc.mpich >/dev/null || ! command -v mpiexec.hydra >/dev/null; then
    echo "$(fthp_me): MPICH installed but mpicc.mpich or mpiexec.hydra is missing" >&2
    exit 1
  fi
}

# Maven builds everything; a fresh Debian machine may lack it.
fthp_ensure_maven() {
  command -v mvn >/dev/null || fthp_apt_install maven
}

# Runs the build when a needed jar is missing or older than any source file or pom.
# Arguments: extra jars (relative to FTHP_HOME) the caller needs besides the standard two.
fthp_ensure_built() {
  local jars=(proxy-launcher/target/fthp-proxy-launcher-0.1.0-SNAPSHOT.jar
              replication/target/fthp-mpi.jar "$@")
  local jar stale=""
  for jar in "${jars[@]}"; do
    if [[ ! -f "$FTHP_HOME/$jar" ]] || [[ -n "$(cd "$FTHP_HOME" && find . \( -name .git -o -name target \) -prune -o \
        \( -path './*/src/*' -o -name pom.xml \) -type f -newer "$jar" -print -quit)" ]]; then
      stale="$jar"; break
    fi
  done
  if [[ -n "$stale" ]]; then
    echo "$(fthp_me): building ($stale is missing or out of date)" >&2
    (cd "$FTHP_HOME" && mvn -q -B -DskipTests install) || return
    # Maven leaves an unchanged jar untouched: mark what was checked as built now
    (cd "$FTHP_HOME" && touch "${jars[@]}")
    # the ranks' ahead-of-time cache, made from the jars as they are now (the touch above would leave an older one
    # refused as stale)
    "$FTHP_HOME/scripts/aot-cache.sh" || echo "$(fthp_me): continuing without the ranks' ahead-of-time cache" >&2
  fi
  return 0
}

# 0..n-1 in a random order drawn from $RANDOM (seed it first), so a seed repeats its runs
fthp_shuffled() {
  local n=$1 i j t
  local a=($(seq 0 $((n - 1))))
  for ((i = n - 1; i > 0; i--)); do
    j=$((RANDOM % (i + 1))); t=${a[$i]}; a[$i]=${a[$j]}; a[$j]=$t
  done
  echo "${a[@]}"
}
