// Calls in device code (dynamic parallelism) and in __host__ __device__
// functions are reported (W003, W004) and left unchanged.
// RUN: orrery-instrument %s -o %t.cu --manifest %t.json -- %mock-cuda-flags -fgpu-rdc 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file %t.json
// RUN: %clangxx -fsyntax-only -fgpu-rdc %mock-cuda-flags -I %hooks-include %t.cu
#include <cuda_runtime.h>

__global__ void child(int *x) {}
__global__ void parent(int *x) { child<<<1, 32>>>(x); }
__device__ int helper() {
  cudaDeviceSynchronize();
  return 0;
}
__host__ __device__ void both(int *x) { cudaGetLastError(); }

// CHECK: device-code.cu:9:34: warning: [orrery-W003] call to '<<<>>>' in device code is not instrumented (dynamic parallelism is not modeled)
// CHECK: device-code.cu:11:3: warning: [orrery-W003] call to 'cudaDeviceSynchronize' in device code is not instrumented
// CHECK: device-code.cu:14:41: warning: [orrery-W004] call to 'cudaGetLastError' in a __host__ __device__ function is not instrumented; hooks are host functions
// CHECK: orrery-instrument: 0 site(s) instrumented, 3 skipped in 1 file(s)
// MANIFEST: "kind": "launch",
// MANIFEST: "reason": "device code (dynamic parallelism is not modeled)",
// MANIFEST-NEXT: "status": "skipped"
