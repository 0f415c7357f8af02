//===- Runtime.cpp - Start-up, ranks, charging, the end of a run ----------===//

#include "Runtime.h"
#include "RankClock.h"
#include "SharedHost.h"
#include "gpu/DeviceExecutor.h"
#include "gpu/DeviceMemory.h"
#include "gpu/GpuKernels.h"
#include "gpu/Streams.h"
#include "mpi/Messages.h"
#include "mpi/NetworkFactors.h"
#include "mpi/PayloadCopies.h"
#include "orrery/sim/Api.h"
#include "values/DeviceValues.h"

#include "orrery/models/MachineFile.h"
#include "orrery/models/Platform.h"

#include <smpi/smpi.h>
#include <xbt/config.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace orrery::sim {

/// SIGTERM or SIGINT received (smpirun turns both into SIGTERM for the
/// simulation): the run stops at the next hook with a partial report.
static volatile sig_atomic_t Interrupted = 0;

static void onInterrupt(int Sig) {
  if (Interrupted) { // a second signal: no more waiting
    std::signal(Sig, SIG_DFL);
    std::raise(Sig);
  }
  Interrupted = Sig;
}

static double wallNow() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double now() { return rank_clock::now(); }

OutsideBench::OutsideBench() : On(api::benchmarking()) {
  if (On)
    smpi_bench_end();
}

OutsideBench::~OutsideBench() {
  if (On)
    smpi_bench_begin();
}

int Runtime::rankCount() {
  static int N = simgrid::config::get_value<int>("smpi/np");
  return N;
}

void fatal(const std::string &Message) {
  std::fprintf(stderr, "liborrery-sim: error: %s\n", Message.c_str());
  std::fflush(stderr);
  std::exit(2);
}

static const char *env(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V ? V : nullptr;
}

SiteTotals *Rank::siteRow(const orrery_site *S) {
  // Sites are consecutive records of 48 bytes: address / 16 spreads them.
  auto &Recent = RecentSites[(reinterpret_cast<std::uintptr_t>(S) >> 4) %
                             RecentSites.size()];
  if (Recent.first == S)
    return Recent.second;
  SiteTotals *&Row = SiteRows[S];
  if (!Row)
    Row = Runtime::get().report().siteRow(S);
  Recent = {S, Row};
  return Row;
}

DeviceContext &Rank::device(int D) {
  auto [It, New] = Devices.try_emplace(D);
  DeviceContext &C = It->second;
  if (New) {
    Runtime &RT = Runtime::get();
    C.Index = D;
    C.Gpu = RT.gpuHost(Node, D);
    // Claimed before anything that may yield (creating the stream's
    // condition variable is a simcall): another rank that sees this context
    // must see the claim too (GpuKernels::privateTo).
    GpuKernels::of(C.Gpu).claim(*this);
    C.Legacy = Stream::create(*this, D, C.Gpu, /*NonBlocking=*/false,
                              /*Legacy=*/true);
    C.Streams.push_back(C.Legacy);
  }
  return C;
}

Runtime &Runtime::get() {
  static Runtime RT;
  return RT;
}

