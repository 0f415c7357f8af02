// Real-code patterns: a template kernel reducing with cub::BlockReduce in
// shared memory of a dependent type, a bool kernel parameter switching the
// reduction on, one atomic per block under `0 == threadIdx.y && 0 ==
// threadIdx.x`, launched with a braced block size.
// REQUIRES: cuda-toolkit
// RUN: orrery-instrument --report %s --launch 'residual<32, 4> grid=64,128 block=32,4 nx=2048 rows=510 norm=1' -o %t.cu -- -std=c++17 | FileCheck %s
// RUN: %clangxx -fsyntax-only -std=c++17 %cuda-flags -isystem %cuda-path/include/cccl -I %hooks-include %t.cu
#include <cub/block/block_reduce.cuh>

template <int BX, int BY>
__global__ void residual(const float *a, const float *b, float *sum, int nx,
                         int rows, bool norm) {
  typedef cub::BlockReduce<float, BX, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BY> R;
  __shared__ typename R::TempStorage tmp;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float d = 0;
  if (x < nx && y < rows)
    d = a[y * nx + x] - b[y * nx + x];
  if (norm) {
    float s = R(tmp).Sum(d * d);
    if (0 == threadIdx.y && 0 == threadIdx.x)
      atomicAdd(sum, s);
  }
}

void run(const float *a, const float *b, float *s, int nx, int rows,
         cudaStream_t st) {
  residual<32, 4><<<dim3(nx / 32, rows / 4), {32, 4, 1}, 0, st>>>(a, b, s, nx,
                                                                 rows, true);
}

// The instantiation knows its shared memory; `norm` is the probability of the
// reduction branch (0 or 1 at each launch); the reduction follows the guarded
// `if`, so every launched thread runs it (counts scaled by launched/active);
// the atomic runs once per block.
// CHECK-LABEL: hint: residual<32, 4>
// CHECK: global atomic sum 4 B x {{.*}} * norm * 1 / blockDim.y * 1 / blockDim.x, uniform, address same_for_grid
// CHECK: shared memory: {{[1-9][0-9]*}} B static per block
// BlockReduce::Sum is charged by its algorithm (rules/library-collectives.cu:
// 5 warp-shuffle adds, one __syncthreads), not walked: CUB's inline PTX no
// longer makes the hint unknown.
// CHECK: __syncthreads:
// CHECK-NOT: INLINE_ASM
// CHECK-LABEL: == Launch residual<32, 4> grid=64,128,1 block=32,4,1
// CHECK: threads: 1048576 launched, 1044480 active
// fp32: 1044480 active threads subtract (1 add); all 1048576 launched threads
// square (1 mul) and reduce (5 adds) with norm = 1:
// 1044480 + 6 x 1048576 = 7335936.
// CHECK: flops: fp32 7335936, fp64 0
// 64 x 128 blocks: 8192 atomics.
// CHECK: atomics: 8192 (8192 to a shared address)
