#!/usr/bin/env bash
# Prepares this machine: Open MPI, Maven, a JDK 22+, and an up-to-date build.
# FTHP_MPI=mpich also installs MPICH beside Open MPI (Open MPI stays the plain mpicc/mpirun).
# Slurm and munge (the programs only: the Slurm tests start their own daemons) are installed too, unless
# FTHP_SLURM=0.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

fthp_ensure_openmpi
if [[ "${FTHP_MPI:-}" == mpich ]]; then
  fthp_ensure_mpich
fi
if [[ "${FTHP_SLURM:-1}" != 0 ]]; then
  fthp_ensure_slurm
fi
fthp_ensure_maven
fthp_find_jdk
fthp_ensure_built "$@"
