//===- Streams.h - CUDA streams as simulated activities ---------*- C++ -*-===//
//
// Each stream is a daemon actor on its GPU's host, fed by a queue: in
// SimGrid 3.32 chains of dependent activities do not progress by themselves,
// so an actor runs a stream's operations one after the other. A rank that
// launches or copies asynchronously only enqueues; it waits when CUDA says
// it must (synchronize, events, blocking copies).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_STREAMS_H
#define ORRERY_SIM_STREAMS_H

#include "Accounting.h"

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
struct Rank;
struct Stream;

/// The point at which a stream has finished its first Seq operations.
struct Completion {
  std::shared_ptr<Stream> S;
  std::uint64_t Seq = 0;
  bool done() const;
  /// Blocks the calling actor until done().
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

struct StreamOp {
  enum Kind { Sleep, Exec, Flow } K = Sleep;
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
  std::string Name; ///< in the timeline (set only when tracing)
  /// Kernels: the totals this launch adds to when it ends.
  KernelTotals *Kernel = nullptr;
  double Flops = 0, KernelBytes = 0;
  int Confidence = -1;
};

struct Stream : std::enable_shared_from_this<Stream> {
  Rank *Owner = nullptr;
  int Device = 0;
  int Id = 0; ///< timeline track
  bool NonBlocking = false;
  bool Legacy = false;
  s4u::Host *Gpu = nullptr;
  std::deque<StreamOp> Queue;
  std::uint64_t Enqueued = 0, Finished = 0;
  /// cudaStreamWaitEvent: what the next queued operation must wait for.
  std::vector<Completion> WaitsForNext;
  /// Events to stamp when operation number Seq ends.
  std::multimap<std::uint64_t, std::pair<EventPtr, unsigned>> Stamps;
  s4u::MutexPtr Lock;                ///< for waiting on Changed only
  s4u::ConditionVariablePtr Changed; ///< work queued or finished
  bool ActorIdle = false;            ///< the actor waits for work
  int Waiters = 0;                   ///< ranks waiting for a completion

  /// Creates the stream and starts its actor.
  static std::shared_ptr<Stream> create(Rank &Owner, int Device, s4u::Host *Gpu,
                                        bool NonBlocking, bool Legacy);
  /// Queues \p Op after everything queued so far; returns its completion.
  Completion enqueue(StreamOp Op);
  /// The completion of everything queued so far.
  Completion tail() { return Completion{shared_from_this(), Enqueued}; }
  bool idle() const { return Finished == Enqueued; }

private:
  void run();
};
using StreamPtr = std::shared_ptr<Stream>;

} // namespace orrery::sim

#endif // ORRERY_SIM_STREAMS_H
