//===- Streams.h - CUDA streams as simulated activities ---------*- C++ -*-===//
//
// A stream's operations are SimGrid activities on its GPU's host and links.
// An operation queued on a stream with nothing left to run and nothing to
// wait for is started by the rank itself, at once, with no other actor
// involved; whoever first sees it end (a rank waiting for it, a later query,
// the stream's actor) retires it with its SimGrid finish time. Only work
// that must start when something else ends needs an observer: in SimGrid
// 3.32 chains of dependent activities do not progress by themselves, so a
// daemon actor on the GPU's host, created the first time the stream needs
// one, runs such queued operations one after the other (docs/simulate.md,
// "How streams are simulated"). On a GPU private to the rank, a kernel,
// memset or copy queued behind a running one is kept by the stream (Local)
// and started by the rank itself at that one's end (GpuKernels::settle).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_STREAMS_H
#define ORRERY_SIM_STREAMS_H

#include "report/Accounting.h"

#include <simgrid/s4u.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace orrery::sim {

namespace s4u = simgrid::s4u;
class GpuKernels;
struct CapturedGraph;
struct Rank;
struct Stream;

/// The point at which a stream has finished its first Seq operations.
struct Completion {
  std::shared_ptr<Stream> S;
  std::uint64_t Seq = 0;
  bool done() const;
  /// Blocks the calling actor until done(). Waits on the operation's own
  /// activity when the rank started it, else for the stream's actor.
  void wait() const;
  /// Blocks the calling actor until done() or simulated time \p Deadline,
  /// whichever comes first; returns done().
  bool waitUntil(double Deadline) const;
};

/// What an event records: the work it waits for (no stream operation of its
/// own) and, once all of it is done, the time it was reached.
struct EventState {
  std::vector<Completion> At;
  double Time = -1; ///< the latest end among At (the record time if idle)
  unsigned Generation = 0; ///< records so far: stamps of older ones ignored
  bool Recorded = false;
  bool Timing = true;
  /// Recorded on a stream under capture (a fork point of that graph): a
  /// stream told to wait for it joins the capture.
  CapturedGraph *CapturedIn = nullptr;
  bool done() const {
    for (const Completion &C : At)
      if (!C.done())
        return false;
    return true;
  }
};
using EventPtr = std::shared_ptr<EventState>;

/// Durations below this are accounted but not simulated (SimGrid's surf
/// precision under smpirun is 1e-9 s).
constexpr double MinActivitySeconds = 1e-9;

struct StreamOp;

/// Work whose shape is known only when the graph holding it is launched:
/// an NCCL call captured into a graph, whose members meet again at every
/// launch (runtime/sim/nccl). cudaGraphLaunch calls prepare() on a copy of
/// the captured operation before queuing it on \p S.
struct LaunchHook {
  virtual ~LaunchHook() = default;
  virtual void prepare(Rank &R, Stream &S, StreamOp &Op) const = 0;
};

/// Operations whose flows end together: the members of one NCCL
/// collective, or the two ends of a send/receive pair. Each member's
/// operation (a StreamOp::Group) starts its own flows; it ends once every
/// member's flows have ended, as an NCCL kernel ends when its peers have
/// sent it all.
struct FlowGroup {
  int Members = 0;  ///< operations taking part
  int Finished = 0; ///< those whose own flows have ended
  s4u::MutexPtr Lock = s4u::Mutex::create();
  s4u::ConditionVariablePtr Done = s4u::ConditionVariable::create();
};

/// One flow of a Group operation: Bytes from From to To over the platform's
/// route between them, sharing its links with other traffic, and lasting at
/// least Bytes / Rate (what the model gives the transfer when nothing else
/// shares its links) after the route's latency.
struct GroupFlow {
  s4u::Host *From = nullptr, *To = nullptr;
  double Bytes = 0, Rate = 0;
  double Delay = 0;        ///< seconds after the operation starts
  double RouteLatency = 0; ///< of the route between From and To
  std::size_t Group = 0;   ///< the index in StreamOp::Groups it belongs to
};

/// A group a Group operation takes part in; without flows of its own there,
/// the operation arrives Delay seconds after it starts.
struct GroupPart {
  std::shared_ptr<FlowGroup> Group;
  double Delay = 0;
};

struct StreamOp {
  enum Kind { Sleep, Exec, Flow, Group } K = Sleep;
  double Seconds = 0;           ///< Sleep, Exec: model time
  s4u::Host *From = nullptr;    ///< Flow
  s4u::Host *To = nullptr;      ///< Flow
  double Bytes = 0;             ///< Flow
  std::vector<Completion> Deps; ///< to wait for before starting
  /// Accounting of model time by category (kernels split compute/memory).
  /// (A fixed pair: no allocation per operation; unused parts are 0 s.)
  std::array<std::pair<Category, double>, 2> Parts{};
  bool Estimate = false;
  bool Measured = false; ///< Seconds was measured on a real GPU (twin)
  std::string Name;      ///< in the timeline (set only when tracing)
  /// Kernels: the totals this launch adds to when it ends.
  KernelTotals *Kernel = nullptr;
  double Flops = 0, KernelBytes = 0;
  int Confidence = -1;
  /// A graph node that must be prepared at each launch (null for all other
  /// operations).
  std::shared_ptr<const LaunchHook> AtLaunch;
  /// Group: the flows this operation starts, and the groups it ends with.
  std::vector<GroupFlow> Flows;
  std::vector<GroupPart> Groups;
};

