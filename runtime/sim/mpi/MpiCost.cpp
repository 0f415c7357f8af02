//===- MpiCost.cpp - Device legs of GPU-aware MPI calls -------------------===//

#include "MpiCost.h"
#include "Messages.h"
#include "MpiClass.h"
#include "NetworkFactors.h"
#include "gpu/DeviceMemory.h"
#include "orrery/apis/MpiResults.h"

#include "orrery/models/CommCost.h"

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace orrery::sim {

namespace {

MPI_Comm commOf(intptr_t C) { return reinterpret_cast<MPI_Comm>(C); }

double typeSize(intptr_t T) {
  if (!T)
    return 0;
  int S = 0;
  if (MPI_Type_size(reinterpret_cast<MPI_Datatype>(T), &S) != MPI_SUCCESS)
    return 0;
  return S;
}

int commSize(intptr_t C) {
  int N = 1;
  if (!C || MPI_Comm_size(commOf(C), &N) != MPI_SUCCESS)
    return 1;
  return N;
}

double bytesOf(const orrery_buf &B, intptr_t Comm) {
  switch (B.form) {
  case ORRERY_BUF_BYTES:
    return static_cast<double>(B.count);
  case ORRERY_BUF_MPI:
    return static_cast<double>(B.count) * typeSize(B.datatype);
  case ORRERY_BUF_MPIV: {
    if (!B.counts)
      return 0;
    double N = 0;
    for (int I = 0, E = commSize(Comm); I < E; ++I)
      N += B.counts[I];
    return N * typeSize(B.datatype);
  }
  default:
    return 0;
  }
}

bool inPlace(const void *P) { return P == MPI_IN_PLACE; }

/// The rank's side of a buffer: its node, GPU and memory space.
models::Endpoint endpointOf(const Rank &R, const void *P) {
  models::Endpoint E;
  E.Node = R.Node;
  E.Gpu = R.Device;
  if (const Allocation *A = DeviceMemory::get().find(P);
      A && A->Kind != MemoryKind::Pinned) {
    E.Space = models::MemorySpace::Device;
    E.Gpu = A->Device;
  }
  return E;
}

/// The world rank of \p Peer in \p Comm.
int worldRank(int Peer, intptr_t Comm) {
  MPI_Comm C = commOf(Comm);
  // MPI_ANY_SOURCE, MPI_PROC_NULL and -1 (not annotated) stay as they are.
  if (!Comm || C == MPI_COMM_WORLD || Peer < 0)
    return Peer;
  MPI_Group G, W;
  int Out = Peer;
  if (MPI_Comm_group(C, &G) != MPI_SUCCESS)
    return Peer;
  MPI_Comm_group(MPI_COMM_WORLD, &W);
  MPI_Group_translate_ranks(G, 1, &Peer, W, &Out);
  MPI_Group_free(&G);
  MPI_Group_free(&W);
  return Out;
}

/// The communicator's key for message matching, the same on every rank
/// (cached per handle); AnyComm when the call's communicator is unknown.
std::uint64_t commKey(intptr_t Comm) {
  if (!Comm)
    return AnyComm;
  static std::map<intptr_t, std::uint64_t> Cache;
  auto [It, New] = Cache.try_emplace(Comm);
  if (New) {
    std::vector<int> Members;
    for (int I = 0, N = commSize(Comm); I < N; ++I)
      Members.push_back(worldRank(I, Comm));
    It->second = communicatorKey(Members);
  }
  return It->second;
}

/// The peer's side: the GPU it drives now (its cudaSetDevice), and our
/// buffer's memory space (the peer's buffer is known only once a message
/// has matched, see Messages.h).
models::Endpoint peerEndpoint(int WorldPeer, models::MemorySpace Space) {
  Runtime &RT = Runtime::get();
  models::Endpoint E;
  if (WorldPeer < 0) { // MPI_ANY_SOURCE: assume another node
    E.Node = -1;
    E.Space = Space;
    return E;
  }
  E.Node = WorldPeer / RT.ranksPerNode();
  E.Gpu = RT.deviceOf(WorldPeer);
  E.Space = Space;
  return E;
}

/// Warns once when the calling rank and \p WorldPeer, on one node, drive
/// the same GPU (usually a device selection that ignores the local rank).
void checkSharedGpu(const Rank &R, int WorldPeer) {
  static bool Warned = false;
  if (Warned || WorldPeer < 0 || WorldPeer == R.Id)
    return;
  Runtime &RT = Runtime::get();
  const Rank *P = RT.rankById(WorldPeer);
  if (!P || P->Node != R.Node || P->Device != R.Device || RT.gpusPerNode() < 2)
    return;
  Warned = true;
  std::string Text = "ranks " + std::to_string(R.Id) + " and " +
                     std::to_string(WorldPeer) + " of node " +
                     std::to_string(R.Node) + " both drive GPU " +
                     std::to_string(R.Device) +
                     " (cudaSetDevice): their messages are same-GPU copies";
  RT.report().warn(Text);
  std::fprintf(stderr, "liborrery-sim: warning: %s\n", Text.c_str());
}

/// The widest locality among a communicator's ranks (cached per handle).
models::Locality spanOf(const Rank &R, intptr_t Comm) {
  static std::map<intptr_t, models::Locality> Cache;
  auto It = Cache.find(Comm);
  if (It != Cache.end())
    return It->second;
  Runtime &RT = Runtime::get();
  int N = commSize(Comm);
  models::Locality L = models::Locality::SameGpu;
  for (int I = 0; I < N && L != models::Locality::OtherNode; ++I) {
    int W = worldRank(I, Comm);
    if (W / RT.ranksPerNode() != R.Node)
      L = models::Locality::OtherNode;
    else if (W != R.Id)
      L = models::Locality::SameNode;
  }
  Cache[Comm] = L;
  return L;
}

/// The communicator's longest route from the calling rank and its
/// narrowest link, in the shared-memory size band of a message of \p Bytes
/// (cached per handle, rank and size).
models::Hockney widestRoute(const Rank &R, intptr_t Comm, double Bytes) {
  static std::map<std::tuple<intptr_t, int, double>, models::Hockney> Cache;
  auto [It, New] = Cache.try_emplace({Comm, R.Id, Bytes});
  if (!New)
    return It->second;
  Runtime &RT = Runtime::get();
  models::Hockney W{0, std::numeric_limits<double>::infinity()};
  for (int I = 0, N = commSize(Comm); I < N; ++I) {
    int Peer = worldRank(I, Comm);
    if (Peer == R.Id || Peer < 0)
      continue;
    RouteFigures F = routeOf(R.Cpu, RT.cpuHostOf(Peer), Bytes);
    W.Latency = std::max(W.Latency, F.Latency);
    W.Bandwidth = std::min(W.Bandwidth, F.Bandwidth);
  }
  It->second = W;
  return W;
}

/// A nonblocking collective began (Orrery's part already charged): it may
/// complete no earlier than its blocking form's bound from now.
void deferCollective(Rank &R, models::Collective Op, const orrery_buf &Send,
                     const orrery_buf &Recv, intptr_t Comm) {
  double Bytes = inPlace(Send.ptr) ? bytesOf(Recv, Comm) : bytesOf(Send, Comm);
  double Bound = models::blockingCollectiveBound(Op, commSize(Comm), Bytes,
                                                 widestRoute(R, Comm, Bytes));
  R.CollectivesReady = std::max(R.CollectivesReady, now() + Bound);
}

/// True for the calls that wait for requests to complete; MPI_Test and its
/// kin may return before, so they leave pending collectives pending.
bool completesRequests(std::string_view Api) {
  return Api.rfind("MPI_Wait", 0) == 0 || Api == "MPI_Finalize";
}

/// A wait completed the rank's pending nonblocking collectives: the part of
/// their blocking forms' bound SMPI's direct exchange did not take is
/// network time (estimated: a bound, not a simulation).
void finishCollectives(Rank &R) {
  double Left = R.CollectivesReady - now();
  R.CollectivesReady = 0;
  if (Left > 0)
    Runtime::get().cpuWait(R, Category::Network, Left, true);
}

} // namespace

/// Charges one device leg on the calling rank. Staging and peer legs are
/// flows over the node's PCIe or NVLink links, so they share bandwidth with
/// copies; the others are durations from the cost model.
void chargeLeg(Rank &R, const DeviceLeg &L) {
  Runtime &RT = Runtime::get();
  const models::CommParams &P = RT.comm();
  switch (L.Kind) {
  case models::LegKind::HostStaging: {
    s4u::Host *Gpu = RT.gpuHost(R.Node, L.Gpu);
    RT.cpuFlow(R, Category::DeviceLegs, Gpu, R.Cpu, L.Bytes, P.D2H.Estimate);
    RT.cpuFlow(R, Category::DeviceLegs, R.Cpu, Gpu, L.Bytes, P.H2D.Estimate);
    return;
  }
  case models::LegKind::GpuDirectRdma:
    // The NIC's access to GPU memory: alpha_gdr as the latency of a flow on
    // the GPU's PCIe link, not as time of the rank's CPU.
    RT.latencyFlow(R, Category::DeviceLegs, RT.gpuHost(R.Node, L.Gpu), R.Cpu,
                   P.AlphaGdr, P.Estimates.AlphaGdr);
    return;
  case models::LegKind::Peer:
    if (L.PeerGpu != L.Gpu) {
      RT.cpuFlow(R, Category::DeviceLegs, RT.gpuHost(R.Node, L.Gpu),
                 RT.gpuHost(R.Node, L.PeerGpu), L.Bytes, P.Peer.Estimate);
      return;
    }
    break;
  default:
    break;
  }
  models::Cost C = models::deviceLeg(P, L.Kind, L.Bytes);
  RT.cpuWait(R, Category::DeviceLegs, C.total(), C.estimated() > 0);
}

/// The leg of the rank's side of a transfer with \p Peer; \p Sending says
/// which side the rank is on.
DeviceLeg legOf(const Rank &R, const void *Buf, double Bytes, int Peer,
                intptr_t Comm, bool Sending) {
  const models::CommParams &P = Runtime::get().comm();
  models::Endpoint Me = endpointOf(R, Buf);
  models::Endpoint Other = peerEndpoint(worldRank(Peer, Comm), Me.Space);
  DeviceLeg L;
  L.Bytes = Bytes;
  L.Gpu = Me.Gpu;
  L.PeerGpu = Other.Gpu;
  models::TransportChoice T = Sending ? models::selectTransport(P, Me, Other)
                                      : models::selectTransport(P, Other, Me);
  L.Kind = Sending ? T.SendLeg : T.RecvLeg;
  L.PayloadOnNetwork = T.PayloadOnNetwork;
  return L;
}

namespace {

/// Starts the rank's side of a point-to-point message: charges its send
/// leg, tells the network model when the SMPI message carries no payload,
/// and posts the message for its receiver.
void sendMessage(Rank &R, const OpenSite &O, const void *Buf, double Bytes,
                 int Peer, intptr_t Comm, int Tag) {
  Runtime &RT = Runtime::get();
  int W = worldRank(Peer, Comm);
  // Host-buffer messages do not involve the GPUs: no warning for programs
  // that never select one.
  if (endpointOf(R, Buf).Space == models::MemorySpace::Device)
    checkSharedGpu(R, W);
  DeviceLeg L = legOf(R, Buf, Bytes, Peer, Comm, true);
  s4u::Host *PeerCpu = W >= 0 ? RT.cpuHostOf(W) : nullptr;
  SentMessage M;
  M.Src = R.Id;
  M.Dst = W;
  M.Tag = Tag >= 0 ? Tag : AnyTag;
  M.Comm = commKey(Comm);
  M.Bytes = Bytes;
  M.From = endpointOf(R, Buf);
  M.Start = O.Begin;
  M.Site = O.Site;
  M.SrcCpu = R.Cpu;
  M.DataFrom = R.Cpu;
  M.DataTo = PeerCpu;
  if (L.Kind == models::LegKind::GpuDirectRdma &&
      M.From.Space == models::MemorySpace::Device && PeerCpu) {
    // GPUDirect RDMA: the SMPI message is the rendezvous (latency only);
    // the receiver pulls the payload from this GPU (receiveMessage).
    M.Pull = true;
    M.DataFrom = RT.gpuHost(R.Node, M.From.Gpu);
    expectPayloadFreeMessage(R.Cpu, PeerCpu, Bytes);
  } else {
    chargeLeg(R, L);
    if (!L.PayloadOnNetwork && PeerCpu) {
      // A peer or device-local copy moved the payload.
      expectPayloadFreeMessage(R.Cpu, PeerCpu, Bytes);
      M.DataFrom = RT.gpuHost(R.Node, L.Gpu);
      M.DataTo = L.Kind == models::LegKind::Peer && L.PeerGpu != L.Gpu
                     ? RT.gpuHost(R.Node, L.PeerGpu)
                     : nullptr;
    }
  }
  if (W >= 0)
    postMessage(M);
}

/// Completes receives: charges each receive leg from the sender's real
/// buffer (or, for a message nobody posted, from the assumed one), pulls
/// the payloads of GPUDirect RDMA messages (flows together, each with
/// alpha_gdr as its latency), and checks
/// each message against its physical bound.
void receiveMessages(Rank &R, const std::vector<PendingRecv> &Ps) {
  if (Ps.empty())
    return;
  Runtime &RT = Runtime::get();
  const models::CommParams &CP = RT.comm();
  std::vector<std::pair<SentMessage, const orrery_site *>> Done;
  std::vector<std::tuple<s4u::Host *, s4u::Host *, double>> Pulls;
  for (const PendingRecv &P : Ps) {
    std::optional<SentMessage> M = matchMessage(
        MatchKey{P.AnySource ? -1 : P.Peer, P.Tag, P.Comm}, R.Id, P.Bytes);
    if (!M) {
      if (P.Peer >= 0)
        chargeLeg(R, legOf(R, P.Buf, P.Bytes, P.Peer, 0, false));
      continue;
    }
    models::Endpoint Me = endpointOf(R, P.Buf);
    if (M->Pull) {
      // The SMPI message already paid the wire latency: the payload pays
      // bandwidth only, on the sender's PCIe and NIC, the fabric, and this
      // side's NIC (and PCIe for a device buffer).
      M->DataTo = Me.Space == models::MemorySpace::Device
                      ? RT.gpuHost(R.Node, Me.Gpu)
                      : R.Cpu;
      Pulls.emplace_back(M->DataFrom, M->DataTo, M->Bytes);
    } else {
      models::TransportChoice T = models::selectTransport(CP, M->From, Me);
      DeviceLeg L;
      L.Kind = T.RecvLeg;
      L.Bytes = P.Bytes;
      L.Gpu = Me.Gpu;
      L.PeerGpu = M->From.Gpu;
      chargeLeg(R, L);
    }
    Done.emplace_back(*M, P.Site);
  }
  if (!Pulls.empty()) {
    // alpha_gdr is each pull's latency: the flows run together, as an RDMA
    // engine keeps several reads in flight, and load the links they cross.
    for (const auto &[From, To, Bytes] : Pulls)
      expectFlow(From, To, Bytes, FlowStart{CP.AlphaGdr});
    RT.cpuFlows(R, Category::Network, Pulls, false);
  }
  // The SMPI message crossed the route between the ranks' hosts; the
  // payload, the route from where it started to where it went.
  for (const auto &[M, Site] : Done) {
    // Latency of the ranks' route, bytes over the payload's bottleneck.
    double Bound =
        models::Hockney{routeOf(M.SrcCpu, R.Cpu, M.Bytes).Latency,
                        routeOf(M.DataFrom, M.DataTo, M.Bytes).Bandwidth}
            .time(M.Bytes);
    checkPhysicalBound(Site, M.Bytes, now() - M.Start, Bound);
  }
}

void collective(Rank &R, models::Collective Op, const orrery_buf &Send,
                const orrery_buf &Recv, intptr_t Comm) {
  Runtime &RT = Runtime::get();
  models::CollectiveCall C;
  C.Op = Op;
  bool SendInPlace = inPlace(Send.ptr);
  C.RecvBytes = bytesOf(Recv, Comm);
  C.SendBytes = SendInPlace ? C.RecvBytes : bytesOf(Send, Comm);
  bool Device =
      (!SendInPlace && Send.ptr &&
       endpointOf(R, Send.ptr).Space == models::MemorySpace::Device) ||
      (Recv.ptr && !inPlace(Recv.ptr) &&
       endpointOf(R, Recv.ptr).Space == models::MemorySpace::Device);
  C.Space = Device ? models::MemorySpace::Device : models::MemorySpace::Host;
  C.Span = spanOf(R, Comm);
  const models::CommParams &P = RT.comm();
  models::Cost K = models::collectiveCost(P, C);
  // GPUDirect RDMA legs (alpha_gdr per device buffer) are the latency of a
  // flow on the GPU's PCIe link, like a point-to-point message's.
  double Legs = K[models::CostCategory::DeviceLeg];
  bool GdrLegs = !models::bouncesThroughHost(P, C) &&
                 models::collectiveLeg(P, C) == models::LegKind::GpuDirectRdma;
  // Everything Orrery adds to a collective is charged before SMPI's part:
  // a blocking collective ends when its slowest rank's share does.
  bool Est = K.estimated() > 0;
  RT.cpuWait(R,
             {{Category::CallOverhead, K[models::CostCategory::CallOverhead]},
              {Category::DeviceLegs, GdrLegs ? 0.0 : Legs},
              {Category::HostBounce, K[models::CostCategory::HostBounce]},
              {Category::Reduction, K[models::CostCategory::Reduction]}},
             Est);
  if (GdrLegs) {
    const void *Buf = !SendInPlace && Send.ptr ? Send.ptr : Recv.ptr;
    RT.latencyFlow(R, Category::DeviceLegs,
                   RT.gpuHost(R.Node, endpointOf(R, Buf).Gpu), R.Cpu, Legs,
                   P.Estimates.AlphaGdr);
  }
}

/// A wait on the requests \p Requests (MPI_Wait's one, MPI_Waitall's
/// array, ...) completes the deferred receives whose request is among them,
/// and those whose request was not annotated. (A test that finds them
/// incomplete completes them too: the hook does not see its flag.)
void completeDeferred(Rank &R, OpenSite &O, const orrery_buf &Requests) {
  const char *First = static_cast<const char *>(Requests.ptr);
  const char *End =
      First && Requests.count > 0
          ? First + Requests.count * static_cast<long long>(sizeof(MPI_Request))
          : nullptr;
  auto Waited = [&](const PendingRecv &P) {
    const char *Req = static_cast<const char *>(P.Request);
    return !Req || !End || (Req >= First && Req < End);
  };
  auto Keep =
      std::stable_partition(R.Deferred.begin(), R.Deferred.end(),
                            [&](const PendingRecv &P) { return !Waited(P); });
  O.After.insert(O.After.end(), Keep, R.Deferred.end());
  R.Deferred.erase(Keep, R.Deferred.end());
}

} // namespace

bool resultCollective(const char *Api, int Root, intptr_t Comm,
                      bool &Nonblocking) {
  apis::MpiResultCall C = apis::mpiResultCall(Api);
  Nonblocking = C.Nonblocking;
  if (C.Kind != apis::MpiResult::RootOnly)
    return C.Kind == apis::MpiResult::Everyone;
  int Me = -1;
  MPI_Comm_rank(reinterpret_cast<MPI_Comm>(Comm), &Me);
  return Me == Root;
}

void mpiBegin(Rank &R, OpenSite &O, orrery_buf Send, orrery_buf Recv, int Peer,
              intptr_t Comm, const MatchArgs &Match) {
  MpiOp Op = classify(O.Site->api);
  // MPI_Sendrecv's two halves each may be MPI_PROC_NULL (the edges of a
  // non-periodic halo exchange); every other call has one peer.
  if (Peer == MPI_PROC_NULL && Op.Class != MpiClass::SendRecv)
    return;
  auto SendSide = [&] {
    return legOf(R, Send.ptr, bytesOf(Send, Comm), Peer, Comm, true);
  };
  auto RecvSide = [&] {
    return legOf(R, Recv.ptr, bytesOf(Recv, Comm), Peer, Comm, false);
  };
  auto Pending = [&](int Source) {
    PendingRecv P;
    P.Buf = Recv.ptr;
    P.Bytes = bytesOf(Recv, Comm);
    P.Peer = worldRank(Source, Comm);
    P.AnySource = P.Peer < 0;
    P.Tag = Match.RecvTag >= 0 ? Match.RecvTag : AnyTag;
    P.Comm = commKey(Comm);
    P.Site = O.Site;
    return P;
  };
  switch (Op.Class) {
  case MpiClass::Send:
    sendMessage(R, O, Send.ptr, bytesOf(Send, Comm), Peer, Comm, Match.SendTag);
    break;
  case MpiClass::OneSidedFrom:
    chargeLeg(R, SendSide());
    break;
  case MpiClass::OneSidedTo:
    chargeLeg(R, RecvSide());
    break;
  case MpiClass::Recv:
    O.After.push_back(Pending(Peer));
    break;
  case MpiClass::NonblockingRecv: {
    PendingRecv P = Pending(Peer);
    P.Request = Match.Request;
    R.Deferred.push_back(P);
    break;
  }
  case MpiClass::SendRecv:
    // The source is annotated apart from the destination; a receive
    // without one (-1: its argument had side effects) matches the oldest
    // message to this rank, and is assumed to come from as far away as the
    // destination when none was posted.
    if (Peer != MPI_PROC_NULL)
      sendMessage(R, O, Send.ptr, bytesOf(Send, Comm), Peer, Comm,
                  Match.SendTag);
    if (Match.Source != MPI_PROC_NULL) {
      PendingRecv P = Pending(Match.Source);
      if (Match.Source == -1)
        P.Peer = Peer == MPI_PROC_NULL ? -1 : worldRank(Peer, Comm);
      O.After.push_back(P);
    }
    break;
  case MpiClass::Collective:
    collective(R, Op.Coll, Send, Recv, Comm);
    if (Op.Nonblocking)
      deferCollective(R, Op.Coll, Send, Recv, Comm);
    break;
  case MpiClass::Wait:
    completeDeferred(R, O, Send);
    break;
  case MpiClass::Finalize:
    O.After.insert(O.After.end(), R.Deferred.begin(), R.Deferred.end());
    R.Deferred.clear();
    break;
  case MpiClass::Other:
    break;
  }
}

void mpiEnd(Rank &R, OpenSite &O) {
  double Inside = now() - O.Begin - O.Charged;
  if (Inside > 0)
    R.Time.add(Category::Network, Inside, false);
  receiveMessages(R, O.After);
  if (R.CollectivesReady > 0 && completesRequests(O.Site->api))
    finishCollectives(R);
  // The whole call on the host track; its charged parts nest inside.
  Report &Rep = Runtime::get().report();
  if (Rep.tracing())
    Rep.span(
        {R.Id, 0, O.Begin, now() - O.Begin, O.Site->api, Category::Network});
}

} // namespace orrery::sim
