//===- CudaStreams.cpp - Streams, events, synchronization, launches -------===//

#include "CudaCommon.h"
#include "gpu/DeviceExecutor.h"
#include "gpu/DeviceMemory.h"
#include "gpu/FuncAttributes.h"
#include "gpu/KernelCost.h"
#include "gpu/KernelRegistry.h"
#include "gpu/LibraryKernels.h"
#include "mpi/Polling.h"
#include "ranks/LoadedObjects.h"
#include "values/DeviceValues.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <unordered_map>

using namespace orrery::sim;

namespace orrery::sim {

// Hashed: every stream and event of every rank, looked up on every call.
static std::unordered_map<const void *, StreamPtr> &liveStreams() {
  static std::unordered_map<const void *, StreamPtr> M;
  return M;
}

static std::unordered_map<const void *, EventPtr> &liveEvents() {
  static std::unordered_map<const void *, EventPtr> M;
  return M;
}

Stream *resolveStream(Rank &R, cudaStream_t S) {
  if (S == nullptr || S == cudaStreamLegacy || S == cudaStreamPerThread)
    return R.current().Legacy.get();
  // The rank's few streams on its current device first: they are in its
  // own memory, the hash table of every rank's streams is not.
  const std::vector<StreamPtr> &Own = R.current().Streams;
  if (Own.size() <= 8)
    for (const StreamPtr &P : Own)
      if (P.get() == reinterpret_cast<const Stream *>(S) && !P->Destroyed)
        return P.get();
  auto It = liveStreams().find(S);
  return It == liveStreams().end() ? nullptr : It->second.get();
}

cudaStream_t streamHandle(Stream &S) {
  liveStreams()[&S] = S.shared_from_this();
  return reinterpret_cast<cudaStream_t>(&S);
}

void forgetStream(cudaStream_t S) {
  auto It = liveStreams().find(S);
  if (It == liveStreams().end())
    return;
  It->second->Destroyed = true; // resolveStream's fast path sees it too
  liveStreams().erase(It);
}

EventPtr resolveEvent(cudaEvent_t E) {
  auto It = liveEvents().find(E);
  return It == liveEvents().end() ? nullptr : It->second;
}

cudaEvent_t eventHandle(const EventPtr &E) {
  liveEvents()[E.get()] = E;
  return reinterpret_cast<cudaEvent_t>(E.get());
}

void forgetEvent(cudaEvent_t E) { liveEvents().erase(E); }

Completion submit(Rank &R, Stream &S, StreamOp Op) {
  if (S.Capture)
    return captureOp(S, std::move(Op));
  DeviceContext &D = R.device(S.Device);
  if (S.Legacy) {
    for (const StreamPtr &Other : D.Streams)
      if (Other.get() != &S && !Other->NonBlocking && !Other->idle())
        Op.Deps.push_back(Other->tail());
  } else if (!S.NonBlocking && !D.Legacy->idle()) {
    Op.Deps.push_back(D.Legacy->tail());
  }
  return S.enqueue(std::move(Op));
}

std::vector<Completion> frontier(Rank &R, Stream &S) {
  std::vector<Completion> F;
  auto Add = [&F](const Completion &C) {
    if (!C.done())
      F.push_back(C);
  };
  Add(S.tail());
  for (const Completion &C : S.WaitsForNext)
    Add(C);
  DeviceContext &D = R.device(S.Device);
  if (S.Legacy) {
    for (const StreamPtr &Other : D.Streams)
      if (Other.get() != &S && !Other->NonBlocking)
        Add(Other->tail());
  } else if (!S.NonBlocking) {
    Add(D.Legacy->tail());
  }
  return F;
}

void waitForAll(const std::vector<Completion> &Cs) {
  for (const Completion &C : Cs)
    waitFor(C);
}

void waitFor(const Completion &C) {
  if (C.done())
    return;
  OutsideBench B;
  C.wait();
}

} // namespace orrery::sim

/// The kernel's name from its host stub, for launches without a hook.
static std::string stubName(const void *Func) {
  std::optional<std::string> Symbol = symbolAt(Func);
  if (!Symbol)
    return "<unknown kernel>";
  int Status = 0;
  char *D = abi::__cxa_demangle(Symbol->c_str(), nullptr, nullptr, &Status);
  std::string Name = Status == 0 && D ? D : *Symbol;
  std::free(D);
  const std::string Prefix = "__device_stub__";
  if (auto P = Name.find(Prefix); P != std::string::npos)
    Name.erase(P, Prefix.size());
  return Name;
}

