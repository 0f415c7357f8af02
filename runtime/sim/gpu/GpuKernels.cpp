//===- GpuKernels.cpp - Kernels running on one simulated GPU --------------===//

#include "GpuKernels.h"
#include "Streams.h"
#include "ranks/RankClock.h"
#include "ranks/Runtime.h"

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

unsigned long Conflicts = 0;

/// Whether every rank of \p R's node chose a GPU (has a context on one):
/// none can then choose \p R's GPU without making it shared. Never for
/// ranks not placed in blocks of ranks-per-node, as orrery-run places them.
bool nodeSettled(const Rank &R) {
  const Runtime &RT = Runtime::get();
  int PerNode = RT.ranksPerNode();
  if (R.Id / PerNode != R.Node)
    return false;
  for (int I = 0, N = RT.ranksOnNode(R.Node); I < N; ++I) {
    const Rank *O = RT.rankById(R.Node * PerNode + I);
    if (!O || O->Devices.empty())
      return false;
  }
  return true;
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
  // The owner ahead of the clock starts kernels at its own time on a GPU
  // private to it where only solo kernels run; anyone else (or a GPU others
  // use, or one running executions, whose ends are SimGrid's) at SimGrid's.
  bool Ahead = rank_clock::isAhead(*S.Owner);
  if (Ahead && (!Execs.empty() || !privateTo(*S.Owner))) {
    rank_clock::catchUp();
    Ahead = false;
  }
  double Now = now();
  if (!Ahead && Now < CommittedUntil)
    ++Conflicts;
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
    if (Ahead)
      committed(Now);
    return nullptr;
  }
  // Executions start at SimGrid's clock (nobody else ran on this private
  // GPU meanwhile: its solos are as they were).
  if (Ahead) {
    rank_clock::catchUp();
    Now = now();
  }
  shareSolos(Now);
  s4u::ExecPtr E = startExec(Gpu, Seconds * Gpu->get_speed());
  Execs.push_back(E);
  return E;
}

void GpuKernels::shareSolos(double Now) {
  std::vector<std::pair<Stream *, double>> Left;
  // (A solo that starts later than now was started by a rank ahead of the
  // clock, counted as a conflict: it gets its whole work.)
  for (Stream *O : Solos)
    if (O->SoloEnd > Now)
      Left.emplace_back(O, (O->SoloEnd - std::max(Now, O->InFlightStart)) *
                               Gpu->get_speed());
  if (Left.empty())
    return;
  // An execution belongs to the actor that creates it: SimGrid lists it
  // with that actor's activities (and cancels them when the actor ends).
  // Created in the maestro (inside the simcall), it joins the maestro's
  // list, which SimGrid 3.32 walks whole each time any activity of it ends:
  // with one resumed solo per GPU in flight, thousands of GPUs made every
  // end a walk of thousands (docs/performance.md, "The maestro's list").
  // A solo of the calling rank itself is resumed as that rank's activity,
  // as startExec makes its kernels; another rank's (a GPU shared by ranks)
  // stays the maestro's, which outlives every rank.
  s4u::Actor *Self = s4u::Actor::self();
  std::vector<s4u::ExecPtr> Made(Left.size());
  for (std::size_t I = 0; I < Left.size(); ++I)
    if (Self && Left[I].first->Owner && Left[I].first->Owner->Actor == Self)
      Made[I] = s4u::Exec::init();
  simgrid::kernel::actor::simcall_answered([&] {
    for (std::size_t I = 0; I < Left.size(); ++I) {
      if (!Made[I])
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

void GpuKernels::claim(const Rank &R) {
  if (!Owner)
    Owner = &R;
  else if (Owner != &R)
    Shared = true;
}

bool GpuKernels::privateTo(const Rank &R) const {
  if (!rank_clock::enabled() || !SoloAllowed || Shared || Owner != &R)
    return false;
  // Once every rank of the node has a context it stays so.
  if (!Settled && !(Settled = nodeSettled(R)))
    return false;
  return std::none_of(ActorStreams.begin(), ActorStreams.end(),
                      [](const Stream *S) { return S->actorBusy(); });
}

unsigned long GpuKernels::conflicts() { return Conflicts; }

void GpuKernels::forget(const Stream &S) {
  auto It = std::find(Solos.begin(), Solos.end(), &S);
  if (It != Solos.end()) {
    *It = Solos.back();
    Solos.pop_back();
  }
}

} // namespace orrery::sim
