#!/usr/bin/env bash
# Published CUDA-aware MPI codes, built with their own build systems through
# orrery-cxx/orrery-cc in skeleton mode, unchanged, and simulated: per code,
# built / simulated / simulated time / wall time / peak RSS; then, per code,
# the share of its predicted GPU time by hint confidence.
#
# Usage: bench/realcodes.sh [-b BUILD] DIR...
#   DIR: a checkout of NVIDIA's multi-gpu-programming-models (its mpi/,
#   mpi_overlap/, nccl/, nccl_overlap/, nccl_graphs/ and nvshmem/ are built) or of the OSU micro-benchmarks 7.x (configure
#   --enable-cuda; osu_latency, osu_bw, osu_allreduce, osu_iallreduce,
#   osu_bcast with device buffers). For OSU it then prints, as "# figure"
#   lines, what the machine file's figures predict: osu_bw D D
#   at 4 MiB across nodes against network.nic.bandwidth, on one node against
#   node.gpu_links.bandwidth, and osu_iallreduce's pure communication time
#   against osu_allreduce's latency at 8 B.
# Environment: NP (default 8), MACHINE (default musica-h100.yaml), TIMEOUT
# seconds per run (default 600), JACOBI_ARGS (default: -niter 100 -nx 4096
# -ny 4096).
#
#   DIR may also be a checkout of NVIDIA-developer-blog/code-samples (its
#   posts/cuda-aware-mpi-example: make MPICC=orrery-cc MPILD=orrery-cxx
#   NVCC=orrery-cxx; both Jacobi variants, -t 4 2 -d 1024 1024, the residue
#   read set to 1 so all 1000 iterations run), of muriloboratto/cuda-aware-mpi
#   (samples/ping-pong: its own howtocompile.sh with orrery-cxx as nvcc on
#   PATH; 2 ranks on 2 nodes, 8 B to 1 GiB) or of UoB-HPC/CloverLeaf (cmake
#   -DMODEL=cuda -DENABLE_MPI=ON with orrery-cxx as CXX and CUDA compiler;
#   CLOVER_DECK, default InputDecks/clover_bm16_short.in), of UoB-HPC/TeaLeaf
#   (the same cmake line; CG to a tolerance, TEA_DECK default tea.in,
#   TEA_SCHEDULE the reduction reads' schedule) or of NVIDIA/cuda-samples
#   (Samples/4_CUDA_Libraries/conjugateGradient: cuBLAS and cuSPARSE, its
#   own CMake with CXX=orrery-cxx; 60 CG iterations by schedule), of
#   dappelha/hpgmg-fv (NVIDIA's CUDA port of HPGMG-FV: a C host, its Python
#   configure with --CC=orrery-cc --NVCC=orrery-cxx and the options of its
#   build.sh; HPGMG_ARGS, default "6 1") or of LLNL/Quicksilver (its Makefile
#   with the CUDA section's variables on make's command line; QS_ARGS; see
#   quicksilver below) or of hpc/ior (autotools: ./bootstrap when there
#   is no configure, ./configure CC=orrery-cc MPICC=orrery-cc --with-cuda;
#   the MPI-IO backend, collective, buffers in managed memory) or of
#   gpritam/CUDA-aware-MPI (DendriticGrowth: make MPICXX=orrery-cxx with
#   orrery-cxx as nvcc on PATH) or of
#   icl-utk-edu/heffte (distributed FFTs on cuFFT and MPI: cmake
#   -DHeffte_ENABLE_CUDA=ON with the drivers; benchmarks/speed3d_c2c cufft
#   double, HEFFTE_SIZE default "128 128 128") or of NVIDIA/nccl-tests
#   (make MPI=1 NVCC=orrery-cxx; all_reduce_perf, all_gather_perf,
#   reduce_scatter_perf and sendrecv_perf, NCCL_MIN_BYTES (default 8) to
#   NCCL_MAX_BYTES (default 512M) by NCCL_FACTOR (default 4), on
#   NCCL_MACHINE, default dgx-a100.yaml: one 8-GPU node; the bus
#   bandwidths at the largest size as "# figure" lines) or of
#   FZJ-JSC/tutorial-multi-gpu (the NCCL and NVSHMEM exercises' solutions of
#   08-H_NCCL_NVSHMEM, their Makefiles with NVCC and MPICXX set to orrery-cxx,
#   _JSCCOURSE_GPU_ARCH=90 and DISABLE_CUB=1; --gpu-bind local, the norm
#   reads set to 1.0).
#
# Codes that CUDA 13's nvcc does not build either get the minimal change nvcc
# would need, applied to a copy and printed, never to the user's checkout:
#   multi-gpu-programming-models: CUB in CUDA 13 needs C++17, the Makefiles say
#     -std=c++14 (passed as NVCC_FLAGS on make's command line);
#   OSU 7.x: cudaMemPrefetchAsync's CUDA 13 signature (a location struct).
#   tutorial-multi-gpu: CUB in CUDA 13 needs C++17, the Makefiles append
#     -std=c++14 after any NVCC_FLAGS; DISABLE_CUB=1, an option of theirs,
#     builds the kernels without CUB.
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
    # What its predicted GPU time rests on (orrery-run's coverage section),
    # printed after the table.
    if grep -q '^Kernel time by hint confidence' "$log"; then
      { echo "## $name"
        sed -n '/^Kernel time by hint confidence/,/^$/p' "$log" | sed '/^$/d'
      } >> "$work/coverage.txt"
    fi
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

