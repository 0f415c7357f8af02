//===- Operations.cpp - Skeleton NCCL: collectives, send/receive, groups --===//
//
// Each collective, and each ncclSend/ncclRecv pair, is an operation on the
// caller's CUDA stream: it starts once every member's stream has finished
// what was queued before it (the members' stream frontiers at their calls),
// and lasts what NCCL's tuning model says for the communicator's size, node
// count and links (orrery/models/NcclCost.h: the fastest algorithm and
// protocol that NCCL_ALGO and NCCL_PROTO leave, as NCCL's tuner picks).
// Calls between ncclGroupStart and ncclGroupEnd are issued together at the
// end: one operation per stream, as long as its longest part. Calls made
// while their stream captures a CUDA graph become graph nodes whose members
// meet at each launch of the graph.
//
// The host call returns once every member has made the matching call (the
// simulation needs all members' frontiers to place the operation); real
// NCCL returns at once. Work the host does between an NCCL call and a
// later synchronisation is therefore charged after the slowest member's
// call, not in parallel with it.
//
//===----------------------------------------------------------------------===//

#include "NcclInternal.h"

#include "cuda/CudaCommon.h"
#include "orrery/models/NcclCost.h"
#include "ranks/RankClock.h"
#include "ranks/Runtime.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <tuple>

using namespace orrery::sim;
using namespace orrery::sim::nccl;
namespace models = orrery::models;

