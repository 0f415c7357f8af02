// A file clang cannot parse: clang's diagnostics, exit 1, no output, and an
// existing output file is left as it was.
// RUN: echo previous > %t.cu
// RUN: not orrery-instrument %s -o %t.cu -- %mock-cuda-flags 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=KEPT --input-file %t.cu
#include <cuda_runtime.h>

void f() { cudaDeviceSynchronize() }

// CHECK: parse-error.cu:8:35: error: expected ';' after expression
// CHECK: orrery-instrument: error: no output written because of the errors above
// KEPT: previous
