//===- NativeHooks.cpp - Native backend of the hook ABI -------------------===//
//
// Native mode runs every original call and records, per site, how often it
// ran, the wall time it took and the bytes its CUDA or RAMC calls moved. With ORRERY_PROFILE=<file> set, the record is
// written as JSON when the program exits (one file per process: "%p" in the
// name is replaced by the process id). With ORRERY_REPORT=<file>, a measured
// report in the simulator's schema (SiteProfile.h, docs/compare.md).
//
//===----------------------------------------------------------------------===//

#include "SiteProfile.h"
#include "orrery/hooks.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace {
using orrery::native::Clock;

/// A call this thread is inside (calls nest: an MPI call inside CHECK(...),
/// cudaGetErrorString(cudaGetLastError())).
struct OpenCall {
  Clock::time_point Begin;
  long long Bytes;
};
thread_local std::vector<OpenCall> Open;

void enter(long long Bytes = 0) { Open.push_back({Clock::now(), Bytes}); }

/// The bytes a CUDA or RAMC call copies, sets, moves or allocates: the larger
/// byte count of its two buffers (a copy names its size on both).
long long bytesOf(const orrery_buf &A, const orrery_buf &B) {
  auto Bytes = [](const orrery_buf &X) {
    return X.form == ORRERY_BUF_BYTES && X.count > 0 ? X.count : 0;
  };
  return std::max(Bytes(A), Bytes(B));
}

void leave(const orrery_site *Site) {
  if (Open.empty())
    return; // an end without a begin: nothing to time
  Clock::time_point End = Clock::now();
  OpenCall Call = Open.back();
  Open.pop_back();
  orrery::native::SiteProfile::instance().record(Site, Call.Begin, End,
                                                 Call.Bytes, Open.empty());
}
/// Creates the profile when the library loads, so that wall_seconds covers
/// the process from then on, not from the first call.
__attribute__((constructor)) void startProfile() {
  orrery::native::SiteProfile::instance();
}
} // namespace

extern "C" {

void orrery_cuda_begin(const orrery_site *, orrery_buf Dst, orrery_buf Src,
                       long long, const void *) {
  enter(bytesOf(Dst, Src));
}

void orrery_launch_begin(const orrery_site *, orrery_dim3, orrery_dim3,
                         unsigned long long, const void *) {
  enter();
}

// Native launches are measured, not predicted: the hint is not needed.
void orrery_launch_hint(const orrery_site *, orrery_kernel_counts) {}

// Native runs read real device memory.
void orrery_read_hint(const orrery_site *, const char *, const char *) {}

void orrery_mpi_begin(const orrery_site *, orrery_buf, orrery_buf, int,
                      intptr_t, int, int, int) {
  enter();
}

void orrery_ramc_begin(const orrery_site *, orrery_buf Src, orrery_buf Dst, int,
                       const void *, unsigned long long) {
  enter(bytesOf(Src, Dst));
}

int orrery_end(const orrery_site *Site, int Result) {
  leave(Site);
  return Result;
}

const void *orrery_end_ptr(const orrery_site *Site, const void *Result) {
  leave(Site);
  return Result;
}

void orrery_end_void(const orrery_site *Site) { leave(Site); }

} // extern "C"