Runtime::Runtime() {
  WallStart = LastProgress = wallNow();
  const char *Path = env("ORRERY_MACHINE");
  if (!Path)
    fatal("ORRERY_MACHINE is not set: run skeleton programs with "
          "'orrery-run --machine FILE', or set ORRERY_MACHINE to a machine "
          "file (models/machines/*.yaml)");
  MachinePath = Path;
  models::ParsedFile F = models::loadMachineFile(MachinePath);
  if (!F.ok())
    fatal(F.Errors.front().str() + " (from ORRERY_MACHINE)");
  if (F.Type != models::FileType::Machine)
    fatal("ORRERY_MACHINE='" + MachinePath +
          "' is a network file; give a machine file and pass the network "
          "file as ORRERY_NETWORK_FILE");
  M = F.M;
  if (const char *Net = env("ORRERY_NETWORK_FILE")) {
    models::ParsedFile N = models::loadMachineFile(Net);
    if (!N.ok())
      fatal(N.Errors.front().str() + " (from ORRERY_NETWORK_FILE)");
    models::applyNetwork(M, N.M);
  }
  Gpu = models::GpuParams::fromMachine(M);
  Comm = models::CommParams::fromMachine(M);
  GpusPerNode = M.gpusPerNode();
  RanksPerNode = GpusPerNode;
  if (const char *R = env("ORRERY_RANKS_PER_NODE")) {
    RanksPerNode = std::atoi(R);
    if (RanksPerNode < 1)
      fatal(std::string("ORRERY_RANKS_PER_NODE='") + R +
            "' is not a positive number");
  }
  // Unset or auto: as orrery-run's default, no correction factors on a
  // network whose figures are MPI-level benchmark results.
  Ideal = M.Network.Figures == models::NetworkFigures::Mpi;
  if (const char *Mode = env("ORRERY_NETWORK_MODE")) {
    std::string S = Mode;
    if (S != "smpi" && S != "ideal" && S != "auto")
      fatal("ORRERY_NETWORK_MODE='" + S + "': use 'auto', 'smpi' or 'ideal'");
    if (S != "auto")
      Ideal = S == "ideal";
  }
  if (const char *P = env("ORRERY_PROGRESS"))
    ProgressEvery = std::atof(P);
  if (const char *B = env("ORRERY_GPU_BIND")) {
    std::string S = B;
    if (S != "none" && S != "local")
      fatal("ORRERY_GPU_BIND='" + S +
            "': use 'none' (every rank sees all "
            "GPUs of its node) or 'local' (each rank sees its local rank's "
            "GPU only); orrery-run sets it from --gpu-bind");
    BindGpus = S == "local";
  }
  Rep.setTracing(env("ORRERY_TRACE") != nullptr);
  std::signal(SIGTERM, onInterrupt);
  std::signal(SIGINT, onInterrupt);
  installNetworkFactors(Ideal, M.Node.SharedMemory);
  installCopyFilter();
  loadDeviceValues();
  // Twin mode: look for the GPU before the program runs (its executor stops
  // the run with a message saying what is missing).
  deviceExecutor();
  copyTiming();
  s4u::Actor::on_termination_cb([this](const s4u::Actor &A) {
    auto Pid = static_cast<std::size_t>(A.get_pid());
    if (Pid >= Ranks.size() || !Ranks[Pid])
      return;
    ++RanksEnded;
    const Rank &R = *Ranks[Pid];
    double End = rank_clock::endOf(R);
    SimulatedEnd = std::max(SimulatedEnd, End);
    // Work the rank queued locally on its private GPUs (GpuKernels.h) that
    // was due by its end started then, as a stream's actor would have
    // started it; what it never waited for is not accounted, as a kernel
    // running alone is not.
    for (const auto &[Index, C] : R.Devices)
      GpuKernels::of(C.Gpu).settle(End);
    if (R.MpiInitCalled && !R.MpiFinalizeCalled)
      Unfinalized.push_back(R.Id);
    if (RanksEnded == rankCount())
      finish();
  });
  // SimGrid ends a deadlocked simulation normally (smpirun exits 0): say
  // which ranks waited for what.
  s4u::Engine::on_deadlock_cb([this] {
    if (Failure.empty()) {
      Failure = "deadlock: every remaining rank waits for a message or "
                "operation that never comes";
      FailureStatus = 1;
    }
    for (std::size_t Pid = 0; Pid < Ranks.size(); ++Pid) {
      if (!Ranks[Pid])
        continue;
      const Rank &R = *Ranks[Pid];
      s4u::ActorPtr A = s4u::Actor::by_pid(static_cast<long>(Pid));
      if (!A)
        continue;
      std::string Where = "rank " + std::to_string(R.Id);
      if (!R.Open.empty())
        Where += ": in " + std::string(R.Open.back().Site->api) + " at " +
                 R.Open.back().Site->file + ":" +
                 std::to_string(R.Open.back().Site->line);
      else
        Where += ": outside instrumented calls";
      FailedRanks.push_back(Where);
    }
  });
  // Ranks a run never sees end (killed with the engine) still get a report.
  s4u::Engine::on_simulation_end_cb([this] {
    if (!Finished)
      finish();
  });
}