namespace {

/// One collective, or one send-receive pair, all of whose members must
/// arrive before any of them can place it.
struct Rendezvous {
  int Expected = 0, Arrived = 0;
  std::vector<Completion> Ready; ///< every member's frontier at its call
  /// Each member's GPU and node, by its rank in the communicator.
  std::map<int, std::pair<s4u::Host *, int>> Gpus;
  /// The members by node, in rank order, and the nodes in the order of
  /// their first member: laid out once, by the first member to leave.
  std::map<int, std::vector<int>> OnNode;
  std::vector<int> NodeOrder;
  std::map<int, size_t> NodeAt; ///< a node's place in NodeOrder
  double Bytes = 0;
  std::optional<models::NcclEstimate> Estimate; ///< set by the first to leave
  s4u::MutexPtr Lock = s4u::Mutex::create();
  s4u::ConditionVariablePtr Done = s4u::ConditionVariable::create();
  /// The members' operations end together (their flows: meet()).
  std::shared_ptr<FlowGroup> Flows = std::make_shared<FlowGroup>();
};

using RendezvousKey =
    std::tuple<const CommGroup *, int, int, unsigned long long>;
std::map<RendezvousKey, std::shared_ptr<Rendezvous>> &rendezvous() {
  static std::map<RendezvousKey, std::shared_ptr<Rendezvous>> M;
  return M;
}

enum class Kind { Collective, Send, Recv };

/// A call made, waiting to be issued (at once, or at ncclGroupEnd).
struct Call {
  Kind K = Kind::Collective;
  models::NcclCollective Coll = models::NcclCollective::AllReduce;
  const char *Name = "";
  double Bytes = 0;
  ncclComm *Comm = nullptr;
  int Peer = -1;
  Stream *S = nullptr;
};

struct RankCalls {
  int GroupDepth = 0;
  std::vector<Call> Pending;
};
std::map<const Rank *, RankCalls> &rankCalls() {
  static std::map<const Rank *, RankCalls> M;
  return M;
}

size_t typeSize(ncclDataType_t T) {
  switch (T) {
  case ncclInt8:
  case ncclUint8:
  case ncclFloat8e4m3:
  case ncclFloat8e5m2:
    return 1;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  case ncclInt64:
  case ncclUint64:
  case ncclFloat64:
    return 8;
  default:
    return 0;
  }
}

/// What NCCL_ALGO and NCCL_PROTO leave enabled, read once; a value naming
/// nothing NCCL knows is a warning and ignored (NCCL refuses it).
const models::NcclSelection &selection() {
  static const models::NcclSelection Sel = [] {
    models::NcclSelection S;
    for (const char *Name : {"NCCL_ALGO", "NCCL_PROTO"}) {
      const char *Env = std::getenv(Name);
      if (!Env || !*Env)
        continue;
      std::string Error;
      bool Ok = std::string(Name) == "NCCL_ALGO" ? S.setAlgorithms(Env, Error)
                                                 : S.setProtocols(Env, Error);
      if (!Ok)
        Runtime::get().report().warn(
            std::string(Name) + "='" + Env + "': " + Error +
            "; ignored (Orrery models the algorithms Tree, Ring and NVLS and "
            "the protocols LL, LL128 and Simple)");
    }
    return S;
  }();
  return Sel;
}

/// Arrives at \p Call's rendezvous; returns it.
std::shared_ptr<Rendezvous> arrive(Rank &R, const Call &C) {
  ncclComm &Comm = *C.Comm;
  RendezvousKey Key;
  int Expected = 2;
  switch (C.K) {
  case Kind::Collective:
    Key = {Comm.Group.get(), -1, -1, ++Comm.Collectives};
    Expected = Comm.Group->Size;
    break;
  case Kind::Send:
    Key = {Comm.Group.get(), Comm.Rank, C.Peer, ++Comm.Sent[C.Peer]};
    break;
  case Kind::Recv:
    Key = {Comm.Group.get(), C.Peer, Comm.Rank, ++Comm.Received[C.Peer]};
    break;
  }
  auto It = rendezvous().find(Key);
  if (It == rendezvous().end()) {
    // Creating its mutex and condition variable are simcalls: another
    // member may arrive meanwhile. Look again before inserting.
    auto New = std::make_shared<Rendezvous>();
    New->Expected = Expected;
    New->Flows->Members = Expected;
    It = rendezvous().try_emplace(Key, std::move(New)).first;
  }
  std::shared_ptr<Rendezvous> Rv = It->second;
  for (const Completion &F : frontier(R, *C.S))
    Rv->Ready.push_back(F);
  Rv->Gpus[Comm.Rank] = {C.S->Gpu, R.Node};
  Rv->Bytes = std::max(Rv->Bytes, C.Bytes);
  if (++Rv->Arrived == Rv->Expected) {
    rendezvous().erase(Key);
    Rv->Done->notify_all();
  }
  return Rv;
}

void waitAll(const std::shared_ptr<Rendezvous> &Rv) {
  if (Rv->Arrived >= Rv->Expected)
    return;
  // A rank ahead of SimGrid's clock (RankClock.h) catches up before it
  // blocks: the members' arrivals are then in simulated time order.
  rank_clock::catchUp();
  std::unique_lock<s4u::Mutex> L(*Rv->Lock);
  while (Rv->Arrived < Rv->Expected)
    Rv->Done->wait(L);
}

/// NCCL's estimate for \p Bytes of a call of kind \p K (collective
/// \p Coll) among \p Members ranks on \p Nodes nodes.
models::NcclEstimate ncclEstimate(Kind K, models::NcclCollective Coll,
                                  double Bytes, int Members, int Nodes) {
  models::NcclSystem Sys =
      models::NcclSystem::of(Runtime::get().machine(), Members, Nodes);
  return K == Kind::Collective
             ? models::ncclCollectiveTime(Coll, Bytes, Sys, selection())
             : models::ncclPointToPointTime(Bytes, Nodes <= 1, Sys,
                                            selection());
}

/// NCCL's estimate of \p C, and the members laid out by node: done by the
/// first member to leave, once all have arrived.
const models::NcclEstimate &estimate(const Call &C, Rendezvous &Rv) {
  if (Rv.Estimate)
    return *Rv.Estimate;
  for (const auto &[Member, Gpu] : Rv.Gpus) {
    if (Rv.NodeAt.emplace(Gpu.second, Rv.NodeOrder.size()).second)
      Rv.NodeOrder.push_back(Gpu.second);
    Rv.OnNode[Gpu.second].push_back(Member);
  }
  Rv.Estimate = ncclEstimate(C.K, C.Coll, Rv.Bytes, C.Comm->Group->Size,
                             static_cast<int>(Rv.NodeOrder.size()));
  return *Rv.Estimate;
}

/// Adds a flow of \p Bytes at \p Rate from \p From to \p To to \p Out
/// (none between a GPU and itself: two ranks on one GPU copy in place).
void addFlow(std::vector<GroupFlow> &Out, s4u::Host *From, s4u::Host *To,
             double Bytes, double Rate) {
  if (From && To && From != To && Bytes > 0 && Rate > 0)
    Out.push_back({From, To, Bytes, Rate});
}

/// The flows member \p Me of a collective starts: its link bytes as NCCL's
/// rings lay them over the node (docs/nccl.md, "Flows"). Inside a node
/// its rings use every link of the GPU: the bytes go in equal parts to each
/// other member of the node (a switch port or each pair link). Across
/// nodes each ring leaves a node once: 1/g of every member's bytes (g
/// members on its node) go to the member at the same place on the next
/// node, through the member's own NIC, the rest to the node's members.
std::vector<GroupFlow> collectiveFlows(const Rendezvous &Rv, int Me,
                                       const models::NcclEstimate &E) {
  std::vector<GroupFlow> Out;
  double Rate = E.linkRate();
  if (Rate <= 0)
    return Out;
  const std::vector<int> &NodeOrder = Rv.NodeOrder;
  auto [MyGpu, MyNode] = Rv.Gpus.at(Me);
  const std::vector<int> &Mine = Rv.OnNode.at(MyNode);
  double G = static_cast<double>(Mine.size());
  double Cross = NodeOrder.size() > 1 ? 1 / G : 0;
  if (Cross > 0) {
    size_t At = Rv.NodeAt.at(MyNode);
    const std::vector<int> &Next =
        Rv.OnNode.at(NodeOrder[(At + 1) % NodeOrder.size()]);
    size_t Place = std::find(Mine.begin(), Mine.end(), Me) - Mine.begin();
    addFlow(Out, MyGpu, Rv.Gpus.at(Next[Place % Next.size()]).first,
            E.LinkBytes * Cross, Rate * Cross);
  }
  double Share = (1 - Cross) / (G - 1);
  for (int Peer : Mine)
    if (Peer != Me && G > 1)
      addFlow(Out, MyGpu, Rv.Gpus.at(Peer).first, E.LinkBytes * Share,
              Rate * Share);
  return Out;
}

/// The latency the route of \p F adds to it (taken out of NCCL's own).
double routeLatency(const GroupFlow &F) {
  std::vector<s4u::Link *> Links;
  double Latency = 0;
  F.From->route_to(F.To, Links, &Latency);
  return Latency;
}

/// Makes \p Op take part in \p Group with \p Flows: each starts after
/// NCCL's latency of \p E less what its route adds (the route's latency is
/// simulated with the flow).
void joinGroup(StreamOp &Op, const models::NcclEstimate &E,
               std::vector<GroupFlow> Flows,
               const std::shared_ptr<FlowGroup> &Group) {
  Op.K = StreamOp::Group;
  Op.Parts[0] = {Category::Nccl, 0};
  Op.Estimate = true;
  for (GroupFlow &F : Flows) {
    F.Group = Op.Groups.size();
    F.RouteLatency = routeLatency(F);
    F.Delay = std::max(0.0, E.Latency - F.RouteLatency);
    Op.Flows.push_back(F);
  }
  Op.Groups.push_back({Group, E.Latency});
}

/// Submits \p Op on \p S after the host's launch of it (none when the
/// stream is capturing: the graph's launch pays it).
void launch(Rank &R, Stream &S, StreamOp Op) {
  Runtime &RT = Runtime::get();
  if (!S.Capture)
    RT.cpuWait(R, Category::Launch, RT.gpu().Launch, true);
  submit(R, S, std::move(Op));
}

/// Meets the other members of every call in \p Calls (all rendezvous
/// joined first, so that members of one group call never wait for each
/// other) and fills each call's part of \p Ops: the longest part of the
/// calls on a stream, after every member's frontier.
void meet(Rank &R, const std::vector<Call> &Calls,
          std::map<Stream *, StreamOp> &Ops, std::vector<Stream *> &Order) {
  std::vector<std::shared_ptr<Rendezvous>> Rvs;
  for (const Call &C : Calls)
    Rvs.push_back(arrive(R, C));
  for (const auto &Rv : Rvs)
    waitAll(Rv);
  for (size_t I = 0; I < Calls.size(); ++I) {
    const Call &C = Calls[I];
    Rendezvous &Rv = *Rvs[I];
    const models::NcclEstimate &E = estimate(C, Rv);
    auto [It, New] = Ops.try_emplace(C.S);
    StreamOp &Op = It->second;
    if (New) {
      Order.push_back(C.S);
      Op.Name = Calls.size() == 1 ? C.Name : "NCCL group";
    }
    // A collective's member sends its share of the ring; a send its
    // message; a receive ends when the send does.
    std::vector<GroupFlow> Flows;
    if (C.K == Kind::Collective)
      Flows = collectiveFlows(Rv, C.Comm->Rank, E);
    else if (C.K == Kind::Send)
      addFlow(Flows, Rv.Gpus.at(C.Comm->Rank).first, Rv.Gpus.at(C.Peer).first,
              E.LinkBytes, E.linkRate());
    joinGroup(Op, E, std::move(Flows), Rv.Flows);
    for (const Completion &D : Rvs[I]->Ready)
      if (D.S.get() != Calls[I].S)
        Op.Deps.push_back(D);
  }
}

/// NCCL calls captured into a CUDA graph: the members meet at each launch
/// of the graph, on the stream it is launched on.
struct CapturedCalls final : LaunchHook {
  std::vector<Call> Calls;
  void prepare(Rank &R, Stream &S, StreamOp &Op) const override {
    std::vector<Call> Now = Calls;
    for (Call &C : Now)
      C.S = &S;
    std::map<Stream *, StreamOp> Ops;
    std::vector<Stream *> Order;
    meet(R, Now, Ops, Order);
    StreamOp &Met = Ops[&S];
    Op.K = Met.K;
    Op.Seconds = Met.Seconds;
    Op.Parts = Met.Parts;
    Op.Estimate = true;
    Op.Flows = std::move(Met.Flows);
    Op.Groups = std::move(Met.Groups);
    Op.Deps.insert(Op.Deps.end(), Met.Deps.begin(), Met.Deps.end());
  }
};

/// Issues \p Calls of the calling rank together: one stream operation per
/// stream; under graph capture, one graph node per stream whose members
/// meet when the graph is launched.
void issue(Rank &R, std::vector<Call> Calls) {
  bool Capturing = std::any_of(Calls.begin(), Calls.end(),
                               [](const Call &C) { return C.S->Capture; });
  if (Capturing) {
    std::map<Stream *, std::shared_ptr<CapturedCalls>> Nodes;
    std::vector<Stream *> Order;
    for (const Call &C : Calls) {
      auto &N = Nodes[C.S];
      if (!N) {
        N = std::make_shared<CapturedCalls>();
        Order.push_back(C.S);
      }
      N->Calls.push_back(C);
    }
    for (Stream *S : Order) {
      StreamOp Op;
      Op.K = StreamOp::Sleep;
      Op.Name =
          Nodes[S]->Calls.size() == 1 ? Nodes[S]->Calls[0].Name : "NCCL group";
      Op.AtLaunch = Nodes[S];
      submit(R, *S, std::move(Op)); // captured: a node of the graph
    }
    return;
  }
  std::map<Stream *, StreamOp> Ops;
  std::vector<Stream *> Order;
  meet(R, Calls, Ops, Order);
  // One kernel launch per stream on the host.
  for (Stream *S : Order)
    launch(R, *S, std::move(Ops[S]));
}

/// Issues \p C now, or keeps it for ncclGroupEnd.
ncclResult_t enqueue(Rank &R, Call C) {
  RankCalls &RC = rankCalls()[&R];
  if (RC.GroupDepth > 0) {
    RC.Pending.push_back(C);
    return ncclSuccess;
  }
  issue(R, {C});
  return ncclSuccess;
}

/// Checks what every operation needs; fills \p C's stream.
ncclResult_t prepare(Rank &R, ncclComm_t Comm, cudaStream_t Handle,
                     ncclDataType_t Type, Call &C) {
  if (!Comm || !Comm->Group)
    return failed(nullptr, ncclInvalidArgument,
                  std::string(C.Name) + ": the communicator is null");
  if (typeSize(Type) == 0)
    return failed(Comm, ncclInvalidArgument,
                  std::string(C.Name) + ": datatype " +
                      std::to_string(int(Type)) + " is not an NCCL type");
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return failed(Comm, ncclInvalidArgument,
                  std::string(C.Name) + ": the stream is not a CUDA stream");
  C.Comm = Comm;
  C.S = S;
  return ncclSuccess;
}

ncclResult_t pointToPoint(const char *Name, Kind K, size_t Count,
                          ncclDataType_t Type, int Peer, ncclComm_t Comm,
                          cudaStream_t Stream) {
  Rank &R = callingRank();
  Call C;
  C.Name = Name;
  C.K = K;
  C.Peer = Peer;
  if (ncclResult_t E = prepare(R, Comm, Stream, Type, C))
    return E;
  if (Peer < 0 || Peer >= Comm->Group->Size)
    return failed(Comm, ncclInvalidArgument,
                  std::string(Name) + ": peer " + std::to_string(Peer) +
                      " is not a rank of the communicator (" +
                      std::to_string(Comm->Group->Size) + " ranks)");
  C.Bytes = double(Count) * double(typeSize(Type));
  return enqueue(R, C);
}

/// The communicator's size (1 for a null one, which prepare() refuses).
double members(ncclComm_t Comm) {
  return Comm && Comm->Group ? Comm->Group->Size : 1;
}

} // namespace

