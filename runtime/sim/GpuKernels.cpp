//===- GpuKernels.cpp - Kernels running on one simulated GPU --------------===//

#include "GpuKernels.h"
#include "Streams.h"

#include <simgrid/simix.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace orrery::sim {

namespace {

/// Whether SimGrid's own tracing is on: its callbacks on an execution's
/// start ask which actor runs, so every kernel must be an execution its
/// actor starts.
bool simgridTracing() {
  static const bool On = simgrid::config::get_value<bool>("tracing");
  return On;
}

/// Sets an execution's work and host and starts it.
void launch(const s4u::ExecPtr &E, s4u::Host *Host, double Flops) {
  E->set_flops_amount(Flops)->set_host(Host)->start();
}

/// Starts an execution of \p Flops on \p Host for the calling actor, whose
/// activity it is (created here, in the actor's context: SimGrid cancels an
/// actor's activities when it ends). s4u's setters are a simcall each from
/// an actor (exec_init alone makes two, set_host and start two more) and
/// run directly in the maestro: one simcall sets everything and starts it.
s4u::ExecPtr startExec(s4u::Host *Host, double Flops) {
  s4u::ExecPtr E = s4u::Exec::init();
  if (simgridTracing())
    launch(E, Host, Flops);
  else
    simgrid::kernel::actor::simcall_answered(
        [&E, Host, Flops] { launch(E, Host, Flops); });
  return E;
}

} // namespace

GpuKernels::GpuKernels(s4u::Host *Gpu)
    : Gpu(Gpu), SoloAllowed(Gpu->get_core_count() == 1 && !simgridTracing()) {}

GpuKernels &GpuKernels::of(s4u::Host *Gpu) {
  // Never destroyed: streams and executions may be looked at until the
  // process exits, after SimGrid's teardown.
  static auto *All =
      new std::unordered_map<s4u::Host *, std::unique_ptr<GpuKernels>>();
  std::unique_ptr<GpuKernels> &G = (*All)[Gpu];
  if (!G)
    G.reset(new GpuKernels(Gpu));
  return *G;
}

s4u::ExecPtr GpuKernels::start(Stream &S, double Seconds) {
  double Now = s4u::Engine::get_clock();
  // Executions that ended no longer take a share. (A solo kernel that
  // ended stays listed until its stream sees it end; it takes none either.)
  Execs.erase(std::remove_if(Execs.begin(), Execs.end(),
                             [](const s4u::ExecPtr &E) {
                               return E->get_finish_time() >= 0;
                             }),
              Execs.end());
  bool SoloRunning = std::any_of(Solos.begin(), Solos.end(),
                                 [Now](Stream *O) { return O->SoloEnd > Now; });
  if (SoloAllowed && !SoloRunning && Execs.empty()) {
    S.SoloEnd = Now + Seconds;
    Solos.push_back(&S);
    return nullptr;
  }
  shareSolos(Now);
  s4u::ExecPtr E = startExec(Gpu, Seconds * Gpu->get_speed());
  Execs.push_back(E);
  return E;
}

void GpuKernels::shareSolos(double Now) {
  std::vector<std::pair<Stream *, double>> Left;
  for (Stream *O : Solos)
    if (O->SoloEnd > Now)
      Left.emplace_back(O, (O->SoloEnd - Now) * Gpu->get_speed());
  if (Left.empty())
    return;
  std::vector<s4u::ExecPtr> Made(Left.size());
  simgrid::kernel::actor::simcall_answered([&] {
    for (std::size_t I = 0; I < Left.size(); ++I) {
      Made[I] = s4u::Exec::init();
      launch(Made[I], Gpu, Left[I].second);
    }
  });
  for (std::size_t I = 0; I < Left.size(); ++I) {
    Stream &O = *Left[I].first;
    O.InFlight = Made[I];
    O.SoloEnd = -1;
    forget(O);
    Execs.push_back(Made[I]);
  }
}

void GpuKernels::forget(const Stream &S) {
  auto It = std::find(Solos.begin(), Solos.end(), &S);
  if (It != Solos.end()) {
    *It = Solos.back();
    Solos.pop_back();
  }
}

} // namespace orrery::sim