void Runtime::interrupt(int Sig) {
  Failure = "interrupted by signal " + std::to_string(Sig) + " (" +
            strsignal(Sig) + ") after " + std::to_string(now()) +
            " s of simulated time";
  FailureStatus = 128 + Sig;
  SimulatedEnd = std::max(SimulatedEnd, now());
  finish();
  std::fflush(nullptr);
  std::_Exit(128 + Sig);
}

void Runtime::recordAbort(int Code) {
  if (!Failure.empty())
    return;
  Rank &R = rank();
  Failure = "rank " + std::to_string(R.Id) +
            " called MPI_Abort with error "
            "code " +
            std::to_string(Code);
  // An exit status is 8 bits; a code that reads as 0 there still failed.
  FailureStatus = (Code & 255) != 0 ? Code & 255 : 1;
}

Rank &Runtime::rank() {
  long Pid = s4u::this_actor::get_pid();
  if (Pid == LastPid)
    return *LastRank;
  if (Pid < 0)
    fatal("the calling actor has no pid: skeleton programs run under "
          "smpirun (orrery-run)");
  if (static_cast<std::size_t>(Pid) >= Ranks.size())
    Ranks.resize(static_cast<std::size_t>(Pid) + 1);
  auto &Slot = Ranks[static_cast<std::size_t>(Pid)];
  if (!Slot) {
    s4u::Actor *Self = s4u::Actor::self();
    const char *Id = Self->get_property("rank");
    if (!Id)
      fatal(std::string("actor '") + Self->get_cname() +
            "' is not an SMPI rank: skeleton programs run under smpirun "
            "(orrery-run)");
    Slot = std::make_unique<Rank>();
    Slot->Id = std::atoi(Id);
    Slot->Cpu = Self->get_host();
    Slot->Actor = Self;
    const char *Node = Slot->Cpu->get_property("orrery_node");
    if (!Node)
      fatal("host '" + Slot->Cpu->get_name() +
            "' has no orrery_node property: generate the platform with "
            "orrery-platform (orrery-run does)");
    Slot->Node = std::atoi(Node);
    // --gpu-bind local: the GPU orrery-run's placement gives the local rank
    // (deviceOf()), the only one the rank sees.
    if (BindGpus)
      Slot->Device = Slot->BoundGpu = (Slot->Id % RanksPerNode) % GpusPerNode;
    if (Slot->Id < 0)
      fatal("actor '" + std::string(Self->get_cname()) +
            "' has a negative rank property: run under smpirun (orrery-run)");
    if (static_cast<std::size_t>(Slot->Id) >= ById.size())
      ById.resize(static_cast<std::size_t>(Slot->Id) + 1, nullptr);
    ById[static_cast<std::size_t>(Slot->Id)] = Slot.get();
  }
  LastPid = Pid;
  LastRank = Slot.get();
  return *Slot;
}

std::vector<Rank *> Runtime::ranks() const {
  std::vector<Rank *> V;
  for (const auto &R : Ranks)
    if (R)
      V.push_back(R.get());
  return V;
}

Rank *Runtime::rankById(int Id) const {
  return Id >= 0 && static_cast<std::size_t>(Id) < ById.size()
             ? ById[static_cast<std::size_t>(Id)]
             : nullptr;
}

int Runtime::deviceOf(int Id) const {
  if (const Rank *R = rankById(Id))
    return R->Device;
  return (Id % RanksPerNode) % GpusPerNode;
}

s4u::Host *Runtime::cpuHostOf(int Id) {
  if (Id < 0)
    return nullptr;
  if (static_cast<std::size_t>(Id) >= CpuHosts.size())
    CpuHosts.resize(static_cast<std::size_t>(Id) + 1, nullptr);
  s4u::Host *&H = CpuHosts[static_cast<std::size_t>(Id)];
  if (!H) {
    if (const Rank *R = rankById(Id))
      return H = R->Cpu;
    int Rails = models::railsPerNode(M);
    H = s4u::Host::by_name_or_null(
        models::cpuHostName(Id / RanksPerNode, (Id % RanksPerNode) % Rails));
  }
  return H;
}

