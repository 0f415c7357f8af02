//===- NativeHooks.cpp - Native backend of the hook ABI -------------------===//
//
// Native mode runs every original call and records, per site, how often it
// ran and the wall time it took. With ORRERY_PROFILE=<file> set, the record is
// written as JSON when the program exits (one file per process: "%p" in the
// name is replaced by the process id). With ORRERY_REPORT=<file>, a measured
// report in the simulator's schema (SiteProfile.h, docs/compare.md).
//
//===----------------------------------------------------------------------===//

#include "SiteProfile.h"
#include "orrery/hooks.h"

#include <chrono>
#include <vector>

namespace {
using orrery::native::Clock;

/// Begin times of the sites this thread is inside (calls nest: an MPI call
/// inside CHECK(...), cudaGetErrorString(cudaGetLastError())).
thread_local std::vector<Clock::time_point> Open;

void enter() { Open.push_back(Clock::now()); }

void leave(const orrery_site *Site) {
  if (Open.empty())
    return; // an end without a begin: nothing to time
  Clock::time_point End = Clock::now(), Begin = Open.back();
  Open.pop_back();
  orrery::native::SiteProfile::instance().record(Site, Begin, End,
                                                 Open.empty());
}
/// Creates the profile when the library loads, so that wall_seconds covers
/// the process from then on, not from the first call.
__attribute__((constructor)) void startProfile() {
  orrery::native::SiteProfile::instance();
}
} // namespace

extern "C" {

void orrery_cuda_begin(const orrery_site *, orrery_buf, orrery_buf, long long,
                       const void *) {
  enter();
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
                      intptr_t) {
  enter();
}

void orrery_ramc_begin(const orrery_site *, orrery_buf, orrery_buf, int,
                       const void *, unsigned long long) {
  enter();
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
