#!/usr/bin/env bash
# RAMC vs MPI RMA vs raw libfabric fi_write, side by side on the same
# transport: TCP loopback, then shared memory. Each round runs every program
# once, rounds interleaved (a busy machine's slow minutes hit all alike) and
# the order rotated from round to round;
# prints, per message size, the medians of the rounds' bandwidth (MB/s, MB =
# 10^6 B) and latency (us) of each, the ratios RAMC/MPI and RAMC/raw of the
# medians, the medians of each round's own ratios ("rnd": the robust figure
# on a noisy machine), and the spread of RAMC's and MPI's bandwidth over the
# rounds (bench/ramc_table.py). See docs/performance.md, section "RAMC".
#
#   bench/ramc.sh [BUILD_DIR]          (default: build)
#   BENCH_MAX_SIZE=65536 BENCH_SCALE=0.3 bench/ramc.sh   (quicker)
#   BENCH_MIN_SIZE=4096 BENCH_MAX_SIZE=262144 ...       (a few sizes)
#   RAMC_BENCH_TRANSPORTS="shm" bench/ramc.sh            (one transport;
#       default "tcp shm"; "sockets" adds the sockets provider's rows)
#   RAMC_BENCH_ROUNDS=5 (default)      rounds per program
#   RAMC_BENCH_BIND=core               mpirun --bind-to core (default none)
#   RAMC_BENCH_CSV=FILE                every round's figures as CSV, drawn by
#                                      orrery-plot --ramc FILE -o DIR
set -euo pipefail

build=${1:-build}
bin="$build/bin"
for prog in ramc-bw ramc-bw-mpi-rma ramc-bw-fi-write; do
  if [[ ! -x "$bin/$prog" ]]; then
    echo "ramc.sh: $bin/$prog is missing; build it first (ninja -C $build $prog)" >&2
    exit 1
  fi
done

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export FI_SOCKETS_IFACE=lo FI_TCP_IFACE=lo
unset RAMC_NOTIFY RAMC_BOOTSTRAP FI_PROVIDER
bind=${RAMC_BENCH_BIND:-none}
case $bind in none | core) ;; *)
  echo "ramc.sh: RAMC_BENCH_BIND='$bind' is neither none nor core" >&2; exit 1 ;;
esac
mpirun_cmd=(timeout 900 mpirun --oversubscribe --bind-to "$bind" -np 2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rounds=${RAMC_BENCH_ROUNDS:-5}
csv=${RAMC_BENCH_CSV:-}
[ -n "$csv" ] && rm -f "$csv"

# run NAME PROVIDER MPI-ARGS... -- PROGRAM: one round's run into
# $tmp/NAME.r$round (its header lines printed on the first round)
run() {
  local name=$1 provider=$2
  shift 2
  local args=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  RAMC_PROVIDER="$provider" "${mpirun_cmd[@]}" "${args[@]}" "$bin/$1" \
    > "$tmp/$name.r$round" 2> "$tmp/$name.err" || {
      echo "ramc.sh: $name failed:" >&2; cat "$tmp/$name.err" >&2; exit 1; }
  [ "$round" = 1 ] && grep '^#' "$tmp/$name.r$round" | sed 's/^# /  /'
  return 0
}

# rotated SPEC...: runs each SPEC (run's arguments, quoted as one word)
# once, starting one further along the list every round, so that every
# program runs in every position of a round as often as the others: on a
# 2-core machine the first run of a round was up to 10 % slower than the
# same program run second (identical builds side by side), and RAMC used
# to run first in every round.
rotated() {
  local specs=("$@") n=$# i
  for ((i = 0; i < n; i++)); do
    eval "run ${specs[$(((i + round - 1) % n))]}"
  done
}

# table [--goals] TITLE RAMC MPI RAW TRANSPORT: the table (and, with
# --goals, whether it meets docs/performance.md's goals)
table() {
  local goals=()
  if [[ $1 == --goals ]]; then goals=(--goals); shift; fi
  python3 "$(dirname "$0")/ramc_table.py" "${goals[@]}" \
    ${csv:+--csv "$csv" --transport "$5"} "$1" "$tmp" "$rounds" "$2" "$3" "$4"
}

transports=${RAMC_BENCH_TRANSPORTS:-"tcp shm"}
# MPI RMA over TCP, the baseline of both TCP tables
mpi_tcp='mpi-tcp - --mca btl self,tcp --mca btl_tcp_if_include lo --mca osc pt2pt -- ramc-bw-mpi-rma'
echo "ramc.sh: $(date -u +%FT%TZ) on $(hostname), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); BENCH_MIN_SIZE=${BENCH_MIN_SIZE:-1} BENCH_MAX_SIZE=${BENCH_MAX_SIZE:-4194304} BENCH_SCALE=${BENCH_SCALE:-1}, $rounds rounds, --bind-to $bind"
echo "  $(fi_info --version 2>/dev/null | grep '^libfabric:' || echo 'libfabric: version unknown'); $(mpirun --version 2>/dev/null | head -1)"
for t in $transports; do
  case $t in
  tcp)
    echo "== TCP loopback"
    for ((round = 1; round <= rounds; round++)); do
      rotated \
        'ramc-tcp "tcp;ofi_rxm" --mca btl self,vader -- ramc-bw' \
        'raw-tcp "tcp;ofi_rxm" --mca btl self,vader -- ramc-bw-fi-write' \
        "$mpi_tcp"
    done
    echo "  MPI: Open MPI osc=pt2pt over btl=tcp (loopback)"
    table --goals "TCP: RAMC on tcp;ofi_rxm (cq_data) | MPI RMA over TCP | raw fi_write on tcp;ofi_rxm" \
      ramc-tcp mpi-tcp raw-tcp tcp
    ;;
  sockets)
    # The provider that grants MR counters here; its progress threads
    # compete for a 2-core machine's cores, so it is not in the default set.
    echo "== TCP loopback, sockets provider"
    for ((round = 1; round <= rounds; round++)); do
      rotated \
        'ramc-sockets sockets --mca btl self,vader -- ramc-bw' \
        'raw-sockets sockets --mca btl self,vader -- ramc-bw-fi-write' \
        "$mpi_tcp"
    done
    table "TCP: RAMC on sockets (mr_counter) | MPI RMA over TCP | raw fi_write on sockets" \
      ramc-sockets mpi-tcp raw-sockets sockets
    ;;
  shm)
    echo "== shared memory"
    for ((round = 1; round <= rounds; round++)); do
      rotated \
        'ramc-shm shm --mca btl self,vader -- ramc-bw' \
        'raw-shm shm --mca btl self,vader -- ramc-bw-fi-write' \
        'mpi-shm - --mca btl self,vader --mca osc pt2pt -- ramc-bw-mpi-rma' \
        'mpi-osc-sm - --mca btl self,vader --mca osc sm -- ramc-bw-mpi-rma'
    done
    echo "  MPI: Open MPI osc=pt2pt over btl=vader (messages through shared memory)"
    echo "  MPI (load/store): Open MPI osc=sm, puts are memcpy into a shared mapping"
    table --goals "SHM: RAMC on shm (cq_data) | MPI RMA osc=pt2pt over vader | raw fi_write on shm" \
      ramc-shm mpi-shm raw-shm shm
    table "SHM: RAMC on shm (cq_data) | MPI RMA osc=sm (load/store) | raw fi_write on shm" \
      ramc-shm mpi-osc-sm raw-shm shm
    ;;
  *)
    echo "ramc.sh: unknown transport '$t' in RAMC_BENCH_TRANSPORTS (tcp, shm, sockets)" >&2
    exit 1
    ;;
  esac
done