s4u::Host *Runtime::gpuHost(int Node, int G) {
  auto Lookup = [&] {
    std::string Name = models::gpuHostName(Node, G);
    s4u::Host *H = s4u::Host::by_name_or_null(Name);
    if (!H)
      fatal("the platform has no host '" + Name + "': device " +
            std::to_string(G) + " does not exist on node " +
            std::to_string(Node) + " of machine '" + M.Name + "' (" +
            std::to_string(GpusPerNode) + " GPUs per node)");
    return H;
  };
  if (Node < 0 || G < 0 || G >= GpusPerNode)
    return Lookup();
  std::size_t Slot =
      static_cast<std::size_t>(Node) * static_cast<std::size_t>(GpusPerNode) +
      static_cast<std::size_t>(G);
  if (Slot >= GpuHosts.size())
    GpuHosts.resize(Slot + 1, nullptr);
  if (!GpuHosts[Slot])
    GpuHosts[Slot] = Lookup();
  return GpuHosts[Slot];
}

void Runtime::cpuWait(Rank &R,
                      std::initializer_list<std::pair<Category, double>> Parts,
                      bool Estimate) {
  double Seconds = 0;
  Category C = Category::CallOverhead;
  for (auto [Cat, S] : Parts)
    if (S > 0) {
      R.Time.add(Cat, S, Estimate);
      if (Seconds == 0)
        C = Cat;
      Seconds += S;
    }
  if (Seconds <= 0)
    return;
  if (!R.Open.empty())
    R.Open.back().Charged += Seconds;
  double Start = now();
  {
    OutsideBench B;
    rank_clock::advance(R, Seconds);
  }
  if (Rep.tracing())
    Rep.span({R.Id, 0, Start, Seconds,
              R.Open.empty() ? std::string(categoryKey(C))
                             : std::string(R.Open.back().Site->api),
              C});
}

void Runtime::cpuFlow(Rank &R, Category C, s4u::Host *From, s4u::Host *To,
                      double Bytes, bool Estimate, double Latency) {
  // The rank's time ahead of the clock becomes part of the flow's latency
  // (no bandwidth taken meanwhile: the same flow, started then) instead of
  // a sleep of its own, where the route has a latency to carry it.
  double Start = now();
  FlowStart F{Latency};
  if (From && To && From != To && routeOf(From, To, 0).Latency > 0)
    F.Delay = rank_clock::handOff();
  else
    rank_clock::catchUp();
  if (F.Latency >= 0 || F.Delay > 0)
    expectFlow(From, To, Bytes, F);
  {
    OutsideBench B;
    s4u::Comm::sendto(From, To, static_cast<std::uint64_t>(Bytes));
  }
  chargeSince(R, C, Start, Estimate);
}

void Runtime::latencyFlow(Rank &R, Category C, s4u::Host *From, s4u::Host *To,
                          double Seconds, bool Estimate) {
  if (Seconds <= 0)
    return;
  // SimGrid scales the route's latency: a route without one cannot carry it.
  if (!From || !To || From == To || routeOf(From, To, 0).Latency <= 0) {
    cpuWait(R, C, Seconds, Estimate);
    return;
  }
  cpuFlow(R, C, From, To, 0, Estimate, Seconds);
}

void Runtime::chargeSince(Rank &R, Category C, double Start, bool Estimate) {
  double Seconds = now() - Start;
  R.Time.add(C, Seconds, Estimate);
  if (!R.Open.empty())
    R.Open.back().Charged += Seconds;
  if (Rep.tracing())
    Rep.span({R.Id, 0, Start, Seconds,
              R.Open.empty() ? std::string(categoryKey(C))
                             : std::string(R.Open.back().Site->api),
              C});
}

void Runtime::cpuFlows(
    Rank &R, Category C,
    const std::vector<std::tuple<s4u::Host *, s4u::Host *, double>> &Flows,
    bool Estimate) {
  if (Flows.empty())
    return;
  rank_clock::catchUp();
  double Start = now();
  {
    OutsideBench B;
    std::vector<s4u::CommPtr> Comms;
    Comms.reserve(Flows.size());
    for (const auto &[From, To, Bytes] : Flows)
      Comms.push_back(
          s4u::Comm::sendto_async(From, To, static_cast<std::uint64_t>(Bytes)));
    s4u::Comm::wait_all(Comms);
  }
  chargeSince(R, C, Start, Estimate);
}

