// Rule: L1 bytes (Access::l1Bytes, orrery_l1_wavefronts): what the L1's data
// stage reads for a warp's load, next to the sectors it requests. Bank
// conflicts at power-of-two strides, loads spread over many 128-byte lines
// at large odd strides, 8-byte elements in half warps.
// RUN: orrery-instrument --report=json %s --no-ptxas \
// RUN:   --launch 'aos grid=100 block=256' \
// RUN:   --launch 'column grid=1 block=256 pitch=1024' \
// RUN:   --launch 'column grid=1 block=256 pitch=1025' \
// RUN:   -- %mock-cuda-flags | FileCheck %s --check-prefix=JSON
// RUN: orrery-instrument --report %s --no-ptxas \
// RUN:   --launch 'column grid=1 block=256 pitch=1024' \
// RUN:   -- %mock-cuda-flags | FileCheck %s --check-prefix=TEXT
#include <cuda_runtime.h>

// x, y, z of particle i in an array of structures: stride 3 floats. Per warp
// 12 sectors (12 B per thread requested) but no bank conflict: 3 lines,
// (3 + 3) / 4 = 1.5 wavefronts = 6 B per thread through the L1.
__global__ void aos(const float *xyz, float *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  r[i] = xyz[3 * i] + xyz[3 * i + 1] + xyz[3 * i + 2];
}

// A column of a row-major matrix: stride `pitch` doubles, known at launch.
__global__ void column(const double *a, double *out, int pitch) {
  out[threadIdx.x] = a[threadIdx.x * pitch];
}

// JSON: "name": "aos"
// JSON: "l1_bytes": "6",
// JSON: "pattern": "strided",
// JSON: "requested_bytes": "12",
// JSON: "name": "column"
// JSON: "l1_bytes": "4 * orrery_l1_wavefronts(pitch, 8)",
// JSON-LABEL: "launches": [
// 3 loads x 6 B x 25,600 threads through the L1; 3 x 12 B requested.
// JSON: "kernel": "aos"
// JSON: "l1_load_bytes": 460800.0,
// JSON: "load_bytes_requested": 921600.0,
// JSON: "load_register_bytes": 307200.0,
// A pitch of 1024 doubles puts every lane in bank 0 (its 8 bytes in banks 0
// and 1): 32 wavefronts, 128 B per thread. 32 B are requested (a sector per
// lane), 8 kept.
// JSON: "kernel": "column"
// JSON: "l1_load_bytes": 32768.0,
// JSON: "load_bytes_requested": 8192.0,
// JSON: "load_register_bytes": 2048.0,
// An odd pitch: no conflict, 32 lines: (32 + 3) / 4 = 8.75 wavefronts, 35 B
// per thread.
// JSON: "kernel": "column"
// JSON: "l1_load_bytes": 8960.0,

// TEXT-LABEL: == Launch column
// TEXT: L1 data stage: 32768 bytes of wavefronts for the loads (bank conflicts, lines spread)
