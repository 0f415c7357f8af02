#!/usr/bin/env bash
# Published CUDA-aware MPI codes, built with their own build systems through
# orrery-cxx/orrery-cc in skeleton mode, unchanged, and simulated: per code,
# built / simulated / simulated time / wall time / peak RSS.
#
# Usage: bench/realcodes.sh [-b BUILD] DIR...
#   DIR: a checkout of NVIDIA's multi-gpu-programming-models (its mpi/ and
#   mpi_overlap/ are built) or of the OSU micro-benchmarks 7.x (configure
#   --enable-cuda; osu_latency, osu_bw, osu_allreduce, osu_iallreduce,
#   osu_bcast with device buffers). For OSU it then prints, as "# figure"
#   lines, what the machine file's figures predict (issue 13): osu_bw D D
#   at 4 MiB across nodes against network.nic.bandwidth, on one node against
#   node.gpu_links.bandwidth, and osu_iallreduce's pure communication time
#   against osu_allreduce's latency at 8 B.
# Environment: NP (default 8), MACHINE (default musica-h100.yaml), TIMEOUT
# seconds per run (default 600), JACOBI_ARGS (default: -niter 100 -nx 4096
# -ny 4096).
#
# Codes that CUDA 13's nvcc does not build either get the minimal change nvcc
# would need, applied to a copy and printed, never to the user's checkout:
#   multi-gpu-programming-models: CUB in CUDA 13 needs C++17, the Makefiles say
#     -std=c++14 (passed as NVCC_FLAGS on make's command line);
#   OSU 7.x: cudaMemPrefetchAsync's CUDA 13 signature (a location struct).
set -uo pipefail
build=build
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-b BUILD] DIR..." >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
export PATH="$build/bin:$PATH" ORRERY_MODE=skeleton
np=${NP:-8}
machine=${MACHINE:-$src/models/machines/musica-h100.yaml}
limit=${TIMEOUT:-600}
jacobi_args=${JACOBI_ARGS:--niter 100 -nx 4096 -ny 4096}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '%-42s %-6s %-9s %14s %10s %10s\n' code built simulated "simulated time" "wall s" "peak RSS"

# report NAME BUILT LOG: one row from orrery-run's output and /usr/bin/time's.
report() {
  local name=$1 built=$2 log=$3 sim=no simt=- wall=- rss=-
  if [ "$built" = yes ] && [ -f "$log" ]; then
    grep -q '^Orrery simulation report' "$log" && sim=yes
    grep -q 'THE RUN DID NOT COMPLETE' "$log" && sim=failed
    simt=$(sed -n 's/^  simulated time *//p' "$log" | head -1)
    wall=$(sed -n 's/^wall_seconds //p' "$log")
    rss=$(sed -n 's/^peak_rss_kib //p' "$log")
    [ -n "$rss" ] && rss="$((rss / 1024)) MiB"
  fi
  printf '%-42s %-6s %-9s %14s %10s %10s\n' "$name" "$built" "$sim" "${simt:--}" "${wall:--}" "${rss:--}"
}

# simulate LOG NP ARGS...: orrery-run under /usr/bin/time and timeout.
simulate() {
  local log=$1 ranks=$2; shift 2
  /usr/bin/time -f 'wall_seconds %e\npeak_rss_kib %M' -a -o "$log" \
    timeout "$limit" orrery-run --progress 0 -np "$ranks" --machine "$machine" "$@" \
    >> "$log" 2>&1
}