void Runtime::tick() {
  if (Interrupted)
    interrupt(Interrupted);
  if (ProgressEvery <= 0 || (++TickCount & 1023) != 0)
    return;
  double W = wallNow();
  if (W - LastProgress < ProgressEvery)
    return;
  LastProgress = W;
  std::fprintf(stderr, "orrery: simulated %.6f s after %.0f s of wall time\n",
               now(), W - WallStart);
}

void Runtime::finish() {
  if (Finished)
    return;
  Finished = true;
  Report::Summary S;
  // mpirun fails a job one of whose processes called MPI_Init and ended
  // without MPI_Finalize (it returned from main or called exit early);
  // SMPI does not.
  if (!Unfinalized.empty() && Failure.empty()) {
    std::sort(Unfinalized.begin(), Unfinalized.end());
    Failure = std::to_string(Unfinalized.size()) + " of " +
              std::to_string(rankCount()) +
              " ranks ended without calling MPI_Finalize (returned from main "
              "or called exit before it)";
    FailureStatus = 1;
    for (int Id : Unfinalized)
      FailedRanks.push_back("rank " + std::to_string(Id) +
                            ": ended after MPI_Init without MPI_Finalize");
  }
  if (RanksEnded < rankCount() && Failure.empty()) {
    Failure = std::to_string(rankCount() - RanksEnded) + " of " +
              std::to_string(rankCount()) +
              " ranks did not end before the simulation stopped";
    FailureStatus = 1;
  }
  if (unsigned long N = GpuKernels::conflicts())
    Rep.warn(std::to_string(N) +
             " kernel(s) started on a GPU that another "
             "rank, alone on it until then, had already used further ahead "
             "in simulated time (a rank chose a second rank's GPU "
             "mid-run): their timing is approximate; set "
             "ORRERY_RANK_CLOCK=0 for the exact one (docs/simulate.md)");
  if (unsigned long N = rank_clock::earlySimcalls())
    Rep.warn(std::to_string(N) +
             " time(s) a rank made a simulation call "
             "(an MPI or RAMC call in code orrery-instrument did not "
             "rewrite?) while its own time was ahead of SimGrid's clock: "
             "that call happened too early by up to the CPU time charged "
             "since its last MPI call; instrument every source file, or "
             "set ORRERY_RANK_CLOCK=0 (docs/simulate.md)");
  S.Failure = Failure;
  S.FailureStatus = FailureStatus;
  S.FailedRanks = FailedRanks;
  S.MachineName = M.Name;
  S.MachineFile = MachinePath;
  S.NetworkMode = Ideal ? "ideal" : "smpi";
  S.Ranks = rankCount();
  S.RanksPerNode = RanksPerNode;
  S.Nodes = (S.Ranks + RanksPerNode - 1) / RanksPerNode;
  S.SimulatedSeconds = SimulatedEnd;
  S.WallSeconds = wallNow() - WallStart;
  shared_host::Stats Shared = shared_host::stats();
  S.SharedAllocations = Shared.Allocations;
  S.ChargesAhead = rank_clock::chargesAhead();
  S.CatchUps = rank_clock::catchUps();
  S.SharedBytes = Shared.Bytes;
  S.SharedThreshold = shared_host::threshold();
  warnUnusedDeviceValues(Rep);
  for (const auto &R : Ranks) {
    if (!R)
      continue;
    const Accounts &A = R->Time;
    for (int I = 0; I < NumCategories; ++I) {
      S.Total.Seconds[I] += A.Seconds[I];
      S.Total.Measured[I] += A.Measured[I];
    }
    S.Total.Estimated += A.Estimated;
  }
  S.DeviceTime = deviceExecutor().real() ? "measured" : "modelled";
  S.HostCompute = simgrid::config::get_value<bool>("smpi/simulate-computation");
  std::string Error;
  if (const char *Path = env("ORRERY_REPORT"))
    if (!Rep.writeJson(Path, S, Error))
      std::fprintf(stderr, "liborrery-sim: error: ORRERY_REPORT: %s\n",
                   Error.c_str());
  if (const char *Path = env("ORRERY_TRACE"))
    if (!Rep.writeTrace(Path, S.Ranks, Error))
      std::fprintf(stderr, "liborrery-sim: error: ORRERY_TRACE: %s\n",
                   Error.c_str());
}

} // namespace orrery::sim