namespace orrery::sim::nccl {

ncclResult_t collective(const char *Name, models::NcclCollective K,
                        double Count, double Factor, ncclDataType_t Type,
                        ncclComm_t Comm, cudaStream_t Stream, int Root) {
  Rank &R = callingRank();
  Call C;
  C.Name = Name;
  C.Coll = K;
  if (ncclResult_t E = prepare(R, Comm, Stream, Type, C))
    return E;
  if (Root >= 0 && Root >= Comm->Group->Size)
    return failed(Comm, ncclInvalidArgument,
                  std::string(Name) + ": root " + std::to_string(Root) +
                      " is not a rank of the communicator (" +
                      std::to_string(Comm->Group->Size) + " ranks)");
  C.Bytes = Count * Factor * double(typeSize(Type));
  return enqueue(R, C);
}

ncclResult_t oneSided(ncclComm &Comm, const char *Name, double Bytes, int Peer,
                      cudaStream_t Handle) {
  Rank &R = callingRank();
  Stream *S = resolveStream(R, Handle);
  if (!S)
    return failed(&Comm, ncclInvalidArgument,
                  std::string(Name) + ": the stream is not a CUDA stream");
  if (!Comm.Group || Peer < 0 || Peer >= Comm.Group->Size)
    return failed(&Comm, ncclInvalidArgument,
                  std::string(Name) + ": PE " + std::to_string(Peer) +
                      " is not a PE of the job");
  const Rank *Target = Comm.Group->Members[Peer];
  bool SameNode = !Target || Target->Node == R.Node;
  models::NcclEstimate E =
      ncclEstimate(Kind::Send, models::NcclCollective::AllReduce, Bytes,
                   Comm.Group->Size, SameNode ? 1 : 2);
  // A flow between the two GPUs that ends by itself (a group of one).
  std::vector<GroupFlow> Flows;
  if (Target)
    addFlow(Flows, S->Gpu,
            Runtime::get().gpuHost(Target->Node, Comm.Group->Devices[Peer]),
            E.LinkBytes, E.linkRate());
  auto Alone = std::make_shared<FlowGroup>();
  Alone->Members = 1;
  StreamOp Op;
  Op.Name = Name;
  joinGroup(Op, E, std::move(Flows), Alone);
  launch(R, *S, std::move(Op));
  return ncclSuccess;
}

void synchronizeMembers(ncclComm &Comm, const char *Name) {
  Rank &R = callingRank();
  Call C;
  C.Name = Name;
  C.Comm = &Comm;
  C.S = resolveStream(R, nullptr);
  waitAll(arrive(R, C));
}

} // namespace orrery::sim::nccl