/// The totals of the kernel launched at \p Site (or, for launches without a
/// hook, of the kernel whose stub is \p Func), called \p Name when it is
/// known otherwise than from the site (a registered kernel, a library
/// model), created on first use. A site whose kernel is resolved by address
/// (a launch through a pointer) keeps one row per kernel it launches.
static KernelTotals &kernelTotals(const orrery_site *Site, const void *Func,
                                  bool HasHint, const char *Hint,
                                  const std::string &Name = "",
                                  const char *Defined = nullptr) {
  struct PairHash {
    size_t operator()(const std::pair<const void *, const void *> &P) const {
      return std::hash<const void *>()(P.first) * 31 +
             std::hash<const void *>()(P.second);
    }
  };
  // Hashed: one key per launch site (and kernel) of every rank's program
  // copy.
  static std::unordered_map<std::pair<const void *, const void *>,
                            KernelTotals *, PairHash>
      ByKey;
  std::pair<const void *, const void *> Key(Site, Site && Name.empty() ? nullptr
                                                                       : Func);
  KernelTotals *&K = ByKey[Key];
  if (!K) {
    std::string Kernel = !Name.empty()          ? Name
                         : Site && Site->callee ? Site->callee
                                                : stubName(Func);
    std::string Where =
        Site      ? std::string(Site->file) + ":" + std::to_string(Site->line)
        : Defined ? std::string("(no launch site; defined at ") + Defined + ")"
                  : std::string("(not instrumented)");
    Report &Rep = Runtime::get().report();
    K = &Rep.kernel(Where + " " + Kernel);
    K->Name = Kernel;
    K->Site = Where;
    K->Hint = Hint;
    if (!HasHint)
      Rep.warn("kernel " + Kernel + " at " + Where +
               " has no cost hint: its launches are charged as empty kernels");
  }
  return *K;
}

namespace {

/// The device buffers (allocation bases) a launch's pointer arguments point
/// into, as far as the kernel registry says which arguments are pointers.
std::vector<const void *> launchBuffers(const void *Func, void **Args) {
  std::vector<const void *> Out;
  const orrery_kernel_entry *E = Args ? registeredKernel(Func) : nullptr;
  if (!E)
    return Out;
  const DeviceMemory &Memory = DeviceMemory::get();
  for (unsigned I = 0; I < 64 && (E->pointers >> I); ++I) {
    if (!((E->pointers >> I) & 1) || !Args[I])
      continue;
    const void *P = *static_cast<const void *const *>(Args[I]);
    const Allocation *A = Memory.find(P);
    if (!DeviceMemory::isDevice(A))
      continue;
    const void *Base = reinterpret_cast<const void *>(A->Base);
    if (std::find(Out.begin(), Out.end(), Base) == Out.end())
      Out.push_back(Base);
  }
  return Out;
}

} // namespace

