#!/usr/bin/env bash
# Ping-pong between two emulated hosts against one host: the bench's C pingpong
# (bench/src/main/c/pingpong.c) over TCP between h0 and h1, over TCP and over shared memory (vader)
# inside h0, over TCP on the machine's loopback, and the allreduce of doubles between h0 and h1
# (bench/src/main/c/allreduce.c); with JAVA=1 also the facade's PingPong and AllReduce (bench jar,
# through bin/fthp-run) between h0 and h1. Runs are interleaved, REPS of each;
# prints the lowest and the median one-way time (us) per size, and the lowest and median time per
# allreduce, as Markdown tables. Needs root.
#
#   scripts/hosts-pingpong.sh            # REPS=3
#   REPS=5 JAVA=1 scripts/hosts-pingpong.sh
#   CONFIGS="cross-tcp cross-facade" REPS=1 scripts/hosts-pingpong.sh
#   PINGPONG_SOURCE=other.c              # another program printing "pingpong BYTES US GBPS" lines
#
# The machine must be otherwise idle: every process here waits on its peer, so other load on the
# cores shows up directly as latency.
set -euo pipefail
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib.sh"

REPS="${REPS:-3}"
JAVA="${JAVA:-0}"
RUN_TIMEOUT="${RUN_TIMEOUT:-900}"
out="$FTHP_HOME/bench/target/hosts-pingpong/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
# not under /tmp: each emulated host has its own
pingpong="$out/pingpong"
mpicc -O2 -o "$pingpong" "${PINGPONG_SOURCE:-$FTHP_HOME/bench/src/main/c/pingpong.c}"
allreduce="$out/allreduce"
mpicc -O2 -o "$allreduce" "$FTHP_HOME/bench/src/main/c/allreduce.c"
bench_jar="$(echo "$FTHP_HOME"/bench/target/fthp-bench-*.jar)"

hosts="$("$FTHP_HOME/scripts/emulated-hosts.sh" up 2 "pp$$")"
trap '"$FTHP_HOME/scripts/emulated-hosts.sh" down "$hosts"' EXIT
agent="$("$FTHP_HOME/scripts/emulated-hosts.sh" agent "$hosts")"
on_h0=("$FTHP_HOME/scripts/emulated-hosts.sh" exec "$hosts" h0)
mpirun_h0=(mpirun --allow-run-as-root --bind-to none --mca plm_rsh_agent "$agent")

configs=(cross-tcp h0-tcp h0-vader loopback-tcp cross-allreduce)
[[ "$JAVA" == 1 ]] && configs+=(cross-facade cross-facade-allreduce)
# CONFIGS="cross-tcp cross-facade": only those (facade against native C between the hosts)
[[ -n "${CONFIGS:-}" ]] && read -r -a configs <<< "$CONFIGS"

run() {
  local config=$1 rep=$2 file="$out/$1-$2.txt" cmd
  case "$config" in
    cross-tcp) cmd=("${on_h0[@]}" "${mpirun_h0[@]}" --mca btl tcp,self --host h0:1,h1:1 -np 2 "$pingpong") ;;
    h0-tcp) cmd=("${on_h0[@]}" "${mpirun_h0[@]}" --mca btl tcp,self --host h0:2 -np 2 "$pingpong") ;;
    h0-vader) cmd=("${on_h0[@]}" "${mpirun_h0[@]}" --mca btl vader,self --host h0:2 -np 2 "$pingpong") ;;
    loopback-tcp) cmd=(mpirun --allow-run-as-root --bind-to none --mca btl tcp,self --mca btl_tcp_if_include lo
                       -np 2 "$pingpong") ;;
    cross-facade) cmd=("${on_h0[@]}" "$FTHP_HOME/bin/fthp-run" -np 2 --host h0:1,h1:1 --mca plm_rsh_agent "$agent"
                       --mca btl tcp,self -- -cp "$bench_jar" org.fthp.bench.PingPong) ;;
    cross-allreduce) cmd=("${on_h0[@]}" "${mpirun_h0[@]}" --mca btl tcp,self --host h0:1,h1:1 -np 2 "$allreduce") ;;
    cross-facade-allreduce) cmd=("${on_h0[@]}" "$FTHP_HOME/bin/fthp-run" -np 2 --host h0:1,h1:1 --mca plm_rsh_agent
                       "$agent" --mca btl tcp,self -- -cp "$bench_jar" org.fthp.bench.AllReduce) ;;
  esac
  local start=$SECONDS
  timeout "$RUN_TIMEOUT" "${cmd[@]}" > "$file" 2>&1 || echo "$config run $rep failed (see $file)" >&2
  echo "$config run $rep: $((SECONDS - start)) s, load $(cut -d' ' -f1 /proc/loadavg)" >&2
}

for ((rep = 1; rep <= REPS; rep++)); do
  for config in "${configs[@]}"; do
    run "$config" "$rep"
  done
done

# one row per size: lowest / median time of each configuration that measured <kind> (pingpong: one-way
# time; allreduce: time per call)
table() {   # table <kind> <title>
  local kind=$1 title=$2 c
  local with=()
  for c in "${configs[@]}"; do
    if grep -qs "^$kind " "$out/$c-1.txt"; then with+=("$c"); fi
  done
  (( ${#with[@]} )) || return 0
  printf '%s\n\n' "$title"
  printf '| %s |' "$([[ $kind == pingpong ]] && echo bytes || echo doubles)"
  for c in "${with[@]}"; do printf ' %s min / median |' "$c"; done; echo
  printf '| ---: |'; for c in "${with[@]}"; do printf ' ---: |'; done; echo
  for size in $(awk -v k="$kind" '$1 == k {print $2}' "$out/${with[0]}-1.txt"); do
    printf '| %s |' "$size"
    for c in "${with[@]}"; do
      cat "$out/$c"-*.txt | awk -v k="$kind" -v s="$size" '$1 == k && $2 == s {print $3}' | sort -g |
        awk '{v[NR] = $1} END {if (NR == 0) {printf " - |"} else {printf " %.2f / %.2f |", v[1], v[int((NR + 1) / 2)]}}'
    done
    echo
  done
  echo
}
{
  table pingpong "Ping-pong, one-way µs:"
  table allreduce "Allreduce (double, SUM, 2 ranks on 2 hosts), µs per call:"
} | tee "$out/table.md"
echo "results: $out" >&2