extern "C" {

ncclResult_t ncclAllReduce(const void *, void *, size_t Count,
                           ncclDataType_t Type, ncclRedOp_t, ncclComm_t Comm,
                           cudaStream_t Stream) {
  return collective("ncclAllReduce", models::NcclCollective::AllReduce,
                    double(Count), 1, Type, Comm, Stream, -1);
}

ncclResult_t ncclBroadcast(const void *, void *, size_t Count,
                           ncclDataType_t Type, int Root, ncclComm_t Comm,
                           cudaStream_t Stream) {
  return collective("ncclBroadcast", models::NcclCollective::Broadcast,
                    double(Count), 1, Type, Comm, Stream, Root);
}

ncclResult_t ncclBcast(void *Buff, size_t Count, ncclDataType_t Type, int Root,
                       ncclComm_t Comm, cudaStream_t Stream) {
  return ncclBroadcast(Buff, Buff, Count, Type, Root, Comm, Stream);
}

ncclResult_t ncclReduce(const void *, void *, size_t Count, ncclDataType_t Type,
                        ncclRedOp_t, int Root, ncclComm_t Comm,
                        cudaStream_t Stream) {
  return collective("ncclReduce", models::NcclCollective::Reduce, double(Count),
                    1, Type, Comm, Stream, Root);
}

ncclResult_t ncclAllGather(const void *, void *, size_t SendCount,
                           ncclDataType_t Type, ncclComm_t Comm,
                           cudaStream_t Stream) {
  // nccl-tests' size: the receive buffer, every member's part.
  return collective("ncclAllGather", models::NcclCollective::AllGather,
                    double(SendCount), members(Comm), Type, Comm, Stream, -1);
}

ncclResult_t ncclReduceScatter(const void *, void *, size_t RecvCount,
                               ncclDataType_t Type, ncclRedOp_t,
                               ncclComm_t Comm, cudaStream_t Stream) {
  // nccl-tests' size: the send buffer, every member's part.
  return collective("ncclReduceScatter", models::NcclCollective::ReduceScatter,
                    double(RecvCount), members(Comm), Type, Comm, Stream, -1);
}

ncclResult_t ncclSend(const void *, size_t Count, ncclDataType_t Type, int Peer,
                      ncclComm_t Comm, cudaStream_t Stream) {
  return pointToPoint("ncclSend", Kind::Send, Count, Type, Peer, Comm, Stream);
}

ncclResult_t ncclRecv(void *, size_t Count, ncclDataType_t Type, int Peer,
                      ncclComm_t Comm, cudaStream_t Stream) {
  return pointToPoint("ncclRecv", Kind::Recv, Count, Type, Peer, Comm, Stream);
}

ncclResult_t ncclGroupStart(void) {
  ++rankCalls()[&callingRank()].GroupDepth;
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
  Rank &R = callingRank();
  RankCalls &RC = rankCalls()[&R];
  if (RC.GroupDepth == 0)
    return failed(nullptr, ncclInvalidUsage,
                  "ncclGroupEnd without ncclGroupStart");
  if (--RC.GroupDepth > 0)
    return ncclSuccess;
  std::vector<Call> Calls;
  Calls.swap(RC.Pending);
  if (!Calls.empty())
    issue(R, std::move(Calls));
  return ncclSuccess;
}

} // extern "C"
