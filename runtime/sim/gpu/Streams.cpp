//===- Streams.cpp - Stream operations as SimGrid activities --------------===//

#include "Streams.h"
#include "GpuKernels.h"
#include "ranks/RankClock.h"
#include "ranks/Runtime.h"

#include <simgrid/Exception.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

namespace orrery::sim {

bool Completion::done() const {
  if (!S || S->Finished >= Seq)
    return true;
  S->refresh();
  return S->Finished >= Seq;
}

/// True if the calling rank may wait on the in-flight operation's activity
/// itself for \p C: it is the operation C needs and the stream's actor does
/// not wait on it already (SimGrid keeps one timeout per side of a
/// communication, so two actors must not wait on one flow).
static bool waitsOnActivity(const Completion &C) {
  const Stream &S = *C.S;
  return S.inFlight() && C.Seq == S.Finished + 1 && !S.ActorWatching;
}

void Completion::wait() const {
  while (!done()) {
    // The operation the rank started: its own activity says when it ends.
    // (Behind it, work queued locally starts at its end: GpuKernels.h.)
    if (waitsOnActivity(*this) || S->queuedLocally()) {
      S->waitInFlight(std::numeric_limits<double>::infinity());
      continue;
    }
    // Queued work: the stream's actor runs it and says when. (Taking the
    // lock is a simcall: look again before waiting.)
    rank_clock::catchUp();
    std::unique_lock<s4u::Mutex> L(*S->Lock);
    if (S->Finished >= Seq || waitsOnActivity(*this))
      continue;
    ++S->Waiters;
    S->Changed->wait(L);
    --S->Waiters;
  }
}

bool Completion::waitUntil(double Deadline) const {
  while (!done() && now() < Deadline) {
    if (waitsOnActivity(*this) || S->queuedLocally()) {
      if (S->InFlightOp.K != StreamOp::Flow) {
        if (!S->waitInFlight(Deadline))
          break;
        continue;
      }
      // SimGrid fails a communication whose wait times out: the stream's
      // actor waits for the flow instead, and says when it ends.
      S->requestWatch();
    }
    rank_clock::catchUp();
    std::unique_lock<s4u::Mutex> L(*S->Lock);
    if (S->Finished >= Seq)
      continue;
    ++S->Waiters;
    S->Changed->wait_until(L, Deadline);
    --S->Waiters;
  }
  return done();
}

StreamPtr Stream::create(Rank &Owner, int Device, s4u::Host *Gpu,
                         bool NonBlocking, bool Legacy) {
  auto S = std::make_shared<Stream>();
  S->Owner = &Owner;
  S->Device = Device;
  S->Id = Owner.NextStreamId++;
  S->NonBlocking = NonBlocking;
  S->Legacy = Legacy;
  S->Gpu = Gpu;
  S->Kernels = &GpuKernels::of(Gpu);
  S->Lock = s4u::Mutex::create();
  S->Changed = s4u::ConditionVariable::create();
  return S;
}

void Stream::ensureActor() {
  if (HasActor)
    return;
  HasActor = true;
  Kernels->addActorStream(*this);
  std::string Name =
      "rank" + std::to_string(Owner->Id) + "-stream" + std::to_string(Id);
  // The actor holds the stream alive; it is a daemon, killed when the last
  // rank ends, so idle streams never keep a simulation running.
  StreamPtr Self = shared_from_this();
  s4u::ActorPtr A = s4u::Actor::create(Name, Gpu, [Self] { Self->run(); });
  A->daemonize();
}

// Actors run one at a time and are switched only inside simcalls, so the
// queue and counters need no lock of their own; the mutex exists for the
// condition variable, and is taken only to wait. Notifications (simcalls)
// are sent only when someone waits.
Completion Stream::enqueue(StreamOp Op) {
  for (Completion &C : WaitsForNext)
    Op.Deps.push_back(std::move(C));
  WaitsForNext.clear();
  refresh();
  ++Enqueued;
  bool DepsDone = std::all_of(Op.Deps.begin(), Op.Deps.end(),
                              [](const Completion &C) { return C.done(); });
  // A group operation waits for other members' flows: its actor runs it.
  if (Op.K != StreamOp::Group && Finished + 1 == Enqueued && DepsDone) {
    startNow(std::move(Op));
  } else if (DepsDone && queuesLocally(Op)) {
    // Behind a solo on a GPU private to the rank: the rank starts it at
    // that one's end (GpuKernels::settle).
    Local.push_back(std::move(Op));
    Kernels->addLocal(*this);
  } else {
    // The actor runs it from now on: at the rank's own time. (The GPU is no
    // longer private: work queued locally goes to the actors too.)
    Kernels->handOver();
    rank_clock::catchUp();
    Queue.push_back(std::move(Op));
    ensureActor();
    if (ActorIdle)
      Changed->notify_all();
  }
  return Completion{shared_from_this(), Enqueued};
}

bool Stream::queuesLocally(const StreamOp &Op) {
  return (Op.K == StreamOp::Exec || Op.K == StreamOp::Sleep) && !Op.AtLaunch &&
         SoloEnd >= 0 && Queue.empty() && !actorBusy() &&
         Kernels->mayQueueLocally(*this);
}

bool Stream::startLocalAt(StreamOp Op, double Start) {
  if (Op.Seconds <= MinActivitySeconds) {
    retire(Op, Start, Start);
    return false;
  }
  if (Op.K == StreamOp::Sleep)
    SoloEnd = Start + Op.Seconds;
  else
    Kernels->joinAt(*this, Op.Seconds, Start);
  InFlightOp = std::move(Op);
  InFlightStart = Start;
  return true;
}

void Stream::advanceLocal() {
  double End = SoloEnd;
  retireSolo();
  while (!Local.empty()) {
    StreamOp Op = std::move(Local.front());
    Local.pop_front();
    if (startLocalAt(std::move(Op), End))
      return;
  }
}

void Stream::handToActor() {
  if (Local.empty())
    return;
  // Creating the actor and waking it are simcalls.
  rank_clock::catchUp();
  while (!Local.empty()) {
    Queue.push_front(std::move(Local.back()));
    Local.pop_back();
  }
  ensureActor();
  if (ActorIdle)
    Changed->notify_all();
}

void Stream::startNow(StreamOp Op) {
  // A flow shares links with others: it starts at SimGrid's clock.
  if (Op.K == StreamOp::Flow)
    rank_clock::catchUp();
  double Start = now();
  switch (Op.K) {
  case StreamOp::Sleep:
    if (Op.Seconds <= MinActivitySeconds) {
      retire(Op, Start, Start);
      return;
    }
    // A fixed time that shares nothing: it ends then, whatever else runs
    // (SoloEnd without a place among the GPU's kernels).
    SoloEnd = Start + Op.Seconds;
    break;
  case StreamOp::Exec:
    if (Op.Seconds <= MinActivitySeconds) {
      retire(Op, Start, Start);
      return;
    }
    // Null while the kernel runs alone on its GPU (SoloEnd: GpuKernels.h).
    InFlight = Kernels->start(*this, Op.Seconds);
    break;
  case StreamOp::Flow:
    InFlight = s4u::Comm::sendto_async(Op.From, Op.To,
                                       static_cast<std::uint64_t>(Op.Bytes));
    break;
  case StreamOp::Group: // always queued (enqueue)
    break;
  }
  InFlightOp = std::move(Op);
  InFlightStart = Start;
}

void Stream::refresh() {
  // The owner ahead of the clock asks about its own time: whatever SimGrid
  // alone knows at that time (an activity's end, whether another actor
  // joins a GPU it does not have to itself) it learns by catching up first.
  bool AheadOwner = rank_clock::isAhead(*Owner);
  // Work queued locally on this GPU that started by now may have ended
  // this stream's solo or moved its end.
  if (Kernels->hasLocal())
    Kernels->settle(now());
  if (SoloEnd >= 0) {
    if (now() < SoloEnd)
      return;
    // The stream's actor, at SimGrid's clock, starts what follows at this
    // end: it must see it end there, not at the owner's later time.
    if (AheadOwner && actorBusy()) {
      rank_clock::catchUp();
      refresh();
      return;
    }
    if (InFlightOp.K == StreamOp::Exec && AheadOwner) {
      if (!Kernels->privateTo(*Owner)) {
        rank_clock::catchUp();
        refresh();
        return;
      }
      // Seen ending at the owner's own time: it relied on the GPU so far.
      Kernels->committed(SoloEnd);
    }
    retireSolo();
    return;
  }
  if (!InFlight)
    return;
  double End = InFlight->get_finish_time();
  if (End < 0) {
    if (AheadOwner) {
      rank_clock::catchUp();
      refresh();
    }
    return;
  }
  InFlight = nullptr;
  StreamOp Op = std::move(InFlightOp);
  retire(Op, InFlightStart, End);
}

void Stream::retireSolo() {
  double End = SoloEnd;
  Kernels->forget(*this); // (before its end is gone)
  SoloEnd = -1;
  StreamOp Op = std::move(InFlightOp);
  retire(Op, InFlightStart, End);
}

bool Stream::waitSolo(double Deadline) {
  double End = SoloEnd;
  std::uint64_t Seq = Finished + 1;
  bool Fixed = InFlightOp.K == StreamOp::Sleep;
  if (rank_clock::enabled() && rank_clock::isRunning(*Owner) && !actorBusy() &&
      (Fixed || Kernels->privateTo(*Owner))) {
    // (Where the stream's actor has work it starts it at this end, at
    // SimGrid's clock: the owner waits there too, below.)
    // A fixed time ends when it ends; a kernel on a GPU private to its
    // owner shares it only with the owner's kernels until the owner next
    // starts one (nobody else can start one there), so its end is known
    // once the work the owner queued locally that starts before it has
    // started (in time order: each may move it). This stream's own local
    // work retires it at its end.
    for (;;) {
      if (Kernels->hasLocal())
        Kernels->settle(std::min(End, Deadline));
      if (Finished >= Seq || SoloEnd == End)
        break;
      End = SoloEnd;
    }
    double Until = std::min(End, Deadline);
    rank_clock::advanceTo(*Owner, Until);
    if (!Fixed)
      Kernels->committed(Until);
    if (Deadline < End)
      return false;
    if (Finished < Seq)
      retireSolo();
    return true;
  }
  double Until = std::min(End, Deadline);
  Kernels->handOver(); // (only a GPU private to the rank has local work)
  rank_clock::catchUp();
  double Now = s4u::Engine::get_clock();
  if (Until > Now)
    s4u::this_actor::sleep_for(Until - Now);
  if (Deadline < End) {
    refresh();
    return false;
  }
  // Reached its end (whatever the rounding of the clock), unless another
  // kernel joined the GPU meanwhile and it became an execution.
  if (SoloEnd >= 0 && Finished + 1 == Seq)
    retireSolo();
  else
    refresh();
  return true;
}

bool Stream::waitInFlight(double Deadline) {
  if (SoloEnd >= 0)
    return waitSolo(Deadline);
  rank_clock::catchUp();
  s4u::ActivityPtr A = InFlight;
  bool Ended = true;
  if (std::isinf(Deadline)) {
    A->wait();
  } else {
    try {
      A->wait_until(Deadline);
    } catch (const simgrid::TimeoutException &) {
      Ended = false;
    }
  }
  refresh();
  return Ended;
}

void Stream::awaitInFlight() {
  // A solo kernel ends, or becomes an execution if another kernel joins
  // its GPU while this actor sleeps; that one is then waited for once.
  while (SoloEnd >= 0)
    waitInFlight(std::numeric_limits<double>::infinity());
  if (!InFlight)
    return;
  ActorWatching = true;
  waitInFlight(std::numeric_limits<double>::infinity());
  ActorWatching = false;
}

void Stream::requestWatch() {
  Kernels->handOver();
  rank_clock::catchUp();
  WatchRequested = true;
  ensureActor();
  if (ActorIdle)
    Changed->notify_all();
}

void Stream::retire(const StreamOp &Op, double Start, double End) {
  Runtime &RT = Runtime::get();
  double ModelTotal = 0;
  for (auto [C, S] : Op.Parts) {
    Owner->Time.add(C, S, Op.Estimate, Op.Measured);
    ModelTotal += S;
  }
  // A flow's time is SimGrid's (latency, bandwidth shared with others);
  // a group's, its category's (Parts[0]) from start to the last member's
  // flow's end.
  bool Simulated = Op.K == StreamOp::Flow || Op.K == StreamOp::Group;
  Category SimulatedAs =
      Op.K == StreamOp::Flow ? Category::Copies : Op.Parts[0].first;
  if (Simulated)
    Owner->Time.add(SimulatedAs, End - Start, Op.Estimate);
  if (ModelTotal > 0 || Simulated)
    RT.report().addGpuTime(End - Start, Op.Estimate);
  if (RT.report().tracing() && (ModelTotal > 0 || Simulated)) {
    RT.report().span({Owner->Id, Id, Start, End - Start, Op.Name,
                      Simulated ? SimulatedAs : Op.Parts[0].first});
  }
  if (KernelTotals *K = Op.Kernel) {
    ++K->Launches;
    K->Flops += Op.Flops;
    K->Bytes += Op.KernelBytes;
    K->Seconds += ModelTotal;
    if (Op.Estimate)
      K->EstimatedSeconds += ModelTotal;
    if (Op.Measured) {
      K->MeasuredSeconds += ModelTotal;
      ++K->MeasuredLaunches;
    }
    K->Confidence = std::max(K->Confidence, Op.Confidence);
  }
  ++Finished;
  auto Range = Stamps.equal_range(Finished);
  for (auto It = Range.first; It != Range.second; ++It) {
    EventState &E = *It->second.first;
    if (E.Generation == It->second.second)
      E.Time = std::max(E.Time, End);
  }
  Stamps.erase(Range.first, Range.second);
  if (Waiters > 0) {
    rank_clock::catchUp();
    Changed->notify_all();
  }
}

void Stream::run() {
  for (;;) {
    if (Queue.empty() && !(WatchRequested && InFlight)) {
      std::unique_lock<s4u::Mutex> L(*Lock);
      ActorIdle = true;
      while (Queue.empty() && !(WatchRequested && InFlight))
        Changed->wait(L);
      ActorIdle = false;
    }
    // Work the rank started comes first; this actor starts what follows
    // the moment it ends.
    awaitInFlight();
    WatchRequested = false;
    if (Queue.empty())
      continue;
    StreamOp Op = std::move(Queue.front());
    Queue.pop_front();
    for (const Completion &D : Op.Deps)
      D.wait();
    double Start = s4u::Engine::get_clock();
    switch (Op.K) {
    case StreamOp::Sleep:
      // Below SimGrid's precision (a memset of a few bytes) a sleep would
      // only add a simulation step.
      if (Op.Seconds > MinActivitySeconds)
        s4u::this_actor::sleep_for(Op.Seconds);
      break;
    case StreamOp::Exec:
      // Started as the rank starts one (GpuKernels: kernels of several
      // streams running at once share the GPU), then waited for.
      startNow(std::move(Op));
      awaitInFlight();
      continue;
    case StreamOp::Flow:
      // A flow over the platform's PCIe or NVLink links: concurrent copies
      // share their bandwidth.
      s4u::Comm::sendto(Op.From, Op.To, static_cast<std::uint64_t>(Op.Bytes));
      break;
    case StreamOp::Group:
      runGroup(Op);
      break;
    }
    retire(Op, Start, s4u::Engine::get_clock());
  }
}

void Stream::runGroup(const StreamOp &Op) {
  // Each flow starts after its delay and shares its route's links with all
  // other traffic; the operation arrives at a group once its own flows of
  // that group have ended and not before the model's time for them (where
  // the links are faster than NCCL's figure, NCCL's figure holds), or after
  // the group's delay where it has none of its flows.
  double Start = s4u::Engine::get_clock();
  std::size_t Groups = Op.Groups.size();
  std::vector<int> Left(Groups, 0);
  std::vector<double> NotBefore(Groups);
  std::vector<bool> Arrived(Groups, false);
  for (std::size_t G = 0; G < Groups; ++G)
    NotBefore[G] = Start + Op.Groups[G].Delay;
  std::vector<std::size_t> Order(Op.Flows.size());
  for (std::size_t F = 0; F < Order.size(); ++F) {
    const GroupFlow &Flow = Op.Flows[F];
    Order[F] = F;
    ++Left[Flow.Group];
    NotBefore[Flow.Group] =
        std::max(NotBefore[Flow.Group], Start + Flow.Delay + Flow.RouteLatency +
                                            Flow.Bytes / Flow.Rate);
  }
  std::sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
    return Op.Flows[A].Delay < Op.Flows[B].Delay;
  });
  std::vector<s4u::CommPtr> Comms;
  std::vector<std::size_t> GroupOf;
  std::size_t Started = 0;
  for (;;) {
    double Now = s4u::Engine::get_clock();
    for (; Started < Order.size() &&
           Start + Op.Flows[Order[Started]].Delay <= Now + MinActivitySeconds;
         ++Started) {
      const GroupFlow &F = Op.Flows[Order[Started]];
      Comms.push_back(s4u::Comm::sendto_async(
          F.From, F.To, static_cast<std::uint64_t>(F.Bytes)));
      GroupOf.push_back(F.Group);
    }
    // The next moment something is due: a flow's start, a group's arrival.
    double Next = std::numeric_limits<double>::infinity();
    if (Started < Order.size())
      Next = Start + Op.Flows[Order[Started]].Delay;
    for (std::size_t G = 0; G < Groups; ++G) {
      if (Arrived[G] || Left[G] > 0)
        continue;
      if (NotBefore[G] > Now + MinActivitySeconds) {
        Next = std::min(Next, NotBefore[G]);
        continue;
      }
      Arrived[G] = true;
      FlowGroup &Group = *Op.Groups[G].Group;
      std::unique_lock<s4u::Mutex> L(*Group.Lock);
      if (++Group.Finished == Group.Members)
        Group.Done->notify_all();
    }
    if (Comms.empty() && !std::isfinite(Next))
      break;
    if (Comms.empty()) {
      s4u::this_actor::sleep_until(Next);
      continue;
    }
    // SimGrid 3.32's wait_any_for leaves the flows running at its timeout.
    ssize_t I = std::isfinite(Next)
                    ? s4u::Comm::wait_any_for(Comms, std::max(0.0, Next - Now))
                    : s4u::Comm::wait_any(Comms);
    if (I < 0)
      continue;
    --Left[GroupOf[static_cast<std::size_t>(I)]];
    Comms.erase(Comms.begin() + I);
    GroupOf.erase(GroupOf.begin() + I);
  }
  for (const GroupPart &P : Op.Groups) {
    std::unique_lock<s4u::Mutex> L(*P.Group->Lock);
    while (P.Group->Finished < P.Group->Members)
      P.Group->Done->wait(L);
  }
}

} // namespace orrery::sim
