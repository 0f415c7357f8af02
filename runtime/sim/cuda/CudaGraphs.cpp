//===- CudaGraphs.cpp - CUDA graphs against simulated GPUs ----------------===//
//
// A graph is a list of stream operations recorded once and run many times:
//
// - stream capture (cudaStreamBeginCapture .. cudaStreamEndCapture): every
//   operation submitted to a capturing stream (kernels, copies, sets) is
//   recorded as a node instead of running; a stream that waits for an event
//   recorded under capture joins it (fork-join capture);
// - explicit nodes (cudaGraphAdd*Node): a kernel node is costed like a
//   launch of its kernel (the kernel registry resolves `func`); memset and
//   memcpy nodes are recorded by running the equivalent asynchronous call
//   under capture.
//
// cudaGraphLaunch charges the host one graph launch (the machine file's
// overheads.graph_launch, lower than a launch per kernel) and queues the
// nodes on the stream in the order they were added, which is a topological
// order: independent branches of a graph run one after the other here.
//
//===----------------------------------------------------------------------===//

#include "CudaCommon.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <set>

namespace orrery::sim {

struct GraphNode {
  StreamOp Op;
  bool Empty = true; ///< no operation (an empty node, an event node)
  bool Kernel = false;
};

struct CapturedGraph {
  std::deque<GraphNode> Nodes; ///< stable addresses: cudaGraphNode_t
  /// Streams capturing into this graph (the origin first).
  std::vector<Stream *> Capturing;
  /// Explicit memset/memcpy nodes: the node the captured call fills.
  GraphNode *Filling = nullptr;
};

struct GraphExec {
  std::vector<const GraphNode *> Sources; ///< the graph's nodes, in order
  std::vector<StreamOp> Ops;              ///< what each launch queues
};

namespace {

// Handles given to the program are the objects' addresses, checked against
// the live sets before use (shared by all ranks: handles are per process in
// CUDA too, and a rank only ever sees its own).
std::set<const CapturedGraph *> &liveGraphs() {
  static auto *S = new std::set<const CapturedGraph *>;
  return *S;
}
std::set<const GraphExec *> &liveExecs() {
  static auto *S = new std::set<const GraphExec *>;
  return *S;
}

CapturedGraph *graphOf(cudaGraph_t G) {
  auto *P = reinterpret_cast<CapturedGraph *>(G);
  return liveGraphs().count(P) ? P : nullptr;
}
GraphExec *execOf(cudaGraphExec_t E) {
  auto *P = reinterpret_cast<GraphExec *>(E);
  return liveExecs().count(P) ? P : nullptr;
}
cudaGraphNode_t nodeHandle(GraphNode &N) {
  return reinterpret_cast<cudaGraphNode_t>(&N);
}
GraphNode *nodeOf(cudaGraphNode_t N) {
  return reinterpret_cast<GraphNode *>(N);
}

CapturedGraph *newGraph() {
  auto *G = new CapturedGraph;
  liveGraphs().insert(G);
  return G;
}

/// Whether \p N is a node of one of the live graphs.
bool liveNode(const GraphNode *N) {
  for (const CapturedGraph *G : liveGraphs())
    for (const GraphNode &M : G->Nodes)
      if (&M == N)
        return true;
  return false;
}

/// The kernel node's operation, costed as a launch without its host cost.
cudaError_t kernelNodeOp(const cudaKernelNodeParams *P, GraphNode &N) {
  if (!P || !P->func)
    return cudaErrorInvalidValue;
  Rank &R = callingRank();
  StreamOp Op;
  if (cudaError_t E =
          kernelOp(R, PendingLaunch(), P->func, P->gridDim, P->blockDim,
                   P->kernelParams, P->sharedMemBytes, false, true, Op))
    return E;
  N.Op = std::move(Op);
  N.Empty = false;
  N.Kernel = true;
  return cudaSuccess;
}

GraphNode &addNode(CapturedGraph &G, cudaGraphNode_t *Out) {
  G.Nodes.emplace_back();
  if (Out)
    *Out = nodeHandle(G.Nodes.back());
  return G.Nodes.back();
}

/// Adds to the graph \p Handle a node holding the stream operation \p Call
/// submits to the current device's default stream (the node's asynchronous
/// equivalent, run under capture); \p Valid: the node's parameters are.
template <class Fn>
cudaError_t addRecordedNode(cudaGraph_t Handle, cudaGraphNode_t *Out,
                            bool Valid, Fn Call) {
  Rank &R = callingRank();
  CapturedGraph *G = graphOf(Handle);
  if (!G || !Out || !Valid)
    return fail(R, cudaErrorInvalidValue);
  Stream &S = *R.current().Legacy;
  if (S.Capture)
    return fail(R, cudaErrorStreamCaptureUnsupported);
  S.Capture = G;
  G->Filling = &addNode(*G, Out);
  cudaError_t E = Call();
  S.Capture = nullptr;
  G->Filling = nullptr;
  return E == cudaSuccess ? E : fail(R, E);
}

} // namespace

Completion captureOp(Stream &S, StreamOp Op) {
  CapturedGraph &G = *S.Capture;
  GraphNode &N =
      G.Filling ? *G.Filling : (G.Nodes.emplace_back(), G.Nodes.back());
  // The stream's order is the graph's edges: nothing of the capturing
  // stream's past applies to the node.
  Op.Deps.clear();
  N.Kernel = Op.K == StreamOp::Exec && Op.Kernel;
  N.Op = std::move(Op);
  N.Empty = false;
  return Completion{};
}

void joinCapture(Stream &S, CapturedGraph &G) {
  S.Capture = &G;
  G.Capturing.push_back(&S);
}

} // namespace orrery::sim

