// Rule: atomics (passes/lib/kernels/Atomics.cpp): address classes, and the
// serialisation of same-address atomics in the kernel model.
// RUN: orrery-instrument --report %s --launch 'classes grid=8 block=128' -- %mock-cuda-flags | FileCheck %s
// RUN: orrery-instrument --report %s --no-ptxas \
// RUN:   --machine %src-root/models/machines/h200-node.yaml \
// RUN:   --launch 'sum_all grid=4096 block=256 n=1048576' \
// RUN:   --launch 'sum_per_block grid=4096 block=256 n=1048576' \
// RUN:   --launch 'sum_distinct grid=4096 block=256 n=1048576' \
// RUN:   -- %mock-cuda-flags | FileCheck %s --check-prefix=COST
#include <cuda_runtime.h>

__global__ void classes(float *sum, float *per_block, int *bins,
                        const int *keys, float *each) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, 1.0f);
  atomicAdd(&per_block[blockIdx.x], 1.0f);
  atomicAdd(&bins[keys[i]], 1);
  atomicAdd(&each[i], 1.0f);
}

// CHECK-LABEL: hint: classes
// CHECK: global atomic sum 4 B x 1, uniform, address same_for_grid
// CHECK: global atomic per_block 4 B x 1, uniform, address same_per_block
// CHECK: global atomic bins 4 B x 1, indirect, address indirect
// CHECK: global atomic each 4 B x 1, coalesced, address distinct
// 1024 threads x 4 atomics; sum and per_block (2 x 1024) to shared addresses:
// sum's 1024 to one address for the launch, per_block's 1024 to one per block.
// CHECK-LABEL: == Launch classes
// CHECK: atomics: 4096 (2048 to a shared address)
// CHECK: same-address atomics: 1024 to one address for the launch, 1024 to one address per block

// Every thread adds to one address: the L2 runs the 2^20 atomics one after
// the other, t_a = 0.51 ns apart (h200-node.yaml).
__global__ void sum_all(float *sum, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&sum[0], x[i]);
}

// Each block adds to its own address: 256 in a row per block.
__global__ void sum_per_block(float *out, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[blockIdx.x], x[i]);
}

// One address per thread: the atomics stream like stores.
__global__ void sum_distinct(float *out, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[i], x[i]);
}

// sum_all: chain 1,048,576 x 0.51 ns = 534,773.76 ns = 534.774 us, far above
// the 4 MiB of x the waves stream: atomics bound; the launch is t_launch
// 2.76 us + the device's per-kernel 2.1 us + 534.774 us.
// COST-LABEL: == Launch sum_all
// COST: same-address atomics: 1048576 to one address for the launch, 0 to one address per block
// COST: roofline: atomics bound
// COST: same-address atomics serialised: 534.774 us
// COST: predicted: total 539.634 us (launch 4.86 us, memory 534.774 us)
//
// sum_per_block: 4096 blocks of 256 threads, 8 resident per SM (2048 / 256)
// x 132 SMs = 1056 per wave: 4 waves (3 full, 1 of 928); chain 256 x 4 x
// 0.51 ns = 522.24 ns = 0.522 us, hidden under the streaming waves.
// COST-LABEL: == Launch sum_per_block
// COST: same-address atomics: 0 to one address for the launch, 1048576 to one address per block
// COST: roofline: {{memory|latency}} bound
// COST: same-address atomics serialised: 0.522 us
//
// sum_distinct: no same-address atomics, nothing serialised.
// COST-LABEL: == Launch sum_distinct
// COST-NOT: same-address atomics
// COST: roofline:
// COST-NOT: same-address atomics serialised
// COST: predicted:
