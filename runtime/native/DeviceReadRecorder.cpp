//===- DeviceReadRecorder.cpp - Values a native run copied back -----------===//

#include "DeviceReadRecorder.h"
#include "LauncherEnv.h"

#include "orrery/support/AtomicFile.h"
#include "orrery/support/RecordedReads.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace orrery::native {

namespace {

/// cudaMemcpyKind values (driver_types.h), declared here so that the
/// library builds without the CUDA toolkit.
constexpr long long MemcpyDeviceToHost = 2, MemcpyDefault = 4;

/// A read announced by orrery_read_hint and opened by orrery_cuda_begin.
struct Read {
  const orrery_site *Site = nullptr;
  std::string Type;
  const unsigned char *Dst = nullptr;
  std::size_t Bytes = 0;
  const void *Stream = nullptr;
  unsigned long long Order = 0; ///< when it was queued (events use it)
};

thread_local const orrery_site *HintSite = nullptr;
thread_local const char *HintType = nullptr;
thread_local std::vector<Read> InFlight;
/// Synchronising calls this thread is inside, with the stream or event they
/// wait for.
thread_local std::vector<std::pair<const orrery_site *, const void *>> Waits;

/// Whether the host may read \p P: plain host memory (the driver does not
/// know it), pinned host memory or managed memory. Without a CUDA driver in
/// the process every pointer is host memory.
bool hostReadable(const void *P) {
  using Query = int (*)(void *, int, unsigned long long);
  static Query Get = [] {
    void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    return Lib ? reinterpret_cast<Query>(dlsym(Lib, "cuPointerGetAttribute"))
               : nullptr;
  }();
  if (!Get)
    return true;
  constexpr int MemoryTypeAttr = 2, IsManagedAttr = 8; // CUpointer_attribute
  constexpr unsigned MemoryTypeHost = 1;
  unsigned Type = 0, Managed = 0;
  auto Ptr = reinterpret_cast<unsigned long long>(P);
  if (Get(&Type, MemoryTypeAttr, Ptr) != 0)
    return true; // pageable host memory the driver does not track
  if (Type == MemoryTypeHost)
    return true;
  return Get(&Managed, IsManagedAttr, Ptr) == 0 && Managed;
}

class Recorder {
public:
  static Recorder &get() {
    static Recorder R;
    return R;
  }
  bool enabled() const { return !Path.empty(); }

  /// Records \p R's value now.
  void take(const Read &R) {
    std::lock_guard<std::mutex> G(Lock);
    support::RecordedSite &S = siteOf(R.Site, R.Type);
    S.Bytes = R.Bytes;
    S.add(support::recordedValue(R.Type, R.Dst, R.Bytes));
  }
  void defer(Read R) {
    std::lock_guard<std::mutex> G(Lock);
    R.Order = ++Clock;
    Deferred.push_back(std::move(R));
  }
  void eventRecorded(const void *Event, const void *Stream) {
    std::lock_guard<std::mutex> G(Lock);
    Events[Event] = {Stream, ++Clock};
  }
  /// Takes the deferred reads that \p Done says have completed, in order.
  template <typename Pred> void complete(Pred Done) {
    std::vector<Read> Ready;
    {
      std::lock_guard<std::mutex> G(Lock);
      std::vector<Read> Rest;
      for (Read &R : Deferred)
        (Done(R) ? Ready : Rest).push_back(std::move(R));
      Deferred.swap(Rest);
    }
    for (const Read &R : Ready)
      take(R);
  }
  /// Which stream \p Event was last recorded on, and when.
  bool eventOf(const void *Event, const void *&Stream,
               unsigned long long &Order) {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Events.find(Event);
    if (It == Events.end())
      return false;
    std::tie(Stream, Order) = It->second;
    return true;
  }
  void unrecorded() {
    std::lock_guard<std::mutex> G(Lock);
    ++File.Unrecorded;
  }

  ~Recorder() {
    if (Path.empty())
      return;
    long Rank = worldRank(), Size = worldSize();
    std::string Out = outputPath(Path.c_str(), Rank), Error;
    if (Out.empty())
      return;
    File.Rank = Rank < 0 ? 0 : static_cast<int>(Rank);
    File.WorldSize = Size < 1 ? 1 : static_cast<int>(Size);
    // Copies never synchronised before exit: the program did not read them
    // either, and their destinations may be gone.
    File.Unrecorded += Deferred.size();
    for (const orrery_site *S : Order)
      File.Sites.push_back(Sites[S]);
    if (!support::writeFileAtomically(Out, support::recordedReadsJson(File),
                                      Error))
      std::fprintf(stderr,
                   "orrery: cannot write the device reads %s "
                   "(ORRERY_RECORD_READS): %s\n",
                   Out.c_str(), Error.c_str());
  }

private:
  Recorder() {
    if (const char *Env = std::getenv("ORRERY_RECORD_READS"); Env && *Env)
      Path = Env;
  }
  support::RecordedSite &siteOf(const orrery_site *Site,
                                const std::string &Type) {
    auto [It, New] = Sites.try_emplace(Site);
    if (New) {
      Order.push_back(Site);
      It->second.File = Site->file ? Site->file : "";
      It->second.Line = Site->line;
      It->second.Column = Site->column;
      It->second.Api = Site->api ? Site->api : "";
      It->second.Type = Type;
    }
    return It->second;
  }