using namespace orrery::sim;

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t Handle,
                                   enum cudaStreamCaptureMode) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return fail(R, cudaErrorInvalidResourceHandle);
  // CUDA refuses to capture the legacy default stream.
  if (S->Legacy || S->Capture)
    return fail(R, cudaErrorIllegalState);
  CapturedGraph *G = newGraph();
  joinCapture(*S, *G);
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t Handle, cudaGraph_t *Out) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S || !Out)
    return fail(R, !S ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue);
  CapturedGraph *G = S->Capture;
  if (!G || G->Capturing.empty() || G->Capturing.front() != S)
    return fail(R, cudaErrorIllegalState);
  for (Stream *Joined : G->Capturing)
    Joined->Capture = nullptr;
  G->Capturing.clear();
  *Out = reinterpret_cast<cudaGraph_t>(G);
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t Handle,
                                  enum cudaStreamCaptureStatus *Status) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S || !Status)
    return fail(R, !S ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue);
  *Status =
      S->Capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t Handle,
                                     enum cudaStreamCaptureStatus *Status,
                                     unsigned long long *Id, cudaGraph_t *Graph,
                                     const cudaGraphNode_t **Deps,
                                     const cudaGraphEdgeData **Edges,
                                     size_t *NumDeps) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S || !Status)
    return fail(R, !S ? cudaErrorInvalidResourceHandle : cudaErrorInvalidValue);
  *Status =
      S->Capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (Id)
    *Id = reinterpret_cast<std::uintptr_t>(S->Capture);
  if (Graph)
    *Graph = reinterpret_cast<cudaGraph_t>(S->Capture);
  if (Deps)
    *Deps = nullptr;
  if (Edges)
    *Edges = nullptr;
  if (NumDeps)
    *NumDeps = 0;
  return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t *Out, unsigned) {
  if (!Out)
    return fail(callingRank(), cudaErrorInvalidValue);
  *Out = reinterpret_cast<cudaGraph_t>(newGraph());
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t Handle) {
  CapturedGraph *G = graphOf(Handle);
  if (!G)
    return fail(callingRank(), cudaErrorInvalidValue);
  liveGraphs().erase(G);
  delete G;
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *Out, cudaGraph_t Handle,
                                   const cudaGraphNode_t *, size_t,
                                   const struct cudaKernelNodeParams *P) {
  Rank &R = callingRank();
  CapturedGraph *G = graphOf(Handle);
  if (!G || !Out)
    return fail(R, cudaErrorInvalidValue);
  GraphNode N;
  if (cudaError_t E = kernelNodeOp(P, N))
    return fail(R, E);
  addNode(*G, Out) = std::move(N);
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t Node,
                                         const struct cudaKernelNodeParams *P) {
  Rank &R = callingRank();
  GraphNode *N = nodeOf(Node);
  if (!N || !liveNode(N) || !N->Kernel)
    return fail(R, cudaErrorInvalidValue);
  if (cudaError_t E = kernelNodeOp(P, *N))
    return fail(R, E);
  return cudaSuccess;
}

cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t Handle, cudaGraphNode_t Node,
                                 const struct cudaKernelNodeParams *P) {
  Rank &R = callingRank();
  GraphExec *X = execOf(Handle);
  if (!X)
    return fail(R, cudaErrorInvalidValue);
  auto It = std::find(X->Sources.begin(), X->Sources.end(), nodeOf(Node));
  if (It == X->Sources.end() || !(*It)->Kernel)
    return fail(R, cudaErrorInvalidValue);
  GraphNode N;
  if (cudaError_t E = kernelNodeOp(P, N))
    return fail(R, E);
  X->Ops[It - X->Sources.begin()] = std::move(N.Op);
  return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Out, cudaGraph_t Handle,
                                  const cudaGraphNode_t *, size_t) {
  CapturedGraph *G = graphOf(Handle);
  if (!G || !Out)
    return fail(callingRank(), cudaErrorInvalidValue);
  addNode(*G, Out);
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *Out, cudaGraph_t Handle,
                                   const cudaGraphNode_t *, size_t,
                                   const struct cudaMemsetParams *P) {
  return addRecordedNode(Handle, Out, P && P->dst, [&] {
    size_t Bytes =
        size_t(P->elementSize) * P->width * (P->height ? P->height : 1);
    return cudaMemsetAsync(P->dst, int(P->value), Bytes, 0);
  });
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *Out, cudaGraph_t Handle,
                                   const cudaGraphNode_t *, size_t,
                                   const struct cudaMemcpy3DParms *P) {
  return addRecordedNode(Handle, Out, P && P->srcPtr.ptr && P->dstPtr.ptr, [&] {
    // The extent's bytes as one copy (pitches are not
    // modelled).
    size_t Bytes = P->extent.width * (P->extent.height ? P->extent.height : 1) *
                   (P->extent.depth ? P->extent.depth : 1);
    return cudaMemcpyAsync(P->dstPtr.ptr, P->srcPtr.ptr, Bytes, P->kind, 0);
  });
}

cudaError_t cudaGraphGetNodes(cudaGraph_t Handle, cudaGraphNode_t *Nodes,
                              size_t *Count) {
  CapturedGraph *G = graphOf(Handle);
  if (!G || !Count)
    return fail(callingRank(), cudaErrorInvalidValue);
  if (Nodes) {
    size_t I = 0;
    for (GraphNode &N : G->Nodes)
      if (I < *Count)
        Nodes[I++] = nodeHandle(N);
    *Count = I;
  } else {
    *Count = G->Nodes.size();
  }
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Out, cudaGraph_t Handle,
                                 unsigned long long) {
  CapturedGraph *G = graphOf(Handle);
  if (!G || !Out)
    return fail(callingRank(), cudaErrorInvalidValue);
  auto *X = new GraphExec;
  for (const GraphNode &N : G->Nodes)
    if (!N.Empty) {
      X->Sources.push_back(&N);
      X->Ops.push_back(N.Op);
    }
  liveExecs().insert(X);
  *Out = reinterpret_cast<cudaGraphExec_t>(X);
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *Out,
                                          cudaGraph_t Handle,
                                          unsigned long long Flags) {
  return cudaGraphInstantiate(Out, Handle, Flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t Handle) {
  GraphExec *X = execOf(Handle);
  if (!X)
    return fail(callingRank(), cudaErrorInvalidValue);
  liveExecs().erase(X);
  delete X;
  return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t Handle, cudaStream_t Stream) {
  Rank &R = callingRank();
  if (!execOf(Handle) || !resolveStream(R, Stream))
    return fail(R, cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t Handle, cudaStream_t SH) {
  Rank &R = callingRank();
  GraphExec *X = execOf(Handle);
  Stream *S = resolveStream(R, SH);
  if (!X || !S)
    return fail(R, !X ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
  Runtime &RT = Runtime::get();
  RT.cpuWait(R, Category::Launch, RT.gpu().GraphLaunch,
             RT.gpu().Estimates.GraphLaunch);
  for (const StreamOp &Op : X->Ops) {
    if (!Op.AtLaunch) {
      submit(R, *S, Op);
      continue;
    }
    StreamOp Prepared = Op;
    Op.AtLaunch->prepare(R, *S, Prepared);
    submit(R, *S, std::move(Prepared));
  }
  return cudaSuccess;
}

} // extern "C"