# The Jacobi codes' norm reads as --device-value options: the norm is
# copied back at the cudaMemcpyAsync after the kernel launch (the
# single-GPU reference's and the multi-GPU loop's); 1.0 keeps every
# iteration running.
norm_reads() {
  local dir=$1 src=$2 l
  for l in $(grep -n 'cudaMemcpyAsync(l2_norm_h\|cudaMemcpyAsync(l2_norm_bufs\[curr\].h' \
    "$dir/$src" | cut -d: -f1); do
    printf -- '--device-value %s:%s=1.0 ' "$src" "$l"
  done
}

mgpm() {
  local dir=$1 variant
  for variant in mpi mpi_overlap nccl nccl_overlap nccl_graphs nvshmem; do
    local src=jacobi.cpp
    [ $variant = nvshmem ] && src=jacobi.cu
    [ -f "$dir/$variant/$src" ] || continue
    local copy=$work/mgpm-$variant log=$work/mgpm-$variant.log built=no
    cp -r "$dir/$variant" "$copy"
    if [ $variant = nvshmem ]; then
      # Its Makefile insists on NVSHMEM_HOME; the skeleton nvshmem.h comes
      # with orrery-cxx, so any value does.
      echo "# $variant: make NVCC=orrery-cxx NVSHMEM_HOME=/opt/nvshmem BUILD_SM_ARCH=90" >&2
      make -C "$copy" NVCC=orrery-cxx NVSHMEM_HOME=/opt/nvshmem \
        BUILD_SM_ARCH=90 > "$log.build" 2>&1 && built=yes
    else
      echo "# $variant: make NVCC=orrery-cxx MPICXX=orrery-cxx NVCC_FLAGS='-DHAVE_CUB -lineinfo -std=c++17' (CUB in CUDA 13 needs C++17)" >&2
      make -C "$copy" NVCC=orrery-cxx MPICXX=orrery-cxx \
        NVCC_FLAGS='-DHAVE_CUB -lineinfo -std=c++17' > "$log.build" 2>&1 && built=yes
    fi
    local values=()
    read -r -a values <<<"$(norm_reads "$copy" "$src")"
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

# NVIDIA's CUDA-aware MPI Jacobi example (developer blog, 2013-2015).
nvblog() {
  local dir=$1/posts/cuda-aware-mpi-example copy=$work/nvblog built=no v line
  cp -r "$dir" "$copy"
  echo "# nvblog: make MPICC=orrery-cc MPILD=orrery-cxx NVCC=orrery-cxx" >&2
  make -C "$copy/src" MPICC=orrery-cc MPILD=orrery-cxx NVCC=orrery-cxx \
    > "$work/nvblog.build" 2>&1 && built=yes
  # The residue is copied back in CallJacobiKernel; 1 keeps the solver going.
  line=$(grep -n 'cudaMemcpy(&residue' "$copy/src/Device.cu" | cut -d: -f1)
  for v in aware normal; do
    local log=$work/nvblog-$v.log
    [ $built = yes ] && (cd "$copy/bin" && simulate "$log" 8 \
      --device-value "Device.cu:$line=1.0" ./jacobi_cuda_${v}_mpi -t 4 2 -d 1024 1024)
    report "nvidia-blog/jacobi_cuda_${v}_mpi" $built "$log"
  done
}

# The OLCF MPI ping-pong, CUDA-aware and host-staged (M. Boratto's samples).
pingpong() {
  local copy=$work/pingpong v exe
  cp -r "$1/samples/ping-pong" "$copy"
  mkdir -p "$work/shim" && ln -sf "$(command -v orrery-cxx)" "$work/shim/nvcc"
  echo "# ping-pong: bash howtocompile.sh nowherman, orrery-cxx as nvcc on PATH" >&2
  for v in CUDA-AWARE-MPI MPI+CUDA; do
    exe=$(ls "$copy/$v"/*.cu | sed 's/\.cu$//')
    local built=no log=$work/pingpong-$v.log
    (cd "$copy/$v" && PATH=$work/shim:$PATH bash howtocompile.sh nowherman) \
      > "$log.build" 2>&1 && [ -f "$exe" ] && built=yes
    [ $built = yes ] && (cd "$copy/$v" && simulate "$log" 2 --ranks-per-node 1 "$exe")
    report "ping-pong/$(basename "$exe")" $built "$log"
  done
}

# UoB-HPC's CloverLeaf, CUDA model with MPI.
# uob_build NAME SRC COPY: a UoB-HPC mini-app's CUDA model with MPI, its
# sources (not a build directory of the checkout, which would confuse cmake)
# copied to COPY and built there with the drivers; true when it built.
uob_build() {
  local name=$1 src=$2 copy=$3
  mkdir -p "$copy"
  git -C "$src" archive --format=tar HEAD 2>/dev/null | tar -x -C "$copy" ||
    cp -r "$src/." "$copy"
  echo "# $name: cmake -DMODEL=cuda -DENABLE_MPI=ON -DCMAKE_{C,CXX,CUDA}_COMPILER=orrery-c{c,xx} -DCUDA_ARCH=sm_90 -DCMAKE_CUDA_ARCHITECTURES=90" >&2
  (cmake -S "$copy" -B "$copy/build" -DMODEL=cuda -DENABLE_MPI=ON \
      -DCMAKE_C_COMPILER=orrery-cc -DCMAKE_CXX_COMPILER=orrery-cxx \
      -DCMAKE_CUDA_COMPILER=orrery-cxx -DCUDA_ARCH=sm_90 \
      -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build "$copy/build" -j2) > "$work/$name.build" 2>&1
}

cloverleaf() {
  local copy=$work/clover built=no log=$work/clover.log
  uob_build cloverleaf "$1" "$copy" && built=yes
  # Every reduction is read back at context.h:116 (a project header,
  # instrumented by orrery-cxx): bytes 0x3f make each double 0.49, so the
  # timestep is not "too small" and the loop runs to its end (the code's
  # final check of the field summary then fails: there are no data). It
  # takes device 0 of what it sees: one GPU per rank, as a launcher binds.
  [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" \
    --device-value context.h:116=0x3f --gpu-bind local \
    "$copy/build/cuda-cloverleaf" --file "${CLOVER_DECK:-InputDecks/clover_bm16_short.in}")
  report "cloverleaf/cuda" $built "$log"
}

# UoB-HPC's TeaLeaf, CUDA model with MPI: a CG solver with a tolerance.
# Every reduction (the field summary, rro, pw, rrn) is read back through one
# helper and summed over ranks through another (driver/comms.cpp); the
# solve ends when rrn, summed at its caller's line in driver/cg_driver.cpp,
# is below the tolerance. A value there reaches rrn alone: TEA_SCHEDULE
# (default 1.0*59,0*1) gives 60 CG iterations a step (TeaLeaf prints the
# last iteration's index, 59); the other reads keep their defaults.
tealeaf() {
  local copy=$work/tea built=no log=$work/tea.log
  uob_build tealeaf "$1" "$copy" && built=yes
  local rrn
  rrn=$(grep -n 'sum_over_ranks(settings, &rrn)' "$1/driver/cg_driver.cpp" | cut -d: -f1)
  [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" --gpu-bind local \
    --device-value "cg_driver.cpp:$rrn=${TEA_SCHEDULE:-1.0*59,0*1}" \
    "$copy/build/cuda-tealeaf" --file "${TEA_DECK:-tea.in}")
  report "tealeaf/cuda" $built "$log"
  [ -f "$log" ] && echo "# tealeaf: CG iterations per step: $(sed -n 's/^[[:space:]]*CG:[[:space:]]*\([0-9]*\) iterations/\1/p' "$log" | sort -n | uniq -c | awk '{printf "%s%s x %s", (NR>1?", ":""), $1, $2}')" >&2
}

# NVIDIA's cuda-samples: conjugateGradient (cuBLAS and cuSPARSE, a CG loop
# to a tolerance on the residual cuBLAS's DOT returns), its own CMake with
# orrery-cxx as the C++ compiler, one GPU. Its dots are read back at three
# calls: r1 before the loop and in it, and p.Ax; 59 reads of r1 = 1 and
# then 0 make 60 iterations.
cuda_samples() {
  local dir=$1/Samples/4_CUDA_Libraries/conjugateGradient
  local copy=$work/cuda-samples/Samples/4_CUDA_Libraries/conjugateGradient
  local built=no log=$work/cg.log
  mkdir -p "$copy"
  cp -r "$1/Common" "$1/cmake" "$work/cuda-samples/"
  cp "$dir"/*.cpp "$dir/CMakeLists.txt" "$copy/"
  echo "# cuda-samples/conjugateGradient: CXX=orrery-cxx cmake; make" >&2
  (CXX=orrery-cxx cmake -S "$copy" -B "$copy/build" &&
    cmake --build "$copy/build" -j2) > "$work/cg.build" 2>&1 && built=yes
  local before in_loop pap
  before=$(grep -n 'cublasSdot(cublasHandle, N, d_r, 1, d_r, 1, &r1)' "$dir/main.cpp" | head -1 | cut -d: -f1)
  in_loop=$(grep -n 'cublasSdot(cublasHandle, N, d_r, 1, d_r, 1, &r1)' "$dir/main.cpp" | tail -1 | cut -d: -f1)
  pap=$(grep -n 'cublasSdot(cublasHandle, N, d_p, 1, d_Ax, 1, &dot)' "$dir/main.cpp" | head -1 | cut -d: -f1)
  [ $built = yes ] && (cd "$copy/build" && simulate "$log" 1 \
    --device-value "main.cpp:$before=1.0" --device-value "main.cpp:$pap=1.0" \
    --device-value "main.cpp:$in_loop=1.0*59,0" ./conjugateGradient)
  report "cuda-samples/conjugateGradient" $built "$log"
}

# NVIDIA's CUDA port of HPGMG-FV (a C host calling CUDA kernels in .cu
# files, MPI, managed memory): its configure with the drivers and the
# options of its build.sh, 10 warm-up and 10 timed full-multigrid solves.
hpgmg_fv() {
  local copy=$work/hpgmg-fv built=no log=$work/hpgmg-fv.log
  cp -r "$1" "$copy"
  local opts="-DBLOCKCOPY_TILE_I=32 -DBLOCKCOPY_TILE_J=4 -DBLOCKCOPY_TILE_K=8"
  opts+=" -DBOUNDARY_TILE_I=64 -DBOUNDARY_TILE_J=16 -DBOUNDARY_TILE_K=16"
  opts+=" -DHOST_LEVEL_SIZE_THRESHOLD=10000 -DMAX_SOLVES=10 -DCUDA_UM_ALLOC"
  opts+=" -DCUDA_UM_ZERO_COPY -DMPI_ALLOC_ZERO_COPY -DUSE_REG -DUSE_TEX"
  opts+=" -DUSE_NVTX -DMPICH_IGNORE_CXX_SEEK -DMPICH_SKIP_MPICXX"
  echo "# hpgmg-fv: ./configure --CC=orrery-cc --NVCC=orrery-cxx --CFLAGS='-O2 -fopenmp \$OPTS' --NVCCFLAGS='-O2 -lineinfo -lnvToolsExt \$OPTS' --CUDAARCH='-gencode arch=compute_90,code=sm_90' --no-fe; make -C build (OPTS as its build.sh)" >&2
  (cd "$copy" && python3 ./configure --CC=orrery-cc --NVCC=orrery-cxx \
      --CFLAGS="-O2 -fopenmp $opts" --NVCCFLAGS="-O2 -lineinfo -lnvToolsExt $opts" \
      --CUDAARCH="-gencode arch=compute_90,code=sm_90" --no-fe &&
    make -j2 -C build) > "$work/hpgmg-fv.build" 2>&1 && built=yes
  # shellcheck disable=SC2086
  [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" \
    ./build/bin/hpgmg-fv ${HPGMG_ARGS:-6 1})
  report "hpgmg-fv" $built "$log"
}

# LLNL's Quicksilver (Monte Carlo particle transport; CUDA through -x cu -dc
# on .cc files, MPI): built with its Makefile, the variables of its CUDA
# section given on make's command line. Each tracking loop ends when the
# particles gained and lost, reduced through the helpers in utilsMpi.cc
# (an MPI_Iallreduce tested once a pass, then a blocking MPI_Allreduce to
# confirm), are equal; the kernel that would count them does not run in
# skeleton mode, so the value 0 on both results, set at the callers' lines
# in MC_Particle_Buffer.cc, ends each cycle's loop (docs/simulate.md, "MPI
# results"). It tests its pending particle receives once a pass: SMPI's
# growing MPI_Test charge (docs/orrery-run.md) is for polling loops, so it
# is turned off and a test costs 1 us. QS_ARGS default: its defaults (10
# cycles, 1,000,000 particles).
quicksilver() {
  local copy=$work/quicksilver built=no log=$work/quicksilver.log
  cp -r "$1" "$copy"
  echo "# quicksilver: make CXX=orrery-cxx CXXFLAGS=... CPPFLAGS='-x cu -dc -DHAVE_MPI -DHAVE_ASYNC_MPI' LDFLAGS='-lcuda -lcudart' (its Makefile's CUDA section, sm_90)" >&2
  make -j2 -C "$copy/src" CXX=orrery-cxx \
    CXXFLAGS='-DHAVE_CUDA -std=c++11 -O2 -gencode=arch=compute_90,code=\"sm_90,compute_90\"' \
    CPPFLAGS='-x cu -dc -DHAVE_MPI -DHAVE_ASYNC_MPI' \
    LDFLAGS='-lcuda -lcudart' > "$work/quicksilver.build" 2>&1 &&
    [ -x "$copy/src/qs" ] && built=yes
  local confirm start
  confirm=$(grep -n 'mpiAllreduce(buf, hard_blocking_sum' "$copy/src/MC_Particle_Buffer.cc" | cut -d: -f1)
  start=$(grep -n 'mpiIAllreduce(this->test_done.non_blocking_send' "$copy/src/MC_Particle_Buffer.cc" | cut -d: -f1)
  # shellcheck disable=SC2086
  [ $built = yes ] && (cd "$copy/src" && simulate "$log" "$np" \
    --smpi-cfg smpi/grow-injected-times:no --smpi-cfg smpi/test:1e-6 \
    --device-value "MC_Particle_Buffer.cc:$confirm=0" \
    --device-value "MC_Particle_Buffer.cc:$start=0" ./qs ${QS_ARGS:-})
  report "quicksilver" $built "$log"
}

# The IOR parallel I/O benchmark: a C host, autotools, CUDA buffers, MPI-IO.
# Storage is not modelled (docs/simulate.md): the simulated time is MPI-IO's
# collective buffering and the program's own MPI calls.
ior() {
  local copy=$work/ior built=no log=$work/ior.log
  cp -r "$1" "$copy"
  echo "# ior: ./configure CC=orrery-cc MPICC=orrery-cc --with-cuda=${CUDA_HOME:-/usr/local/cuda}; make" >&2
  (cd "$copy" && { [ -x configure ] || ./bootstrap; } &&
    ./configure CC=orrery-cc MPICC=orrery-cc --with-cuda="${CUDA_HOME:-/usr/local/cuda}" &&
    make -j2) > "$work/ior.build" 2>&1 && built=yes
  [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" ./src/ior -a MPIIO \
    -c -b 4m -t 1m -O allocateBufferOnGPU=2 -o "$work/ior.out")
  report "ior (MPI-IO)" $built "$log"
}

# gpritam/CUDA-aware-MPI's DendriticGrowth (phase-field solidification,
# 512 x 512, 8,000 time steps, host-staged halo exchange with derived
# datatypes): its Makefile calls nvcc by name, so orrery-cxx is put on PATH
# as nvcc. It writes its fields as text every 50 steps into Output/ (about
# 1 GiB in all, most of the wall time); the copy is removed afterwards.
dendritic() {
  local copy=$work/dendritic built=no log=$work/dendritic.log
  cp -r "$1" "$copy"
  mkdir -p "$work/nvcc-bin" "$copy/build" "$copy/Output"
  ln -sf "$(command -v orrery-cxx)" "$work/nvcc-bin/nvcc"
  echo "# dendritic: make MPICXX=orrery-cxx, orrery-cxx as nvcc on PATH" >&2
  (cd "$copy" && PATH="$work/nvcc-bin:$PATH" make MPICXX=orrery-cxx) \
    > "$work/dendritic.build" 2>&1 && [ -x "$copy/run" ] && built=yes
  [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" ./run)
  rm -rf "$copy/Output"
  report "dendritic-growth" $built "$log"
}

# heFFTe: 3-D FFTs distributed over MPI, cuFFT on each GPU, its own packing
# kernels and GPU-aware all-to-all reshapes; its speed3d benchmark.
heffte() {
  local copy=$work/heffte built=no log=$work/heffte.log
  mkdir -p "$copy"
  git -C "$1" archive --format=tar HEAD 2>/dev/null | tar -x -C "$copy" ||
    cp -r "$1/." "$copy"
  echo "# heffte: cmake -DHeffte_ENABLE_CUDA=ON -DCMAKE_{CXX,CUDA}_COMPILER=orrery-cxx -DCMAKE_CUDA_ARCHITECTURES=90" >&2
  (cmake -S "$copy" -B "$copy/build" -DHeffte_ENABLE_CUDA=ON \
      -DCMAKE_CXX_COMPILER=orrery-cxx -DCMAKE_CUDA_COMPILER=orrery-cxx \
      -DCMAKE_CUDA_ARCHITECTURES=90 &&
    cmake --build "$copy/build" -j2) > "$work/heffte.build" 2>&1 && built=yes
  # shellcheck disable=SC2086
  [ $built = yes ] && (cd "$copy/build" && simulate "$log" "$np" \
    ./benchmarks/speed3d_c2c cufft double ${HEFFTE_SIZE:-128 128 128})
  report "heffte/speed3d_c2c" $built "$log"
  [ -f "$log" ] && echo "# heffte: $(grep -m1 'Time per run' "$log")" >&2
}

# NVIDIA's nccl-tests against the skeleton NCCL: the bus bandwidth NCCL's
# tuning model gives (docs/nccl.md). NCCL_MACHINE (default dgx-a100.yaml;
# dgx-h100.yaml for NVLink SHARP), NCCL_MIN_BYTES, NCCL_MAX_BYTES and
# NCCL_FACTOR choose the system and the sizes.
nccl_tests() {
  local copy=$work/nccl-tests built=no
  cp -r "$1" "$copy"
  echo "# nccl-tests: make MPI=1 NVCC=orrery-cxx MPI_HOME=... NVCC_GENCODE=-gencode=arch=compute_90,code=sm_90" >&2
  make -j2 -C "$copy" MPI=1 NVCC=orrery-cxx \
    MPI_HOME="${MPI_HOME:-/usr/lib/x86_64-linux-gnu/openmpi}" \
    NVCC_GENCODE=-gencode=arch=compute_90,code=sm_90 > "$work/nccl-tests.build" 2>&1 &&
    built=yes
  local t nmachine=${NCCL_MACHINE:-$src/models/machines/dgx-a100.yaml}
  for t in all_reduce all_gather reduce_scatter sendrecv; do
    local log=$work/nccl-$t.log
    [ $built = yes ] && (cd "$copy/build" && machine=$nmachine simulate "$log" "$np" \
      "./${t}_perf" -b "${NCCL_MIN_BYTES:-8}" -e "${NCCL_MAX_BYTES:-512M}" \
      -f "${NCCL_FACTOR:-4}" -g 1)
    report "nccl-tests/${t}_perf" $built "$log"
    [ -f "$log" ] && awk -v t="$t" '/^ +[0-9]+ +[0-9]+ / {last=$0} END {n=split(last, f); if (n) printf "# figure nccl-tests %s_perf %s B: busbw %s GB/s (out of place), time %s us\n", t, f[1], f[8], f[6]}' "$log" >&2
  done
}

jsc_tutorial() {
  local dir=$1 t
  for t in NCCL NVSHMEM; do
    local sol=$dir/08-H_NCCL_NVSHMEM/solutions/$t
    [ -d "$sol" ] || continue
    local copy=$work/jsc-$t log=$work/jsc-$t.log built=no src=jacobi.cpp
    [ $t = NVSHMEM ] && src=jacobi.cu
    cp -r "$sol" "$copy"
    echo "# tutorial $t: make NVCC=orrery-cxx MPICXX=orrery-cxx _JSCCOURSE_GPU_ARCH=90 DISABLE_CUB=1 NVSHMEM_HOME=/opt/nvshmem MPI_HOME=\${MPI_HOME}" >&2
    make -C "$copy" NVCC=orrery-cxx MPICXX=orrery-cxx _JSCCOURSE_GPU_ARCH=90 \
      DISABLE_CUB=1 NVSHMEM_HOME=/opt/nvshmem \
      MPI_HOME="${MPI_HOME:-/usr/lib/x86_64-linux-gnu/openmpi}" \
      > "$log.build" 2>&1 && built=yes
    local values=()
    read -r -a values <<<"$(norm_reads "$copy" "$src")"
    [ $built = yes ] && (cd "$copy" && simulate "$log" "$np" --gpu-bind local \
      "${values[@]}" ./jacobi $jacobi_args)
    report "tutorial-multi-gpu/08-H $t solution" $built "$log"
  done
}

for d in "$@"; do
  if [ -f "$d/mpi/jacobi.cpp" ]; then mgpm "$d"
  elif [ -d "$d/c/mpi" ]; then osu "$d"
  elif [ -f "$d/posts/cuda-aware-mpi-example/src/Jacobi.c" ]; then nvblog "$d"
  elif [ -d "$d/samples/ping-pong/CUDA-AWARE-MPI" ]; then pingpong "$d"
  elif [ -f "$d/src/cuda/model.cmake" ] && [ -d "$d/Benchmarks" ] && [ -f "$d/driver/cg_driver.cpp" ]; then tealeaf "$d"
  elif [ -f "$d/src/cuda/model.cmake" ] && [ -d "$d/driver" ]; then cloverleaf "$d"
  elif [ -f "$d/Samples/4_CUDA_Libraries/conjugateGradient/main.cpp" ]; then cuda_samples "$d"
  elif [ -f "$d/finite-volume/source/cuda/operators.fv4.cu" ]; then hpgmg_fv "$d"
  elif [ -f "$d/src/CycleTracking.cc" ]; then quicksilver "$d"
  elif [ -f "$d/DendriticGrowth_MPI.cpp" ]; then dendritic "$d"
  elif [ -f "$d/src/aiori-MPIIO.c" ]; then ior "$d"
  elif [ -f "$d/src/heffte_backend_cuda.cu" ]; then heffte "$d"
  elif [ -f "$d/src/all_reduce.cu" ] && [ -f "$d/src/common.mk" ]; then nccl_tests "$d"
  elif [ -d "$d/08-H_NCCL_NVSHMEM/solutions" ]; then jsc_tutorial "$d"
  else echo "$0: $d is none of the codes this script knows (see its header)" >&2
  fi
done

# Per code, the share of predicted GPU time by hint confidence (library
# models apart) and the kernels without a usable hint.
if [ -s "$work/coverage.txt" ]; then
  echo
  echo "# predicted GPU time by hint confidence"
  cat "$work/coverage.txt"
fi