  std::string Path;
  std::mutex Lock;
  std::map<const orrery_site *, support::RecordedSite> Sites;
  std::vector<const orrery_site *> Order; ///< sites by first read
  std::vector<Read> Deferred;
  std::map<const void *, std::pair<const void *, unsigned long long>> Events;
  unsigned long long Clock = 0;
  support::RecordedReads File;
};

bool isApi(const orrery_site *Site, const char *Name) {
  return Site->api && !std::strcmp(Site->api, Name);
}

} // namespace

bool recordingReads() { return Recorder::get().enabled(); }

void readHint(const orrery_site *Site, const char *Type) {
  if (!recordingReads())
    return;
  HintSite = Site;
  HintType = Type;
}

void readBegin(const orrery_site *Site, const orrery_buf &Dst, long long Aux,
               const void *Stream) {
  if (!recordingReads())
    return;
  if (isApi(Site, "cudaEventRecord") || isApi(Site, "cudaEventRecordWithFlags"))
    Recorder::get().eventRecorded(Dst.ptr, Stream);
  else if (isApi(Site, "cudaStreamSynchronize") ||
           isApi(Site, "cudaDeviceSynchronize") ||
           isApi(Site, "cudaThreadSynchronize"))
    Waits.emplace_back(Site, Stream);
  else if (isApi(Site, "cudaEventSynchronize"))
    Waits.emplace_back(Site, Dst.ptr);
  if (HintSite != Site)
    return;
  HintSite = nullptr;
  // A copy whose kind says it does not end in host memory (a math
  // library's result goes wherever its pointer mode says: asked below).
  bool Copy = Site->api && !std::strncmp(Site->api, "cudaMemcpy", 10);
  if (Copy && Aux != MemcpyDeviceToHost && Aux != MemcpyDefault)
    return;
  if (Dst.form != ORRERY_BUF_BYTES || !Dst.ptr || Dst.count <= 0)
    return;
  if (!hostReadable(Dst.ptr))
    return;
  Read R;
  R.Site = Site;
  R.Type = HintType ? HintType : "bytes";
  R.Dst = static_cast<const unsigned char *>(Dst.ptr);
  R.Bytes = static_cast<std::size_t>(Dst.count);
  R.Stream = Stream;
  InFlight.push_back(std::move(R));
}

void recordRead(const orrery_site *Site, const char *Type,
                const unsigned char *Data, std::size_t Bytes) {
  if (!recordingReads())
    return;
  Read R;
  R.Site = Site;
  R.Type = Type;
  R.Dst = Data;
  R.Bytes = Bytes;
  Recorder::get().take(R);
}

void readEnd(const orrery_site *Site, long long Result) {
  if (!recordingReads())
    return;
  Recorder &Rec = Recorder::get();
  if (!InFlight.empty() && InFlight.back().Site == Site) {
    Read R = std::move(InFlight.back());
    InFlight.pop_back();
    if (Result != 0)
      Rec.unrecorded(); // the copy failed: the program saw an error
    else if (Site->api && std::strstr(Site->api, "Async"))
      Rec.defer(std::move(R)); // in host memory once its stream is
    else
      Rec.take(R);
  }
  const void *Handle = nullptr;
  bool Waited = !Waits.empty() && Waits.back().first == Site;
  if (Waited) {
    Handle = Waits.back().second;
    Waits.pop_back();
  }
  if (Result != 0)
    return;
  // Synchronising calls complete the asynchronous reads they wait for; a
  // blocking copy waits for the legacy default stream.
  if (isApi(Site, "cudaDeviceSynchronize") ||
      isApi(Site, "cudaThreadSynchronize")) {
    Rec.complete([](const Read &) { return true; });
  } else if (Waited && isApi(Site, "cudaStreamSynchronize")) {
    Rec.complete([Handle](const Read &R) { return R.Stream == Handle; });
  } else if (Waited && isApi(Site, "cudaEventSynchronize")) {
    const void *Stream = nullptr;
    unsigned long long Recorded = 0;
    if (Rec.eventOf(Handle, Stream, Recorded))
      Rec.complete([&](const Read &R) {
        return R.Stream == Stream && R.Order < Recorded;
      });
  } else if (Site->api && !std::strncmp(Site->api, "cudaMemcpy", 10) &&
             !std::strstr(Site->api, "Async")) {
    Rec.complete([](const Read &R) { return R.Stream == nullptr; });
  }
}

} // namespace orrery::native