mgpm() {
  local dir=$1 variant
  for variant in mpi mpi_overlap; do
    [ -f "$dir/$variant/jacobi.cpp" ] || continue
    local copy=$work/mgpm-$variant log=$work/mgpm-$variant.log built=no
    cp -r "$dir/$variant" "$copy"
    echo "# $variant: make NVCC=orrery-cxx MPICXX=orrery-cxx NVCC_FLAGS='-DHAVE_CUB -lineinfo -std=c++17' (CUB in CUDA 13 needs C++17)" >&2
    make -C "$copy" NVCC=orrery-cxx MPICXX=orrery-cxx \
      NVCC_FLAGS='-DHAVE_CUB -lineinfo -std=c++17' > "$log.build" 2>&1 && built=yes
    # The norm is copied back at the cudaMemcpyAsync after the kernel launch.
    local lines
    lines=$(grep -n 'cudaMemcpyAsync(l2_norm_h' "$copy/jacobi.cpp" | cut -d: -f1)
    local values=()
    for l in $lines; do values+=(--device-value "jacobi.cpp:$l=1.0"); done
    [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" "${values[@]}" ./jacobi $jacobi_args)
    report "multi-gpu-programming-models/$variant" $built "$log"
  done
}

osu() {
  local dir=$1 copy=$work/osu built=no
  git -C "$dir" archive --format=tar HEAD 2>/dev/null | (mkdir -p "$copy" && tar -x -C "$copy") ||
    cp -r "$dir/." "$copy"
  # A checkout gives every file one time stamp; make would then rerun
  # automake. Restore the release order: aclocal.m4, configure, Makefile.in.
  touch "$copy/aclocal.m4"; sleep 1; touch "$copy/configure"; sleep 1
  find "$copy" -name Makefile.in -exec touch {} +
  # CUDA 13 (nvcc too): cudaMemPrefetchAsync takes a cudaMemLocation.
  local util=$copy/c/util/osu_util_mpi.c
  if grep -q 'cudaMemPrefetchAsync(buf, length, devid, um_stream)' "$util" 2>/dev/null; then
    echo "# osu: CUDA 13 patch (what nvcc needs too): cudaMemPrefetchAsync(buf, length, devid, s) ->" \
      "cudaMemPrefetchAsync(buf, length, {device or host location of devid}, 0, s)" >&2
    python3 - "$util" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "CUDA_CHECK(cudaMemPrefetchAsync(buf, length, devid, um_stream));"
new = """{
        struct cudaMemLocation loc;
        loc.type = devid == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                            : cudaMemLocationTypeDevice;
        loc.id = devid == cudaCpuDeviceId ? 0 : devid;
        CUDA_CHECK(cudaMemPrefetchAsync(buf, length, loc, 0, um_stream));
    }"""
open(p, "w").write(s.replace(old, new))
PY
  fi
  echo "# osu: ./configure CC=orrery-cc CXX=orrery-cxx --enable-cuda && make NVCC=orrery-cxx (its Makefiles set NVCC = nvcc)" >&2
  (cd "$copy" && ./configure CC=orrery-cc CXX=orrery-cxx --enable-cuda \
      --with-cuda=/usr/local/cuda > "$work/osu.configure" 2>&1 &&
    make -j2 NVCC=orrery-cxx > "$work/osu.build" 2>&1) && built=yes
  local b name args
  # OMB's options come before the buffer locations.
  for b in pt2pt/standard/osu_latency:"-d cuda -m 1:4194304 D D" \
           pt2pt/standard/osu_bw:"-d cuda -m 1:4194304 D D" \
           collective/blocking/osu_allreduce:"-d cuda -m 8:1048576" \
           collective/non_blocking/osu_iallreduce:"-d cuda -m 8:65536 -i 20 -x 2" \
           collective/blocking/osu_bcast:"-d cuda -m 8:1048576"; do
    name=${b%%:*}; args=${b#*:}
    local exe=$copy/c/mpi/$name log=$work/$(basename "$name").log ok=no
    [ $built = yes ] && [ -x "$exe" ] && ok=yes
    # Point-to-point benchmarks take two ranks, one per node.
    if [ $ok = yes ]; then
      case $name in
        pt2pt/*) simulate "$log" 2 --ranks-per-node 1 "$exe" $args ;;
        *) simulate "$log" "$np" "$exe" $args ;;
      esac
    fi
    report "osu/$(basename "$name")" $ok "$log"
  done
  [ $built = yes ] || return
  # osu_bw between two ranks of one node, for the figure lines.
  simulate "$work/osu_bw_node.log" 2 --ranks-per-node 2 \
    "$copy/c/mpi/pt2pt/standard/osu_bw" -d cuda -m 4194304:4194304 D D
  osu_figures
}

# osu_figures: the OSU results against the machine file's figures.
osu_figures() {
  python3 - "$machine" "$work" <<'PY'
import re, sys
import yaml
machine, work = sys.argv[1:]
m = yaml.safe_load(open(machine))
units = {"MB/s": 1e6, "GB/s": 1e9, "Gbit/s": 1e9 / 8, "TB/s": 1e12}
def mbps(q):
    return q["value"] * units[q["unit"]] / 1e6
def row(log, size, col=1):
    try:
        for line in open("%s/%s" % (work, log)):
            f = line.split()
            if len(f) > col and f[0] == str(size):
                return float(f[col])
    except OSError:
        pass
    return None
nic = mbps(m["network"]["nic"]["bandwidth"])
links = m["node"].get("gpu_links", {})
link = mbps(links["bandwidth"]) if links.get("type") != "none" else None
bw, bw1 = row("osu_bw.log", 4194304), row("osu_bw_node.log", 4194304)
ar, iar = row("osu_allreduce.log", 8), row("osu_iallreduce.log", 8, 3)
if bw is not None:
    print("# figure: osu_bw D D 4 MiB, 2 nodes: %.1f MB/s; "
          "network.nic.bandwidth %.1f MB/s (%+.1f %%, within 10 %%: %s)"
          % (bw, nic, 100 * (bw - nic) / nic,
             "yes" if abs(bw - nic) <= 0.1 * nic else "NO"))
if bw1 is not None and link:
    print("# figure: osu_bw D D 4 MiB, 1 node: %.1f MB/s; "
          "node.gpu_links.bandwidth %.1f MB/s (at most: %s)"
          % (bw1, link, "yes" if bw1 <= link * 1.001 else "NO"))
if ar is not None and iar is not None:
    print("# figure: 8 B on device buffers: osu_iallreduce pure comm. "
          "%.2f us, osu_allreduce %.2f us (iallreduce >= allreduce: %s)"
          % (iar, ar, "yes" if iar >= ar * 0.999 else "NO"))
PY
}

for d in "$@"; do
  if [ -f "$d/mpi/jacobi.cpp" ]; then mgpm "$d"
  elif [ -d "$d/c/mpi" ]; then osu "$d"
  else echo "$0: $d is neither multi-gpu-programming-models nor the OSU micro-benchmarks" >&2
  fi
done
