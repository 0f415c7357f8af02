// Rule: NVSHMEM calls (passes/lib/kernels/NvshmemCalls.cpp): the bytes a
// kernel's device-initiated NVSHMEM calls move between GPUs, charged at the
// peer link bandwidth beside the kernel's own work; waits not charged.
// RUN: orrery-instrument --report %s --no-ptxas \
// RUN:   --machine %src-root/models/machines/dgx-h100.yaml \
// RUN:   --launch 'halo_p grid=4096 block=256 n=1048576 pe=1' \
// RUN:   --launch 'halo_block grid=64 block=256 nx=4096 pe=1' \
// RUN:   --launch 'wait_flag grid=1 block=32 value=1' \
// RUN:   -- %mock-cuda-flags -isystem %src-root/runtime/sim/skeleton-include \
// RUN:   | FileCheck %s
#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

// One element per thread into the peer's copy: 4 B a thread.
__global__ void halo_p(float *dst, const float *src, int n, int pe) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    nvshmem_float_p(dst + i, src[i], pe);
}

// Each block puts a row of nx floats and sets the peer's flag: the row's
// bytes are shared by the block's threads.
__global__ void halo_block(float *dst, const float *src, uint64_t *flag,
                           int nx, int pe) {
  nvshmemx_float_put_nbi_block(dst + blockIdx.x * nx, src + blockIdx.x * nx,
                               nx, pe);
  if (threadIdx.x == 0)
    nvshmemx_signal_op(flag, 1, NVSHMEM_SIGNAL_SET, pe);
}

// Waits for a flag the peer sets: nothing moved, nothing charged.
__global__ void wait_flag(uint64_t *flag, uint64_t value) {
  nvshmem_signal_wait_until(flag, NVSHMEM_CMP_EQ, value);
}

// Every call is a REMOTE_TRANSFER remark, and leaves the hint defaulted.
// CHECK-LABEL: hint: halo_p
// CHECK-SAME: confidence defaulted
// CHECK: REMOTE_TRANSFER {{.*}}'nvshmem_float_p' moves data between GPUs: charged at the peer link bandwidth
// CHECK-LABEL: hint: halo_block
// CHECK: REMOTE_TRANSFER {{.*}}'nvshmemx_float_put_nbi_block' moves data
// CHECK: REMOTE_TRANSFER {{.*}}'nvshmemx_signal_op' moves data
// CHECK-LABEL: hint: wait_flag
// CHECK: REMOTE_TRANSFER {{.*}}'nvshmem_signal_wait_until' waits for other GPUs: not charged

// halo_p: 2^20 threads x 4 B = 4,194,304 B over dgx-h100's 370 GB/s peer
// links: 11.336 us, above the 2.77 us in which the waves read src: the
// excess is charged, the launch remote bound; with the launch (2.76 us of
// host launch + 2.1 us of empty-kernel time, dgx-h100.yaml) 16.196 us.
// CHECK-LABEL: == Launch halo_p
// CHECK: remote bytes: 4194304 moved between GPUs by NVSHMEM calls (charged approximately)
// CHECK: roofline: remote bound
// CHECK: NVSHMEM transfers at the peer link bandwidth: 11.336 us
// CHECK: predicted: total 16.196 us (launch 4.86 us, memory 11.336 us)

// halo_block: 64 blocks x 4096 floats (16 KiB a block, shared by its 256
// threads) and one 8-byte signal per block (thread 0): 1,048,576 + 512 B,
// 2.835 us at 370 GB/s.
// CHECK-LABEL: == Launch halo_block
// CHECK: remote bytes: 1049088 moved
// CHECK: NVSHMEM transfers at the peer link bandwidth: 2.835 us

// wait_flag moves nothing: the launch only.
// CHECK-LABEL: == Launch wait_flag
// CHECK-NOT: remote bytes
// CHECK: predicted: total 4.86 us (launch 4.86 us)