namespace orrery::sim {

cudaError_t kernelOp(Rank &R, const PendingLaunch &P, const void *Func,
                     dim3 Grid, dim3 Block, void **Args, size_t Shared,
                     bool ChargeHost, bool InGraph, StreamOp &Op) {
  Runtime &RT = Runtime::get();
  orrery_dim3 G{Grid.x, Grid.y, Grid.z}, B{Block.x, Block.y, Block.z};
  // A launch no site hints (a pointer, cudaLaunchKernel, a graph node, a
  // macro, another file) is resolved by its stub, as CUDA does; a kernel from
  // library headers (thrust, CUB) has no hint: a library model of its bytes,
  // where its family is known.
  orrery_kernel_counts Found;
  const orrery_kernel_counts *Counts = nullptr;
  const char *Hint = "none"; // where Counts came from (the report's "hint")
  std::string Name;
  const char *Defined = nullptr;
  if (P.HasCounts) {
    Counts = &P.Counts;
    Hint = P.Hint ? P.Hint : "site";
    if (P.Name)
      Name = P.Name;
  } else if (const orrery_kernel_entry *E = registeredKernel(Func)) {
    Found = E->counts(G, B, Shared, Args);
    Counts = &Found;
    Hint = "registry";
    Name = E->name;
    Defined = E->location;
  } else if (std::optional<LibraryLaunch> Lib;
             !P.Site && (Lib = libraryModel(stubSymbol(Func), Args, G, B))) {
    Name = Lib->Name;
    if (Lib->Counts) {
      Found = *Lib->Counts;
      Counts = &Found;
      Hint = "library";
    }
  }
  // Data an earlier launch on this GPU left in L2, for the buffers this
  // launch's pointer arguments point into (twin mode measures instead).
  const models::GpuParams &Gpu = RT.gpu();
  std::vector<const void *> Buffers;
  double Footprint = 0;
  if (Counts && Gpu.L2Size > 0 && !deviceExecutor().real()) {
    Buffers = launchBuffers(Func, Args);
    models::KernelWork W = kernelWork(*Counts);
    Footprint = W.BytesRead + W.BytesWritten;
  }
  LaunchCost C = launchCost(
      Gpu, Counts, G, B, Shared, funcAttributesOf(Func).CarveoutPercent,
      R.current().L2.share(Buffers, Footprint, Gpu.L2Size), InGraph);
  // A kernel without a hint is only a problem when nothing measures it.
  KernelTotals &K = kernelTotals(
      P.Site, Func, Counts || deviceExecutor().real(), Hint, Name, Defined);
  if (!C.Error.empty()) {
    RT.report().warn("launch of " + K.Name + " at " + K.Site +
                     " cannot run: " + C.Error);
    return cudaErrorInvalidConfiguration;
  }
  R.current().L2.touch(Buffers, Footprint, Gpu.L2Size);
  if (ChargeHost)
    RT.cpuWait(R, Category::Launch, C.Launch, Gpu.Estimates.Launch);
  // Twin mode runs the kernel now, on the real GPU, and charges its
  // measured duration; skeleton mode charges the model's.
  Measurement M = deviceExecutor().launch(Func, G, B, Args, Shared);
  if (M.Error) {
    RT.report().warn("launch of " + K.Name + " at " + K.Site +
                     " failed on the GPU: " + M.What);
    return static_cast<cudaError_t>(M.Error);
  }
  Op = chargedOp(StreamOp::Exec, kernelCharge(C, M));
  if (RT.report().tracing())
    Op.Name = K.Name;
  Op.Kernel = &K;
  Op.Flops = C.Flops;
  Op.KernelBytes = C.Bytes;
  Op.Confidence = Counts ? Counts->confidence : -1;
  return cudaSuccess;
}

} // namespace orrery::sim

