//===- CudaEventClock.h - Device events from the CUDA driver ----*- C++ -*-===//
//
// The EventClock of a run: cuEvent* of the CUDA driver the program already
// loaded (libcuda.so.1, found with RTLD_NOLOAD: a program that never loaded
// the driver, or a mock CUDA of the tests, gets no clock and nothing is
// timed on the device). The driver is used rather than the runtime because
// a program may link its CUDA runtime statically; a cudaStream_t is the
// driver's CUstream.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_CUDAEVENTCLOCK_H
#define ORRERY_RUNTIME_NATIVE_CUDAEVENTCLOCK_H

#include "DeviceSpans.h"

namespace orrery::native {

/// The driver's clock, or null when the process has not loaded the driver
/// (or it lacks a cuEvent* function). Created on first use.
EventClock *cudaEventClock();

} // namespace orrery::native

#endif // ORRERY_RUNTIME_NATIVE_CUDAEVENTCLOCK_H
