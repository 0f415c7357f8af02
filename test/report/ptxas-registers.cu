// --report compiles the device code for the machine's gpu.arch and reads
// ptxas -v: registers per thread, spills and static shared memory; the
// occupancy then follows from those registers instead of an assumed 32.
// REQUIRES: ptxas, cuda-toolkit
//
// The reference: the same device compile and ptxas run here, in the test.
// RUN: %clangxx -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
// RUN:   --cuda-path=%cuda-path -Wno-unknown-cuda-version -O3 -S -o %t.ptx %s
// RUN: %ptxas -v -arch=sm_90 %t.ptx -o %t.cubin 2> %t.ptxas
// RUN: rm -rf %t.cache
// RUN: orrery-instrument --report %s --ptxas-cache-dir=%t.cache \
// RUN:   --machine %src-root/models/machines/h200-node.yaml \
// RUN:   --launch 'heavy grid=1024 block=256 n=262144' \
// RUN:   --launch 'tile grid=1024 block=128' -- %cuda-flags -O3 \
// RUN:   > %t.report 2> %t.stderr
// RUN: cat %t.ptxas %t.report | FileCheck %s
//
// A second run reads ptxas's output from the cache.
// RUN: orrery-instrument --report %s --ptxas-cache-dir=%t.cache \
// RUN:   --machine %src-root/models/machines/h200-node.yaml -- %cuda-flags -O3 \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=CACHED
// RUN: FileCheck %s --check-prefix=FIRST < %t.stderr
// FIRST: device compile {{[0-9.]+}} s, ptxas {{[0-9.]+}} s{{$}}
// CACHED: device compile {{[0-9.]+}} s, ptxas 0.00 s (cached)
//
// --no-ptxas: the assumed 32 registers, and a note saying so.
// RUN: orrery-instrument --report %s --no-ptxas \
// RUN:   --machine %src-root/models/machines/h200-node.yaml \
// RUN:   --launch 'heavy grid=1024 block=256 n=262144' -- %cuda-flags -O3 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF: note: registers per thread not from ptxas: --no-ptxas; occupancy assumes 32
// OFF-NOT: ptxas sm_90:
// 32 registers x 32 lanes = 1024 per warp, 64 warps: the 8 blocks of 8 warps
// that the thread limit allows fit.
// OFF: occupancy 1.00 (8 blocks/SM, limited by threads), {{[0-9]+}} wave(s); 32 registers per thread (assumed)

#include <cuda_runtime.h>

// 24 doubles live across a 24 x 24 product: far more than 32 registers.
__global__ void heavy(const double *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double acc[24];
#pragma unroll
  for (int k = 0; k < 24; ++k)
    acc[k] = a[i + k * n];
  double s = 0;
#pragma unroll
  for (int k = 0; k < 24; ++k)
#pragma unroll
    for (int j = 0; j < 24; ++j)
      s += acc[k] * acc[j] * (k + 1);
  b[i] = s;
}

// 128 floats of static shared memory: 512 B.
__global__ void tile(float *x) {
  __shared__ float buf[128];
  buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[127 - threadIdx.x];
}

// ptxas, run above (it compiles tile first):
// CHECK: Compiling entry function '_Z4tilePf' for 'sm_90'
// CHECK: Used [[#TREGS:]] registers, used 1 barriers, 512 bytes smem
// CHECK: Compiling entry function '_Z5heavyPKdPdi' for 'sm_90'
// CHECK: [[#HSTACK:]] bytes stack frame, [[#HSPILLST:]] bytes spill stores, [[#HSPILLLD:]] bytes spill loads
// CHECK: Used [[#HREGS:]] registers
//
// The report:
// CHECK: orrery kernel cost hint: heavy
// CHECK: ptxas sm_90: [[#HREGS]] registers per thread, spills [[#HSPILLST]] B stored / [[#HSPILLLD]] B loaded, stack [[#HSTACK]] B, static shared 0 B per block
// CHECK: orrery kernel cost hint: tile
// CHECK: ptxas sm_90: [[#TREGS]] registers per thread, spills 0 B stored / 0 B loaded, stack 0 B, static shared 512 B per block
//
// Occupancy of heavy at 256 threads (8 warps) per block on the H200:
// registers per warp = ceil(HREGS x 32 / 256) x 256 (allocation unit 256),
// warps per SM = floor(65536 / that), blocks per SM = floor(warps / 8).
// CHECK-LABEL: == Launch heavy grid=1024,1,1 block=256,1,1
// CHECK: ([[#div(div(65536,mul(div(add(mul(HREGS,32),255),256),256)),8)]] blocks/SM, limited by registers), {{[0-9]+}} wave(s); [[#HREGS]] registers per thread (ptxas sm_90)
// tile: few registers, 4 warps per block; 16 blocks by threads (2048 / 128),
// 445 by shared memory (228 KiB / 512 B): the thread limit holds.
// CHECK-LABEL: == Launch tile grid=1024,1,1 block=128,1,1
// CHECK: occupancy 1.00 (16 blocks/SM, limited by threads), {{[0-9]+}} wave(s); [[#TREGS]] registers per thread (ptxas sm_90)
