//===- CudaEventClock.cpp - Device events from the CUDA driver ------------===//

#include "CudaEventClock.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

namespace orrery::native {

namespace {

// The driver API's types and codes (cuda.h), declared here so that the
// library builds without the CUDA toolkit.
using CUresult = int;
using CUevent = void *;
using CUstream = void *;
using CUcontext = void *;
constexpr CUresult CudaSuccess = 0;
constexpr CUresult CudaErrorNotReady = 600;
constexpr unsigned EventDefault = 0;
constexpr unsigned StreamNonBlocking = 1;

class DriverClock final : public EventClock {
public:
  bool load() {
    void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!Lib)
      return false;
    return bind(Lib, "cuCtxGetCurrent", CtxGetCurrent) &&
           bind(Lib, "cuEventCreate", EventCreate) &&
           bind(Lib, "cuEventRecord", EventRecord) &&
           bind(Lib, "cuEventQuery", EventQuery) &&
           bind(Lib, "cuEventSynchronize", EventSynchronize) &&
           bind(Lib, "cuEventElapsedTime", EventElapsedTime) &&
           bind(Lib, "cuEventDestroy_v2", EventDestroy) &&
           bind(Lib, "cuStreamCreate", StreamCreate);
  }

  const void *context() override {
    CUcontext C = nullptr;
    return CtxGetCurrent(&C) == CudaSuccess ? C : nullptr;
  }
  void *create() override {
    CUevent E = nullptr;
    return EventCreate(&E, EventDefault) == CudaSuccess ? E : nullptr;
  }
  const void *idleStream() override {
    std::lock_guard<std::mutex> G(Lock);
    const void *C = context();
    auto [It, New] = Idle.try_emplace(C, nullptr);
    if (New && StreamCreate(&It->second, StreamNonBlocking) != CudaSuccess)
      It->second = nullptr;
    return It->second;
  }
  bool record(void *Event, const void *Stream) override {
    return EventRecord(Event, const_cast<void *>(Stream)) == CudaSuccess;
  }
  State query(void *Event) override {
    CUresult R = EventQuery(Event);
    return R == CudaSuccess         ? State::Done
           : R == CudaErrorNotReady ? State::Pending
                                    : State::Failed;
  }
  bool wait(void *Event) override {
    return EventSynchronize(Event) == CudaSuccess;
  }
  bool elapsedMs(void *From, void *To, float &Ms) override {
    return EventElapsedTime(&Ms, From, To) == CudaSuccess;
  }
  void destroy(void *Event) override { EventDestroy(Event); }

private:
  template <typename F> static bool bind(void *Lib, const char *Name, F &Out) {
    Out = reinterpret_cast<F>(dlsym(Lib, Name));
    return Out != nullptr;
  }
  CUresult (*CtxGetCurrent)(CUcontext *) = nullptr;
  CUresult (*EventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*EventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*EventQuery)(CUevent) = nullptr;
  CUresult (*EventSynchronize)(CUevent) = nullptr;
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*EventDestroy)(CUevent) = nullptr;
  CUresult (*StreamCreate)(CUstream *, unsigned) = nullptr;
  std::mutex Lock;
  std::map<const void *, CUstream> Idle; ///< by context
};

} // namespace

EventClock *cudaEventClock() {
  // Looked for until found: a program's first launch may come before its
  // CUDA runtime loaded the driver (that launch is then not timed).
  static DriverClock Clock;
  static bool Loaded = false;
  static std::mutex LoadLock;
  std::lock_guard<std::mutex> G(LoadLock);
  if (!Loaded)
    Loaded = Clock.load();
  return Loaded ? &Clock : nullptr;
}

} // namespace orrery::native
