// Instrumenting an instrumented file is refused: never double hooks.
// RUN: orrery-instrument --quiet %s -o %t.cu -- %mock-cuda-flags
// RUN: rm -f %t2.cu
// RUN: not orrery-instrument %t.cu -o %t2.cu -- %mock-cuda-flags -I %hooks-include 2>&1 | FileCheck %s
// RUN: test ! -e %t2.cu
#include <cuda_runtime.h>

void f() { cudaDeviceSynchronize(); }

// CHECK: error: [orrery-E001] this file already calls Orrery hooks; instrument the original source instead
// CHECK: orrery-instrument: error: no output written because of the errors above
