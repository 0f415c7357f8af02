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
  pruneExecs();
  // Work queued locally that started by now shares the GPU with this one.
  settle(Now);
  progress(Now);
  bool SoloRunning = anyRunning();
  // On a GPU private to the calling owner nobody else can join its kernels:
  // it shares the GPU among them itself.
  bool Owned =
      SoloRunning && rank_clock::isRunning(*S.Owner) && privateTo(*S.Owner);
  if (SoloAllowed && Execs.empty() && (!SoloRunning || Owned)) {
    joinAt(S, Seconds, Now);
    if (Ahead)
      committed(Now);
    return nullptr;
  }
  // Executions start at SimGrid's clock (nobody else ran on this private
  // GPU meanwhile: its solos are as they were).
  handOver();
  if (Ahead) {
    rank_clock::catchUp();
    Now = now();
  }
  shareSolos(Now);
  s4u::ExecPtr E = startExec(Gpu, Seconds * Gpu->get_speed());
  Execs.push_back(E);
  return E;
}

void GpuKernels::joinAt(Stream &S, double Seconds, double At) {
  progress(At);
  bool Others = anyRunning();
  S.SoloWork = Seconds;
  Solos.push_back(&S);
  if (Others)
    projectEnds();
  else
    S.SoloEnd = At + Seconds;
}

bool GpuKernels::anyRunning() const {
  return std::any_of(Solos.begin(), Solos.end(),
                     [](Stream *O) { return O->SoloWork > 0; });
}

void GpuKernels::gatherRunning() {
  Running.clear();
  Jobs.clear();
  for (Stream *O : Solos)
    if (O->SoloWork > 0) {
      Jobs.push_back({O->SoloWork, O->SoloEnd, Running.size()});
      Running.push_back(O);
    }
}

void GpuKernels::scatterRunning() {
  for (const models::SharedJob &J : Jobs) {
    Running[J.Tag]->SoloWork = J.Work;
    Running[J.Tag]->SoloEnd = J.End;
  }
}

void GpuKernels::progress(double T) {
  if (T <= SetTime)
    return;
  gatherRunning();
  models::advanceShared(Jobs, SetTime, T);
  scatterRunning();
  SetTime = T;
}

void GpuKernels::projectEnds() {
  gatherRunning();
  models::projectSharedEnds(Jobs, SetTime);
  scatterRunning();
}

void GpuKernels::shareSolos(double Now) {
  progress(Now);
  std::vector<std::pair<Stream *, double>> Left;
  // (A solo that starts later than now was started by a rank ahead of the
  // clock, counted as a conflict: it gets the work it had then.)
  for (Stream *O : Solos)
    if (O->SoloWork > 0)
      Left.emplace_back(O, O->SoloWork * Gpu->get_speed());
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

bool GpuKernels::mayQueueLocally(const Stream &S) {
  if (!SoloAllowed || !S.Owner || !rank_clock::isRunning(*S.Owner) ||
      !privateTo(*S.Owner))
    return false;
  pruneExecs();
  return Execs.empty();
}

void GpuKernels::pruneExecs() {
  Execs.erase(std::remove_if(Execs.begin(), Execs.end(),
                             [](const s4u::ExecPtr &E) {
                               return E->get_finish_time() >= 0;
                             }),
              Execs.end());
}

void GpuKernels::addLocal(Stream &S) {
  if (std::find(LocalStreams.begin(), LocalStreams.end(), &S) ==
      LocalStreams.end())
    LocalStreams.push_back(&S);
}

void GpuKernels::settle(double T) {
  while (!LocalStreams.empty()) {
    // The earliest end before locally queued work; streams are few.
    auto Next = std::min_element(
        LocalStreams.begin(), LocalStreams.end(),
        [](Stream *A, Stream *B) { return A->SoloEnd < B->SoloEnd; });
    Stream &L = **Next;
    if (L.SoloEnd > T)
      return;
    committed(L.SoloEnd);
    L.advanceLocal();
    if (!L.queuedLocally()) {
      *Next = LocalStreams.back();
      LocalStreams.pop_back();
    }
  }
}

void GpuKernels::handOver() {
  if (LocalStreams.empty())
    return;
  settle(now());
  std::vector<Stream *> Streams;
  Streams.swap(LocalStreams);
  for (Stream *L : Streams)
    L->handToActor();
}

void GpuKernels::claim(const Rank &R) {
  if (!Owner) {
    Owner = &R;
  } else if (Owner != &R) {
    Shared = true;
    handOver();
  }
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
    // Retired at or after its end: until then it took its share from the
    // others (progress counts it among them up to its end).
    progress(S.SoloEnd);
    (*It)->SoloWork = 0;
    *It = Solos.back();
    Solos.pop_back();
  }
}

} // namespace orrery::sim
