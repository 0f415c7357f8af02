//===- CudaCommon.h - Shared pieces of the skeleton CUDA runtime -*- C++
//-*-===//
//
// The skeleton CUDA runtime implements the runtime API against simulated
// GPUs: CudaDevice.cpp (devices, errors, properties), CudaMemory.cpp
// (allocations, copies, sets) and CudaStreams.cpp (streams, events,
// synchronization, launches). Handles given to the program are addresses of
// runtime objects, checked against the live set before use.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_CUDACOMMON_H
#define ORRERY_SIM_CUDACOMMON_H

#include "gpu/DeviceExecutor.h"
#include "gpu/Streams.h"
#include "ranks/Runtime.h"

#include <cuda_runtime_api.h>

namespace orrery::sim {

/// A stream operation of kind \p K that charges \p C (modelled or measured
/// device time, by category).
inline StreamOp chargedOp(StreamOp::Kind K, const DeviceCharge &C) {
  StreamOp Op;
  Op.K = K;
  Op.Seconds = C.Seconds;
  Op.Parts = C.Parts;
  Op.Estimate = C.Estimate;
  Op.Measured = C.Measured;
  return Op;
}

/// The calling rank, after the runtime's progress tick.
Rank &callingRank();

/// Device ordinals as the program sees them (cudaSetDevice, cuDeviceGet,
/// ...) against the node's GPUs, which the simulation uses throughout (a
/// rank's Device, allocations, contexts). Without orrery-run --gpu-bind the
/// two are the same; with --gpu-bind local a rank sees one GPU, ordinal 0,
/// its local rank's (as CUDA_VISIBLE_DEVICES=$SLURM_LOCALID does).
/// How many GPUs \p R sees.
int visibleGpus(const Rank &R);
/// The node's GPU behind \p R's ordinal \p D, or -1 if it sees none such.
int physicalGpu(const Rank &R, int D);
/// \p R's ordinal of the node's GPU \p G, or -1 if it does not see it.
int ordinalOf(const Rank &R, int G);

/// Records \p E as the rank's last error (cudaGetLastError) and returns it.
cudaError_t fail(Rank &R, cudaError_t E);

/// The stream a handle names: 0, cudaStreamLegacy and cudaStreamPerThread
/// are the current device's default stream. Null for an unknown handle.
Stream *resolveStream(Rank &R, cudaStream_t S);
cudaStream_t streamHandle(Stream &S);
/// Forgets a destroyed stream's handle.
void forgetStream(cudaStream_t S);

EventPtr resolveEvent(cudaEvent_t E);
cudaEvent_t eventHandle(const EventPtr &E);
void forgetEvent(cudaEvent_t E);

/// Queues \p Op on \p S with CUDA's default-stream ordering: work on the
/// legacy default stream waits for every blocking stream of its device, and
/// work on a blocking stream waits for the default stream.
Completion submit(Rank &R, Stream &S, StreamOp Op);

/// The stream operation of one launch of the kernel whose host stub is
/// \p Func, costed from the site's hint in \p P, the kernel registry or a
/// library model; the host's launch cost is charged when \p ChargeHost. A
/// kernel node of a graph (\p InGraph) costs the device a graph node's
/// overhead. A launch that cannot run returns its error (and warns).
cudaError_t kernelOp(Rank &R, const PendingLaunch &P, const void *Func,
                     dim3 Grid, dim3 Block, void **Args, size_t Shared,
                     bool ChargeHost, bool InGraph, StreamOp &Op);

/// Records \p Op as a node of the graph \p S is capturing (CudaGraphs.cpp)
/// instead of running it; the completion returned is already reached.
Completion captureOp(Stream &S, StreamOp Op);
/// Makes \p S capture into \p G too, until G's capture ends.
void joinCapture(Stream &S, CapturedGraph &G);

/// Blocks the calling rank until \p C is reached.
void waitFor(const Completion &C);
void waitForAll(const std::vector<Completion> &Cs);

/// What synchronizing with \p S waits for: its queued work, the events it
/// was told to wait for, and the default-stream ordering rules.
std::vector<Completion> frontier(Rank &R, Stream &S);

} // namespace orrery::sim

#endif // ORRERY_SIM_CUDACOMMON_H
