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
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_GPUKERNELS_H
#define ORRERY_SIM_GPUKERNELS_H

#include <simgrid/s4u.hpp>

#include <vector>

namespace orrery::sim {

namespace s4u = simgrid::s4u;
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

private:
  explicit GpuKernels(s4u::Host *Gpu);

  /// Turns every solo kernel still running into an execution of the work
  /// it has left (one simcall; the maestro owns them, as no rank's exit
  /// must cancel another rank's kernel).
  void shareSolos(double Now);

  s4u::Host *Gpu;
  /// Whether kernels may run without an execution here: GPU hosts of one
  /// core, SimGrid's tracing off (its callbacks need a start per kernel).
  bool SoloAllowed;
  std::vector<Stream *> Solos;     ///< streams whose kernel runs alone
  std::vector<s4u::ExecPtr> Execs; ///< executions that may still run
};

} // namespace orrery::sim

#endif // ORRERY_SIM_GPUKERNELS_H
