//===- NativeHooks.cpp - Native backend of the hook ABI -------------------===//
//
// Native mode runs every original call and records, per site, how often it
// ran, the wall time it took and the bytes its CUDA or RAMC calls moved. With
// ORRERY_PROFILE=<file> set, the record is written as JSON when the program
// exits (one file per process: "%p" in the name is replaced by the process id).
// With ORRERY_REPORT=<file>, a measured report in the simulator's schema
// (SiteProfile.h, docs/compare.md). On a GPU, kernel launches and asynchronous
// copies are also timed on their streams with device events (DeviceSpans.h),
// read without waiting at the program's synchronising calls and at exit.
//
//===----------------------------------------------------------------------===//

#include "CudaEventClock.h"
#include "DeviceReadRecorder.h"
#include "DeviceSpans.h"
#include "MpiResultRecorder.h"
#include "SiteProfile.h"
#include "orrery/hooks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
using orrery::native::Clock;

/// A call this thread is inside (calls nest: an MPI call inside CHECK(...),
/// cudaGetErrorString(cudaGetLastError())).
struct OpenCall {
  Clock::time_point Begin;
  long long Bytes;
  long DeviceToken; ///< DeviceSpans::begin's, or -1: not timed on the device
};
thread_local std::vector<OpenCall> Open;

void enter(long long Bytes = 0) { Open.push_back({Clock::now(), Bytes, -1}); }

/// Hands the device spans read so far to the profile.
void collect(orrery::native::DeviceSpans &D, bool Wait) {
  std::vector<orrery::native::DeviceSpan> Done;
  if (Wait)
    D.drain(Done);
  else
    D.poll(Done);
  orrery::native::SiteProfile::instance().recordDevice(Done, D.untimed());
}

/// The device timer, or null when the process has no CUDA driver loaded.
orrery::native::DeviceSpans *deviceSpans() {
  orrery::native::EventClock *C = orrery::native::cudaEventClock();
  if (!C)
    return nullptr;
  static orrery::native::DeviceSpans Spans(*C);
  // Registered after the CUDA runtime's own exit handler (the program's
  // CUDA calls came first), so it runs before the runtime tears the context
  // down.
  static const bool AtExit =
      std::atexit([] { collect(Spans, /*Wait=*/true); }) == 0;
  (void)AtExit;
  return &Spans;
}

/// Times the call just entered on \p Stream with device events.
void timeOnDevice(const orrery_site *Site, const void *Stream) {
  if (orrery::native::DeviceSpans *D = deviceSpans())
    Open.back().DeviceToken = D->begin(
        Site, Stream,
        orrery::native::SiteProfile::instance().sinceLoad(Clock::now()));
}

/// Asynchronous copies and sets: their work runs on the stream after the
/// call returns (cudaMemcpyAsync, cudaMemcpy2DAsync, cudaMemsetAsync, ...).
bool asyncDeviceWork(const char *Api) {
  return Api && std::strstr(Api, "Async") &&
         (std::strstr(Api, "Memcpy") || std::strstr(Api, "Memset"));
}

/// Calls after which finished device work is read (without waiting): the
/// program's own synchronisation and blocking copies.
bool readsDeviceSpans(const orrery_site *Site) {
  if (Site->kind != ORRERY_KIND_CUDA)
    return false;
  std::string Cat = orrery::native::categoryOf(Site);
  return Cat == "sync" || (Cat == "copies" && !std::strstr(Site->api, "Async"));
}

/// Pairs left unread before the timer reads them anyway (memory bound for
/// programs that never synchronise).
constexpr size_t MaxPending = 4096;

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
  if (Call.DeviceToken < 0 && !readsDeviceSpans(Site))
    return;
  orrery::native::DeviceSpans *D = deviceSpans();
  if (!D)
    return;
  D->end(Call.DeviceToken);
  if (readsDeviceSpans(Site) || D->pending() > MaxPending)
    collect(*D, /*Wait=*/false);
}
/// Creates the profile when the library loads, so that wall_seconds covers
/// the process from then on, not from the first call.
__attribute__((constructor)) void startProfile() {
  orrery::native::SiteProfile::instance();
}
} // namespace

extern "C" {

void orrery_cuda_begin(const orrery_site *Site, orrery_buf Dst, orrery_buf Src,
                       long long Aux, const void *Stream) {
  orrery::native::readBegin(Site, Dst, Aux, Stream);
  enter(bytesOf(Dst, Src));
  if (asyncDeviceWork(Site->api))
    timeOnDevice(Site, Stream);
}

void orrery_launch_begin(const orrery_site *Site, orrery_dim3, orrery_dim3,
                         unsigned long long, const void *Stream) {
  enter();
  timeOnDevice(Site, Stream);
}

// Native launches are measured, not predicted: the hint is not needed.
void orrery_launch_hint(const orrery_site *, orrery_kernel_counts) {}
// A native run measures kernels: the registry's hints are not needed.
void orrery_register_kernels(const orrery_kernel_entry *, unsigned) {}

// No footprint bound: a native run does not charge the hints.
double orrery_buffer_bytes(const void *) { return HUGE_VAL; }

// Native runs read real device memory; with ORRERY_RECORD_READS set they
// record what they read, for a simulation to replay.
void orrery_read_hint(const orrery_site *Site, const char *Type, const char *) {
  orrery::native::readHint(Site, Type);
}

// A native kernel leaves what it computes: nothing to write.
void orrery_launch_value(const orrery_site *, const char *, const char *) {}

void orrery_mpi_begin(const orrery_site *Site, orrery_buf, orrery_buf Recv,
                      int Peer, intptr_t Comm, int, int, int,
                      const void *Request) {
  orrery::native::mpiResultBegin(Site, Recv, Peer, Comm, Request);
  enter();
}

void orrery_ramc_begin(const orrery_site *, orrery_buf Src, orrery_buf Dst, int,
                       const void *, unsigned long long) {
  enter(bytesOf(Src, Dst));
}

int orrery_end(const orrery_site *Site, int Result) {
  orrery::native::readEnd(Site, Result);
  orrery::native::mpiResultEnd(Site, Result);
  leave(Site);
  return Result;
}

const void *orrery_end_ptr(const orrery_site *Site, const void *Result) {
  orrery::native::readEnd(Site, 0);
  orrery::native::mpiResultEnd(Site, 0);
  leave(Site);
  return Result;
}

void orrery_end_void(const orrery_site *Site) {
  orrery::native::readEnd(Site, 0);
  orrery::native::mpiResultEnd(Site, 0);
  leave(Site);
}

} // extern "C"
