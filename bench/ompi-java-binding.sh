#!/usr/bin/env bash
# Builds Open MPI's own Java binding (its mpi.jar) from Open MPI's sources, for the benchmark's
# comparison column only: Debian ships the binding's native half (libmpi_java.so, in libopenmpi-dev)
# but not its classes. Nothing of Open MPI's code is copied into this repository; the classes go to
# bench/target/ompi-java/mpi.jar, where bench/run.sh finds them (or pass MPI_JAR=...).
#
#   bench/ompi-java-binding.sh /path/to/ompi            # a git clone of open-mpi/ompi: its v4.1.4 tag
#   bench/ompi-java-binding.sh /path/to/openmpi-4.1.4   # an unpacked release tarball
#   OMPI_REF=v4.1.5 bench/ompi-java-binding.sh /path/to/ompi
#
# The sources' version should match the installed Open MPI (Debian 12: 4.1.4): the classes call
# native methods of the installed libmpi_java.so, and a mismatch fails with UnsatisfiedLinkError.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="${1:?usage: bench/ompi-java-binding.sh <open-mpi source tree or git clone>}"
REF="${OMPI_REF:-v4.1.4}"
OUT="$BENCH_DIR/target/ompi-java"
JAVA_DIR=ompi/mpi/java/java

if [[ -f "$BENCH_DIR/../scripts/lib.sh" ]]; then
  # shellcheck source=../scripts/lib.sh
  source "$BENCH_DIR/../scripts/lib.sh"
  fthp_find_jdk
fi
JAVAC="${JAVA_HOME:+$JAVA_HOME/bin/}javac"
JAR="${JAVA_HOME:+$JAVA_HOME/bin/}jar"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/mpi" "$work/classes"
if [[ -d "$SRC/$JAVA_DIR" && ! -e "$SRC/.git" && ! -d "$SRC/refs" ]]; then
  cp "$SRC/$JAVA_DIR"/*.java "$work/src/mpi/"
else
  # a git clone (work tree or bare): take the files at the tag, whatever is checked out
  files="$(git -C "$SRC" ls-tree --name-only "$REF" -- "$JAVA_DIR/")" \
    || { echo "no $REF in $SRC (set OMPI_REF)" >&2; exit 1; }
  for f in $files; do
    [[ "$f" == *.java ]] && git -C "$SRC" show "$REF:$f" > "$work/src/mpi/$(basename "$f")"
  done
fi
n="$(find "$work/src/mpi" -name '*.java' | wc -l)"
[[ "$n" -gt 0 ]] || { echo "no Java sources under $SRC/$JAVA_DIR" >&2; exit 1; }

"$JAVAC" -nowarn -encoding UTF-8 --release 8 -d "$work/classes" "$work"/src/mpi/*.java 2>&1 \
  | grep -v -e '^warning:' -e '^Note:' -e 'warnings*$' >&2 || true
[[ -f "$work/classes/mpi/MPI.class" ]] || { echo "compiling Open MPI's Java sources failed" >&2; exit 1; }
mkdir -p "$OUT"
"$JAR" cf "$OUT/mpi.jar" -C "$work/classes" .
echo "$OUT/mpi.jar ($n source files of $REF)"
