#!/usr/bin/env bash
# Ping-pong between two emulated hosts against one host (issue 21 figures): the bench's C pingpong
# (bench/src/main/c/pingpong.c) over TCP between h0 and h1, over TCP and over shared memory (vader)
# inside h0, and over TCP on the machine's loopback; with JAVA=1 also the facade's PingPong
# (bench jar, through bin/fthp-run) between h0 and h1. Runs are interleaved, REPS of each; prints
# the lowest and the median one-way time (us) per size as a Markdown table. Needs root.
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

hosts="$("$FTHP_HOME/scripts/emulated-hosts.sh" up 2 "pp$$")"
trap '"$FTHP_HOME/scripts/emulated-hosts.sh" down "$hosts"' EXIT
agent="$("$FTHP_HOME/scripts/emulated-hosts.sh" agent "$hosts")"
on_h0=("$FTHP_HOME/scripts/emulated-hosts.sh" exec "$hosts" h0)
mpirun_h0=(mpirun --allow-run-as-root --bind-to none --mca plm_rsh_agent "$agent")

configs=(cross-tcp h0-tcp h0-vader loopback-tcp)
[[ "$JAVA" == 1 ]] && configs+=(cross-facade)
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
                       --mca btl tcp,self -- -cp "$(echo "$FTHP_HOME"/bench/target/fthp-bench-*.jar)"
                       org.fthp.bench.PingPong) ;;
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

# one row per size: lowest / median one-way time of each configuration
{
  printf '| bytes |'; for c in "${configs[@]}"; do printf ' %s min / median |' "$c"; done; echo
  printf '| ---: |'; for c in "${configs[@]}"; do printf ' ---: |'; done; echo
  for size in $(awk '$1 == "pingpong" {print $2}' "$out/${configs[0]}-1.txt"); do
    printf '| %s |' "$size"
    for c in "${configs[@]}"; do
      cat "$out/$c"-*.txt | awk -v s="$size" '$1 == "pingpong" && $2 == s {print $3}' | sort -g |
        awk '{v[NR] = $1} END {if (NR == 0) {printf " - |"} else {printf " %.2f / %.2f |", v[1], v[int((NR + 1) / 2)]}}'
    done
    echo
  done
} | tee "$out/table.md"
echo "results: $out" >&2
