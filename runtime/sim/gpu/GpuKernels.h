//===- GpuKernels.h - Kernels running on one simulated GPU ------*- C++ -*-===//
//
// A kernel is an execution on its GPU's host, which SimGrid shares between
// the kernels running at once (one core: each of n gets 1/n of the speed).
// A kernel that starts on an idle GPU needs no execution while it stays
// alone: it ends Seconds later, which is known at its start. It becomes an
// execution (of the work it has left) only if another kernel starts on the
// GPU before it ends; from then on the GPU's kernels are executions until
// it is idle again. SimGrid's fluid sharing makes the two the same: the
// kernel ran alone at full speed until the second came. What this saves is
// an activity per kernel (its simcalls, its share variable, its end), the
// common case of one stream's kernels one after the other.
//
// On a GPU private to one rank (below) kernels never become executions: only
// that rank starts kernels there, so when one joins running ones the rank
// shares the GPU among them itself (processor sharing: each of n running
// kernels progresses at 1/n, SimGrid's fluid model), each keeping its end
// (Stream::SoloEnd) until the next one joins or ends. A kernel queued behind
// running work on a stream of such a GPU is started by the rank at its
// predecessor's end (settle), not by the stream's actor.
//
// A GPU only one rank uses is private to it: that rank, ahead of SimGrid's
// clock (RankClock.h), may start its kernels there at its own time and wait
// for their ends without a simulation step, as no other actor can start a
// kernel there meanwhile. A GPU is private to a rank once every rank of its
// node has chosen its GPUs (a context on one: cudaSetDevice or first use)
// and this one alone chose it, and while none of the rank's streams there
// has work queued for its actor. A rank that later chooses a GPU another
// rank already uses makes it shared for good; if it starts a kernel there
// before the other's own time (which it may have committed that GPU to),
// that kernel's timing is approximate, and the report says so.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_GPUKERNELS_H
#define ORRERY_SIM_GPUKERNELS_H

#include "orrery/models/ProcessorSharing.h"

#include <simgrid/s4u.hpp>

#include <vector>

namespace orrery::sim {

namespace s4u = simgrid::s4u;
struct Rank;
struct Stream;

class GpuKernels {
public:
  /// The kernels of the GPU whose host is \p Gpu.
  static GpuKernels &of(s4u::Host *Gpu);

  /// Starts a kernel of \p Seconds (model time at the GPU's full speed) for
  /// \p S, now, from the calling actor. Returns its execution, or null when
  /// it runs alone: then S.SoloEnd is its end.
  s4u::ExecPtr start(Stream &S, double Seconds);

  /// \p S retired its solo kernel (it ended, or it was converted).
  void forget(const Stream &S);
  /// \p S's kernel of \p Seconds starts at \p At as a solo, sharing the
  /// GPU with the solos running then (a kernel the owner queued locally
  /// starting at its predecessor's end, settle; or start's).
  void joinAt(Stream &S, double Seconds, double At);

  /// Whether \p S's owner, the calling actor, may queue work on \p S
  /// behind its running solo and start it itself at that one's end: the GPU
  /// is private to the owner and runs no executions.
  bool mayQueueLocally(const Stream &S);
  /// \p S holds locally queued work (Stream::Local).
  void addLocal(Stream &S);
  /// Whether a stream of this GPU holds locally queued work.
  bool hasLocal() const { return !LocalStreams.empty(); }
  /// Starts, in time order, every locally queued operation due by \p T: at
  /// the end of the solo before it on its stream.
  void settle(double T);
  /// The GPU stops being private (a stream's actor gets work, another rank
  /// chooses it): after settling to now, every stream's locally queued work
  /// goes to its actor.
  void handOver();

  /// \p R means to use this GPU (it has a context on it).
  void claim(const Rank &R);
  /// Whether \p R may run ahead of the clock with this GPU's kernels (it
  /// alone may start kernels here until it next catches up).
  bool privateTo(const Rank &R) const;
  /// The owner, ahead of the clock, relied on this GPU's state up to \p T
  /// (a kernel it started then, the end of one it saw).
  void committed(double T) {
    if (T > CommittedUntil)
      CommittedUntil = T;
  }
  /// A stream of this GPU gained an actor.
  void addActorStream(const Stream &S) { ActorStreams.push_back(&S); }

  /// Kernels started before a time a rank ahead of the clock had committed
  /// their GPU to (approximate timing), over all GPUs.
  static unsigned long conflicts();

private:
  explicit GpuKernels(s4u::Host *Gpu);

  /// Turns every solo kernel still running into an execution of the work
  /// it has left (one simcall; the maestro owns them, as no rank's exit
  /// must cancel another rank's kernel).
  void shareSolos(double Now);
  /// Executions that ended no longer take a share: drops them. (A solo
  /// kernel that ended stays listed until its stream sees it end; it takes
  /// none either.)
  void pruneExecs();
  /// Whether a solo kernel has work left.
  bool anyRunning() const;
  /// Jobs: the solos with work left (Running: their streams, by tag).
  void gatherRunning();
  /// Back from Jobs to their streams.
  void scatterRunning();
  /// Moves the running solos' remaining work on to \p T (processor
  /// sharing among them since SetTime).
  void progress(double T);
  /// Each running solo's end, were nothing to join or leave but by ending.
  void projectEnds();

  s4u::Host *Gpu;
  const Rank *Owner = nullptr;  ///< the first rank that chose this GPU
  bool Shared = false;          ///< a second rank chose it too
  mutable bool Settled = false; ///< every rank of the node chose its GPUs
  double CommittedUntil = 0;
  std::vector<const Stream *> ActorStreams;
  /// Whether kernels may run without an execution here: GPU hosts of one
  /// core, SimGrid's tracing off (its callbacks need a start per kernel).
  bool SoloAllowed;
  /// Streams whose kernel runs without an execution (alone, or sharing
  /// the GPU among the owner's kernels); their SoloWork holds at SetTime.
  std::vector<Stream *> Solos;
  double SetTime = 0;
  std::vector<s4u::ExecPtr> Execs;     ///< executions that may still run
  std::vector<Stream *> LocalStreams;  ///< streams with locally queued work
  std::vector<Stream *> Running;       ///< solos with work left
  std::vector<models::SharedJob> Jobs; ///< theirs, tagged by index
};

} // namespace orrery::sim

#endif // ORRERY_SIM_GPUKERNELS_H
