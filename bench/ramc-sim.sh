#!/usr/bin/env bash
# Simulated RAMC (libramc-sim, docs/ramc.md "Simulated transport") on the
# Slingshot network model. See docs/performance.md, section "Simulated RAMC".
#
#   bench/ramc-sim.sh [BUILD_DIR] [bw] [heat RANKS...]
#
#   bw     simulated RAMC (examples/ramc-bw) against simulated MPI RMA with
#          OSU osu_put_bw semantics (examples/ramc-bw/mpi_rma_bw.c under
#          SMPI), 2 ranks on 2 nodes, side by side, with the assumptions
#          each rests on. The same sources as the native bench/ramc.sh.
#   heat   the paper's heat diffusion (examples/ramc-heat, unchanged) with
#          RANKS ranks each (squares: 1024 = 32^2, 4096 = 64^2,
#          19600 = 140^2) on 250 Slingshot nodes, 80 ranks per node, 10 x 10
#          cells per rank, 100 iterations: wall time and peak RSS of the
#          simulation, simulated time, and whether the result still matches
#          the serial computation bit for bit.
#
# Default: bw, then heat 1024 4096. Each heat size runs on its own, so
#   bench/ramc-sim.sh build heat 19600
# runs only the largest (about 8 minutes and 1.4 GiB here; it needs
# vm.max_map_count above the default, the script says how much).
#
# Environment: MACHINE (models/machines/musica-h100.yaml), NETWORK
# (models/machines/slingshot.yaml), HEAT_ITERS (100), HEAT_CELLS (cells per
# rank and dimension, 10), HEAT_NODES (250), HEAT_RANKS_PER_NODE (80),
# BENCH_SCALE and BENCH_MAX_SIZE (as for ramc-bw), CC (clang).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
shift || true
[[ $# -gt 0 ]] || set -- bw heat 1024 4096
build=$(cd "$build" && pwd)
lib="$build/lib"
platform="$build/bin/orrery-platform"
routes="$build/bin/orrery-platform-routes"
for f in "$lib/libramc-sim.so" "$lib/liborrery-sim.so" "$platform"; do
  if [[ ! -e $f ]]; then
    echo "ramc-sim.sh: $f is missing; build it first (ninja -C $build ramc_sim orrery-platform)" >&2
    exit 1
  fi
done
machine=${MACHINE:-$src/models/machines/musica-h100.yaml}
network=${NETWORK:-$src/models/machines/slingshot.yaml}
cc=${CC:-/usr/lib/llvm-22/bin/clang}
cxx=${CXX:-/usr/lib/llvm-22/bin/clang++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# SMPI copies each rank's program to its temporary directory.
export TMPDIR=${TMPDIR:-/tmp}
unset ORRERY_MACHINE ORRERY_NETWORK_FILE ORRERY_NETWORK_MODE ORRERY_RANKS_PER_NODE
unset RAMC_NOTIFY RAMC_TIMEOUT_MS RAMC_SIM_FLOW_BYTES

# skeleton NAME SOURCE [ramc]: builds a program as smpicc would (a shared
# object per rank), against libramc-sim when asked.
skeleton() {
  local name=$1 source=$2 libs=(-lsimgrid -lm)
  [[ ${3:-} == ramc ]] && libs=(-L"$lib" -Wl,-rpath,"$lib" -lramc-sim -lorrery-sim "${libs[@]}")
  "$cc" -fPIC -O2 -I/usr/include/smpi -include smpi/smpi_helpers.h \
    -I"$src/runtime/ramc/include" -c "$source" -o "$tmp/$name.o"
  "$cxx" -shared -Wl,-z,defs "$tmp/$name.o" "${libs[@]}" -o "$tmp/$name.so"
}

smpirun_cmd=(smpirun --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0)

# quantity FILE KEY: "value unit (kind)" of a key of the machine's or the
# network file's network.ramc section, or of its NIC.
quantity() {
  sed -n "s/^ *$2: *{value: *\([^,]*\), *unit: *\([^,]*\), *kind: *\([^,]*\),.*/\1 \2 (\3)/p" "$1" | head -1
}

bw() {
  echo "== simulated RAMC vs simulated MPI RMA, 2 ranks on 2 nodes"
  skeleton ramc-bw "$src/examples/ramc-bw/ramc_bw.c" ramc
  skeleton mpi-rma "$src/examples/ramc-bw/mpi_rma_bw.c"
  "$platform" --machine "$machine" --network "$network" --nodes 2 \
    --ranks-per-node 1 -o "$tmp/bw.xml" --hostfile "$tmp/bw.hosts" 2> /dev/null
  local put_s
  put_s=$(quantity "$network" put_overhead | awk '{ u = $2 == "us" ? 1e-6 : ($2 == "ns" ? 1e-9 : 1); print $1 * u }')
  ORRERY_MACHINE=$machine ORRERY_NETWORK_FILE=$network ORRERY_RANKS_PER_NODE=1 \
    "${smpirun_cmd[@]}" -np 2 -platform "$tmp/bw.xml" -hostfile "$tmp/bw.hosts" \
    "$tmp/ramc-bw.so" > "$tmp/ramc" 2> "$tmp/ramc.err" ||
    { cat "$tmp/ramc.err" >&2; exit 1; }
  "${smpirun_cmd[@]}" -np 2 -platform "$tmp/bw.xml" -hostfile "$tmp/bw.hosts" \
    "$tmp/mpi-rma.so" > "$tmp/mpi" 2> "$tmp/mpi.err" ||
    { cat "$tmp/mpi.err" >&2; exit 1; }
  "${smpirun_cmd[@]}" --cfg=smpi/ois:0:"$put_s":0 -np 2 -platform "$tmp/bw.xml" \
    -hostfile "$tmp/bw.hosts" "$tmp/mpi-rma.so" > "$tmp/mpio" 2> "$tmp/mpio.err" ||
    { cat "$tmp/mpio.err" >&2; exit 1; }

  echo "Assumptions:"
  echo "  machine $(basename "$machine"), network $(basename "$network"); SMPI network model"
  echo "  (SMPI's bandwidth/latency factors on NIC routes), computation not simulated."
  if [[ -x $routes ]]; then
    # The two ranks' hosts (each rank's CPU host is its rail's).
    "$routes" "$tmp/bw.xml" $(head -n 2 "$tmp/bw.hosts") 2> /dev/null |
      { grep -- '->' || true; } | sed 's/^/  route: /'
  fi
  echo "  links of that route: $(grep -o 'id="node0-nic0-tx" bandwidth="[^"]*" latency="[^"]*"' "$tmp/bw.xml" | sed 's/id=//') (rank 0's rail NIC), ..."
  echo "  RAMC: $(sed -n 's/^# ramc-bw: RAMC //p' "$tmp/ramc")"
  echo "    per-call overheads and inject size from the network file's ramc section:"
  for k in put_overhead completion_overhead inject_size; do
    echo "      $k = $(quantity "$network" $k)"
  done
  echo "    puts and reads up to 256 B are timed messages (latency + size/bandwidth,"
  echo "    no contention); larger ones SimGrid flows; completion by MR counter (cxi)"
  echo "  MPI RMA: SMPI 3.32's MPI_Put/MPI_Win_flush as they are: messages are flows,"
  echo "    an MPI call costs no CPU time (no software overhead is modelled)"
  echo "  MPI RMA +o: the same with RAMC's put overhead charged per MPI_Put"
  echo "    (--cfg=smpi/ois:0:$put_s:0)"
  echo
  printf '%9s | %11s %11s %11s | %9s %9s | %9s %9s %9s\n' size "RAMC MB/s" \
    "MPI MB/s" "MPI+o MB/s" RAMC/MPI RAMC/MPI+o "RAMC us" "MPI us" "MPI+o us"
  local pat='s/^size=\([0-9]*\) bw_MBps=\([^ ]*\) lat_us=\(.*\)/\1 \2 \3/p'
  join -j1 <(sed -n "$pat" "$tmp/ramc" | sort -k1,1) <(sed -n "$pat" "$tmp/mpi" | sort -k1,1) |
    join -j1 - <(sed -n "$pat" "$tmp/mpio" | sort -k1,1) | sort -n -k1,1 |
    awk '{ printf "%9d | %11.2f %11.2f %11.2f | %9.2f %9.2f | %9.2f %9.2f %9.2f\n",
           $1, $2, $4, $6, ($4 > 0 ? $2 / $4 : 0), ($6 > 0 ? $2 / $6 : 0), $3, $5, $7 }'
  echo "(MB = 10^6 B; latency = ping-pong / 2 for RAMC, put + flush for MPI RMA,"
  echo " as osu_put_latency; simulated time)"
}

heat() {
  local ranks=$1 iters=${HEAT_ITERS:-100} cells=${HEAT_CELLS:-10}
  local nodes=${HEAT_NODES:-250} rpn=${HEAT_RANKS_PER_NODE:-80}
  local side
  side=$(awk -v n="$ranks" 'BEGIN { s = int(sqrt(n) + 0.5); print (s * s == n) ? s : 0 }')
  if [[ $side == 0 ]]; then
    echo "ramc-sim.sh: heat needs a square number of ranks, not $ranks" >&2
    exit 1
  fi
  if ((ranks > nodes * rpn)); then
    echo "ramc-sim.sh: $ranks ranks do not fit $nodes nodes x $rpn" >&2
    exit 1
  fi
  # Every rank costs SMPI about 7 memory mappings (its copy of the program
  # and its stack).
  local maps need
  maps=$(cat /proc/sys/vm/max_map_count)
  need=$((ranks * 8 + 2000))
  if ((maps < need)); then
    echo "ramc-sim.sh: $ranks ranks need about $need memory mappings; vm.max_map_count is $maps." >&2
    echo "  Raise it (as root): sysctl -w vm.max_map_count=$((need > 262144 ? need : 262144))" >&2
    exit 1
  fi
  [[ -e $tmp/heat.so ]] || skeleton heat "$src/examples/ramc-heat/ramc_heat.c" ramc
  [[ -e $tmp/heat.xml ]] ||
    "$platform" --machine "$machine" --network "$network" --nodes "$nodes" \
      --ranks-per-node "$rpn" -o "$tmp/heat.xml" --hostfile "$tmp/heat.hosts" 2> /dev/null
  local n=$((side * cells))
  echo "== heat diffusion: $ranks ranks ($side x $side) on $nodes nodes x $rpn, grid $n x $n, $iters iterations"
  ORRERY_MACHINE=$machine ORRERY_NETWORK_FILE=$network ORRERY_RANKS_PER_NODE=$rpn \
    ORRERY_REPORT="$tmp/heat-$ranks.json" ORRERY_PROGRESS=0 RAMC_SIM_STATS=1 \
    /usr/bin/time -f "wall_s %e peak_rss_kb %M" \
    "${smpirun_cmd[@]}" -np "$ranks" -platform "$tmp/heat.xml" -hostfile "$tmp/heat.hosts" \
    "$tmp/heat.so" "$n" "$n" "$iters" > "$tmp/heat-$ranks.out" 2> "$tmp/heat-$ranks.err" ||
    { grep -v INFO "$tmp/heat-$ranks.err" | tail -20 >&2; exit 1; }
  sed 's/^/  /' "$tmp/heat-$ranks.out"
  grep '^ramc-sim:' "$tmp/heat-$ranks.err" | sed 's/^/  /'
  local wall rss sim
  wall=$(sed -n 's/^wall_s \([^ ]*\) .*/\1/p' "$tmp/heat-$ranks.err")
  rss=$(sed -n 's/.*peak_rss_kb \([0-9]*\).*/\1/p' "$tmp/heat-$ranks.err")
  sim=$(python3 -c 'import json,sys; print("%.6g" % json.load(open(sys.argv[1]))["simulated_seconds"])' \
    "$tmp/heat-$ranks.json" 2> /dev/null || echo "?")
  printf '  ranks %d: wall %s s, peak RSS %.0f MiB, simulated %s s (%s iterations)\n' \
    "$ranks" "$wall" "$((rss / 1024))" "$sim" "$iters"
}

echo "ramc-sim.sh: $(date -u +%FT%TZ) on $(hostname), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
while [[ $# -gt 0 ]]; do
  case $1 in
  bw) bw; shift ;;
  heat)
    shift
    [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]] || set -- 1024 4096 "$@"
    while [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; do heat "$1"; shift; done
    ;;
  *) echo "ramc-sim.sh: unknown part '$1' (bw, heat RANKS...)" >&2; exit 1 ;;
  esac
done