extern "C" {

unsigned __cudaPushCallConfiguration(dim3 Grid, dim3 Block, size_t Shared,
                                     void *S) {
  callingRank().LaunchConfigs.emplace_back(
      orrery_dim3{Grid.x, Grid.y, Grid.z},
      orrery_dim3{Block.x, Block.y, Block.z}, Shared, S);
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *Grid, dim3 *Block, size_t *Shared,
                                       void *S) {
  auto &V = callingRank().LaunchConfigs;
  if (V.empty())
    return cudaErrorMissingConfiguration;
  auto &[G, B, Bytes, Stream] = V.back();
  *Grid = dim3(G.x, G.y, G.z);
  *Block = dim3(B.x, B.y, B.z);
  *Shared = Bytes;
  *static_cast<void **>(S) = Stream;
  V.pop_back();
  return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *Func, dim3 Grid, dim3 Block,
                             void **Args, size_t Shared, cudaStream_t Handle) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  PendingLaunch P = R.Launch;
  R.Launch = PendingLaunch();
  StreamOp Op;
  if (cudaError_t E = kernelOp(R, P, Func, Grid, Block, Args, Shared, true,
                               S->Capture != nullptr, Op))
    return fail(R, E);
  // What the kernel leaves for the host, where the user set it (a
  // captured launch runs later, from its graph: not written).
  if (P.Site && !S->Capture && !deviceExecutor().real())
    kernelOutputs(R, P, Func, Args);
  submit(R, *S, std::move(Op));
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *Out, unsigned Flags,
                                         int) {
  Rank &R = callingRank();
  if (!Out)
    return fail(R, cudaErrorInvalidValue);
  DeviceContext &D = R.current();
  StreamPtr S = Stream::create(R, D.Index, D.Gpu,
                               (Flags & cudaStreamNonBlocking) != 0, false);
  D.Streams.push_back(S);
  *Out = streamHandle(*S);
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *Out, unsigned Flags) {
  return cudaStreamCreateWithPriority(Out, Flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *Out) {
  return cudaStreamCreateWithPriority(Out, cudaStreamDefault, 0);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *Least, int *Greatest) {
  if (Least)
    *Least = 0;
  if (Greatest)
    *Greatest = -5;
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t Handle) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S || S->Legacy)
    return fail(R, cudaErrorInvalidResourceHandle);
  // Work already queued still completes (CUDA semantics); the device
  // context keeps the stream alive until the simulation ends.
  forgetStream(Handle);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t Handle) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  waitForAll(frontier(R, *S));
  Runtime &RT = Runtime::get();
  RT.cpuWait(R, Category::Sync, RT.gpu().Sync, RT.gpu().Estimates.Sync);
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t Handle) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  // Polling loops see time pass (Polling.h).
  return pollCompletions(R, frontier(R, *S)) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaDeviceSynchronize(void) {
  Rank &R = callingRank();
  DeviceContext &D = R.current();
  for (const StreamPtr &S : D.Streams)
    waitFor(S->tail());
  Runtime &RT = Runtime::get();
  RT.cpuWait(R, Category::Sync, RT.gpu().Sync, RT.gpu().Estimates.Sync);
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *Out, unsigned Flags) {
  Rank &R = callingRank();
  if (!Out)
    return fail(R, cudaErrorInvalidValue);
  auto E = std::make_shared<EventState>();
  E->Timing = (Flags & cudaEventDisableTiming) == 0;
  *Out = eventHandle(E);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *Out) {
  return cudaEventCreateWithFlags(Out, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t Handle) {
  Rank &R = callingRank();
  if (!resolveEvent(Handle))
    return fail(R, cudaErrorInvalidResourceHandle);
  forgetEvent(Handle);
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t Handle, cudaStream_t SH) {
  Rank &R = callingRank();
  EventPtr E = resolveEvent(Handle);
  Stream *S = resolveStream(R, SH);
  if (!E || !S)
    return fail(R, cudaErrorInvalidResourceHandle);
  // Under capture an event marks a point of the graph (a fork for streams
  // that wait for it), not a time.
  E->CapturedIn = S->Capture;
  if (S->Capture) {
    ++E->Generation;
    E->Recorded = true;
    E->At.clear();
    return cudaSuccess;
  }
  // No stream operation: the event is the work queued so far, stamped with
  // the time the last of it ends (now, when all of it is already done).
  ++E->Generation;
  E->Recorded = true;
  E->Time = now();
  E->At = frontier(R, *S);
  for (const Completion &C : E->At)
    C.S->Stamps.insert({C.Seq, {E, E->Generation}});
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t Handle) {
  Rank &R = callingRank();
  EventPtr E = resolveEvent(Handle);
  if (!E)
    return fail(R, cudaErrorInvalidResourceHandle);
  waitForAll(E->At);
  Runtime &RT = Runtime::get();
  RT.cpuWait(R, Category::Sync, RT.gpu().Sync, RT.gpu().Estimates.Sync);
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t Handle) {
  Rank &R = callingRank();
  EventPtr E = resolveEvent(Handle);
  if (!E)
    return fail(R, cudaErrorInvalidResourceHandle);
  return pollCompletions(R, E->At) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t A, cudaEvent_t B) {
  Rank &R = callingRank();
  EventPtr Start = resolveEvent(A), End = resolveEvent(B);
  if (!Ms || !Start || !End)
    return fail(R, cudaErrorInvalidResourceHandle);
  if (!Start->Timing || !End->Timing || !Start->Recorded || !End->Recorded)
    return fail(R, cudaErrorInvalidResourceHandle);
  if (!Start->done() || !End->done())
    return fail(R, cudaErrorNotReady);
  *Ms = static_cast<float>((End->Time - Start->Time) * 1e3);
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t SH, cudaEvent_t Handle, unsigned) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, SH);
  EventPtr E = resolveEvent(Handle);
  if (!S || !E)
    return fail(R, cudaErrorInvalidResourceHandle);
  // A stream waiting for an event of a capture joins it (its work becomes
  // nodes of the same graph: CUDA's fork-join capture).
  if (E->CapturedIn && !S->Capture) {
    joinCapture(*S, *E->CapturedIn);
    return cudaSuccess;
  }
  // The next operation queued on the stream waits for the event.
  if (E->Recorded)
    S->WaitsForNext.insert(S->WaitsForNext.end(), E->At.begin(), E->At.end());
  return cudaSuccess;
}

} // extern "C"