struct Stream : std::enable_shared_from_this<Stream> {
  Rank *Owner = nullptr;
  int Device = 0;
  int Id = 0; ///< timeline track
  bool NonBlocking = false;
  bool Legacy = false;
  bool Destroyed = false; ///< cudaStreamDestroy (queued work still runs)
  /// cudaStreamBeginCapture: work submitted to the stream becomes nodes of
  /// this graph instead of running (CudaGraphs.cpp).
  CapturedGraph *Capture = nullptr;
  s4u::Host *Gpu = nullptr;
  std::deque<StreamOp> Queue;
  std::uint64_t Enqueued = 0, Finished = 0;
  /// cudaStreamWaitEvent: what the next queued operation must wait for.
  std::vector<Completion> WaitsForNext;
  /// Events to stamp when operation number Seq ends.
  std::multimap<std::uint64_t, std::pair<EventPtr, unsigned>> Stamps;
  /// Operation number Finished + 1 when the rank started it itself: its
  /// activity (null when none runs), model and start time.
  s4u::ActivityPtr InFlight;
  StreamOp InFlightOp;
  double InFlightStart = 0;
  /// The in-flight operation has no activity and ends then: a kernel
  /// running alone on its GPU (GpuKernels.h), or a fixed time that shares
  /// nothing (a Sleep: memsets, copies within a GPU); -1 when none.
  double SoloEnd = -1;
  /// A solo kernel's model work left, in seconds at the GPU's full speed,
  /// as of its GpuKernels' last update (0 once it ended).
  double SoloWork = 0;
  /// Operations the owner queued behind the in-flight solo on a GPU private
  /// to it: each starts at the end of the one before, by the owner itself
  /// (GpuKernels::settle), with no actor.
  std::deque<StreamOp> Local;
  GpuKernels *Kernels = nullptr;     ///< of the stream's GPU
  s4u::MutexPtr Lock;                ///< for waiting on Changed only
  s4u::ConditionVariablePtr Changed; ///< work queued or finished
  bool HasActor = false;             ///< the stream's actor was created
  bool ActorIdle = false;            ///< the actor waits for work
  bool ActorWatching = false;        ///< the actor waits on InFlight
  bool WatchRequested = false;       ///< a rank wants the actor to do so
  int Waiters = 0;                   ///< actors waiting on Changed

  /// Creates the stream (its actor only once work has to wait, enqueue()).
  static std::shared_ptr<Stream> create(Rank &Owner, int Device, s4u::Host *Gpu,
                                        bool NonBlocking, bool Legacy);
  /// Queues \p Op after everything queued so far; returns its completion.
  Completion enqueue(StreamOp Op);
  /// The completion of everything queued so far.
  Completion tail() { return Completion{shared_from_this(), Enqueued}; }
  /// Whether everything queued is retired (an in-flight operation that has
  /// ended but nobody has seen end yet still counts as queued).
  bool idle() const { return Finished == Enqueued; }
  /// Whether an operation the rank (or the stream's actor) started runs.
  bool inFlight() const { return InFlight || SoloEnd >= 0; }
  /// Whether the stream's actor has work (and may start a kernel any time).
  bool actorBusy() const {
    return HasActor && (!ActorIdle || !Queue.empty() || WatchRequested);
  }

  /// Retires the in-flight operation if its activity has ended.
  void refresh();

  /// Waits from the calling actor for the operation in flight (the end of a
  /// solo kernel, or its activity) or until \p Deadline, whichever comes
  /// first, and retires it if it ended; false if the deadline came first.
  /// (Not for a flow with a finite deadline: SimGrid fails a communication
  /// whose wait times out.)
  bool waitInFlight(double Deadline);
  /// Has the stream's actor wait for the in-flight operation and notify
  /// Changed when it ends (for a rank that waits with a deadline).
  void requestWatch();

  /// Whether operations are queued locally (Local).
  bool queuedLocally() const { return !Local.empty(); }
  /// Retires the in-flight solo at its end and starts the next locally
  /// queued operation then (GpuKernels::settle).
  void advanceLocal();
  /// Gives the locally queued operations to the stream's actor.
  void handToActor();

private:
  /// Starts \p Op now from the calling actor: an activity left in flight,
  /// or, for work below SimGrid's precision, retired at once.
  void startNow(StreamOp Op);
  /// Whether \p Op may be queued locally (Local) rather than for the actor.
  bool queuesLocally(const StreamOp &Op);
  /// Starts locally queued \p Op at \p Start; false if it is retired at
  /// once (below SimGrid's precision).
  bool startLocalAt(StreamOp Op, double Start);
  /// Accounts operation number Finished + 1, which ran from \p Start to
  /// \p End, stamps the events waiting for it and wakes waiters.
  void retire(const StreamOp &Op, double Start, double End);
  /// Waits for the in-flight operation's activity and retires it.
  void awaitInFlight();
  /// waitInFlight() for a solo kernel: sleeps to its end or the deadline.
  bool waitSolo(double Deadline);
  void retireSolo();
  void ensureActor();
  void run();
  /// Runs a Group operation on the stream's actor: its flows, each after
  /// its delay, then waits for every member of its groups.
  void runGroup(const StreamOp &Op);
};
using StreamPtr = std::shared_ptr<Stream>;

} // namespace orrery::sim

#endif // ORRERY_SIM_STREAMS_H
