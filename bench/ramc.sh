#!/usr/bin/env bash
# RAMC vs MPI RMA vs raw libfabric fi_write, side by side in one run, on the
# same transport: TCP loopback, then shared memory. Prints, per message size,
# bandwidth (MB/s, MB = 10^6 B) and latency (us) of each and the ratios
# RAMC/MPI and RAMC/raw. See docs/performance.md, section "RAMC".
#
#   bench/ramc.sh [BUILD_DIR]          (default: build)
#   BENCH_MAX_SIZE=65536 BENCH_SCALE=0.3 bench/ramc.sh   (quicker)
#   RAMC_BENCH_TRANSPORTS="shm" bench/ramc.sh            (one transport)
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
mpirun_cmd=(timeout 900 mpirun --oversubscribe --bind-to none -np 2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME PROVIDER MPI-ARGS... -- PROGRAM
run() {
  local name=$1 provider=$2
  shift 2
  local args=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  RAMC_PROVIDER="$provider" "${mpirun_cmd[@]}" "${args[@]}" "$bin/$1" \
    > "$tmp/$name" 2> "$tmp/$name.err" || {
      echo "ramc.sh: $name failed:" >&2; cat "$tmp/$name.err" >&2; exit 1; }
  grep '^#' "$tmp/$name" | sed 's/^# /  /'
}

# table TITLE RAMC MPI RAW
table() {
  echo
  echo "$1"
  printf '%9s | %11s %11s %11s | %9s %9s | %9s %9s %9s\n' size \
    "RAMC MB/s" "MPI MB/s" "raw MB/s" RAMC/MPI RAMC/raw "RAMC us" "MPI us" "raw us"
  join -j1 <(sed -n 's/^size=\([0-9]*\) bw_MBps=\([^ ]*\) lat_us=\(.*\)/\1 \2 \3/p' "$tmp/$2" | sort -k1,1) \
           <(sed -n 's/^size=\([0-9]*\) bw_MBps=\([^ ]*\) lat_us=\(.*\)/\1 \2 \3/p' "$tmp/$3" | sort -k1,1) |
    join -j1 - <(sed -n 's/^size=\([0-9]*\) bw_MBps=\([^ ]*\) lat_us=\(.*\)/\1 \2 \3/p' "$tmp/$4" | sort -k1,1) |
    sort -n -k1,1 |
    awk '{ printf "%9d | %11.2f %11.2f %11.2f | %9.2f %9.2f | %9.2f %9.2f %9.2f\n",
           $1, $2, $4, $6, ($4 > 0 ? $2 / $4 : 0), ($6 > 0 ? $2 / $6 : 0), $3, $5, $7 }'
}

transports=${RAMC_BENCH_TRANSPORTS:-"tcp shm"}
echo "ramc.sh: $(date -u +%FT%TZ) on $(hostname), $(nproc) cores; BENCH_MAX_SIZE=${BENCH_MAX_SIZE:-4194304} BENCH_SCALE=${BENCH_SCALE:-1}"
for t in $transports; do
  case $t in
  tcp)
    echo "== TCP loopback"
    run ramc-tcp "tcp;ofi_rxm" --mca btl self,vader -- ramc-bw
    run raw-tcp "tcp;ofi_rxm" --mca btl self,vader -- ramc-bw-fi-write
    run ramc-sockets sockets --mca btl self,vader -- ramc-bw
    run raw-sockets sockets --mca btl self,vader -- ramc-bw-fi-write
    run mpi-tcp - --mca btl self,tcp --mca btl_tcp_if_include lo --mca osc pt2pt -- ramc-bw-mpi-rma
    echo "  MPI: Open MPI osc=pt2pt over btl=tcp (loopback)"
    table "TCP: RAMC on tcp;ofi_rxm (cq_data) | MPI RMA over TCP | raw fi_write on tcp;ofi_rxm" \
      ramc-tcp mpi-tcp raw-tcp
    table "TCP: RAMC on sockets (mr_counter) | MPI RMA over TCP | raw fi_write on sockets" \
      ramc-sockets mpi-tcp raw-sockets
    ;;
  shm)
    echo "== shared memory"
    run ramc-shm shm --mca btl self,vader -- ramc-bw
    run raw-shm shm --mca btl self,vader -- ramc-bw-fi-write
    run mpi-shm - --mca btl self,vader --mca osc pt2pt -- ramc-bw-mpi-rma
    echo "  MPI: Open MPI osc=pt2pt over btl=vader (messages through shared memory)"
    run mpi-osc-sm - --mca btl self,vader --mca osc sm -- ramc-bw-mpi-rma
    echo "  MPI (load/store): Open MPI osc=sm, puts are memcpy into a shared mapping"
    table "SHM: RAMC on shm (cq_data) | MPI RMA osc=pt2pt over vader | raw fi_write on shm" \
      ramc-shm mpi-shm raw-shm
    table "SHM: RAMC on shm (cq_data) | MPI RMA osc=sm (load/store) | raw fi_write on shm" \
      ramc-shm mpi-osc-sm raw-shm
    ;;
  *)
    echo "ramc.sh: unknown transport '$t' (tcp, shm)" >&2
    exit 1
    ;;
  esac
done
