//===- Runtime.h - State of the skeleton backend ----------------*- C++ -*-===//
//
// One Runtime per simulation process. smpirun loads the program once per rank
// but liborrery-sim only once, so every piece of per-rank state lives in a
// Rank, found from the calling SMPI actor; nothing of a rank sits in a global.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_RUNTIME_H
#define ORRERY_SIM_RUNTIME_H

#include "gpu/L2Residency.h"
#include "mpi/Polling.h"
#include "orrery/hooks.h"
#include "orrery/models/CommParams.h"
#include "orrery/models/KernelModel.h"
#include "orrery/models/Machine.h"
#include "orrery/models/Transport.h"
#include "report/Accounting.h"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace orrery::sim {

namespace s4u = simgrid::s4u;

struct Stream;
using StreamPtr = std::shared_ptr<Stream>;

/// One rank's view of one GPU of its node.
struct DeviceContext {
  int Index = 0;
  s4u::Host *Gpu = nullptr;
  StreamPtr Legacy;               ///< the default (NULL) stream
  std::vector<StreamPtr> Streams; ///< every stream of this rank on this GPU
  bool PeerAccess[64] = {};       ///< cudaDeviceEnablePeerAccess
  L2Residency L2;                 ///< what this rank's kernels left in L2
};

/// One side's device leg of an MPI transfer, charged when that side's part
/// of the transfer happens.
struct DeviceLeg {
  models::LegKind Kind = models::LegKind::HostResident;
  double Bytes = 0;
  int Gpu = 0;                  ///< the rank's GPU holding the buffer
  int PeerGpu = 0;              ///< the other side's GPU (peer legs, same node)
  bool PayloadOnNetwork = true; ///< false: the leg itself moves the data
};

/// A receive whose leg is charged once it has completed (when the sender's
/// side of the message is known).
struct PendingRecv {
  const void *Buf = nullptr;
  double Bytes = 0;
  int Peer = -1;          ///< world rank annotated at the call (or -1)
  bool AnySource = false; ///< match a message from any rank
  int Tag = -1;           ///< Messages.h's AnyTag: any (or not annotated)
  std::uint64_t Comm = 0; ///< communicatorKey(), or AnyComm (0): any
  const orrery_site *Site = nullptr;
  /// Nonblocking receives: the address of the MPI_Request the program
  /// waits on (null: unknown, the next wait of any request completes it).
  const void *Request = nullptr;
};

/// A hook that has begun and not yet ended.
struct OpenSite {
  const orrery_site *Site = nullptr;
  double Begin = 0;   ///< simulated time at begin
  double Charged = 0; ///< seconds Orrery charged inside it (not network)
  std::vector<PendingRecv> After; ///< receives to complete at the end
};

/// The launch a hook announced, consumed by cudaLaunchKernel.
struct PendingLaunch {
  const orrery_site *Site = nullptr;
  bool HasCounts = false;
  orrery_kernel_counts Counts{};
  /// A math-library call charged as a kernel (mathlibs/LibraryCall.h): its
  /// name and where Counts came from, for the report.
  const char *Name = nullptr;
  const char *Hint = nullptr;
  /// orrery_launch_value: the pointer parameter a `#pragma orrery
  /// device_value(ARG=VALUE)` names and its value (null: none).
  const char *OutputArg = nullptr;
  const char *OutputValue = nullptr;
};

/// The device read a hook announced (orrery_read_hint), consumed by the
/// copy inside the call.
struct PendingRead {
  const orrery_site *Site = nullptr;
  const char *Type = nullptr;   ///< f32, f64, i8..u64, bytes
  const char *Pragma = nullptr; ///< #pragma orrery device_value, or null
};

struct Rank {
  int Id = 0;
  int Node = 0;
  s4u::Host *Cpu = nullptr;
  const s4u::Actor *Actor = nullptr; ///< the rank's SMPI actor
  int Device = 0; ///< cudaSetDevice: the node's GPU (not the ordinal)
  /// orrery-run --gpu-bind local: the one GPU the rank sees (-1: all).
  int BoundGpu = -1;
  std::map<int, DeviceContext> Devices;
  std::vector<OpenSite> Open;
  PendingLaunch Launch;
  PendingRead Read;
  int LastError = 0; ///< cudaError_t of the last failed call
  /// With --host-compute: whether SMPI's timer of this rank's host code
  /// has been started by one of this library's hooks (docs/orrery-run.md).
  bool HostTimerStarted = false;
  /// Whether the rank's instrumented code called MPI_Init(_thread) and
  /// MPI_Finalize: a rank that ends after the first without the second
  /// failed, as mpirun would say.
  bool MpiInitCalled = false, MpiFinalizeCalled = false;
  /// Nonblocking receives, completed when a wait completes.
  std::vector<PendingRecv> Deferred;
  /// The earliest simulated time its pending nonblocking collectives may
  /// complete (their blocking forms' bound; 0: none pending).
  double CollectivesReady = 0;
  Accounts Time;
  int NextStreamId = 1;
  ClockStreak ClockReads; ///< MPI_Wtime, gettimeofday, clock_gettime
  /// <<<>>> configurations pushed and not yet popped (nested launches in
  /// argument lists push several).
  std::vector<std::tuple<orrery_dim3, orrery_dim3, std::size_t, void *>>
      LaunchConfigs;
  /// The report rows of the sites this rank called: a table of this
  /// rank's sites only (each rank has its own copy of the program, so its
  /// own site records; one table of all would be thousands of times larger).
  std::unordered_map<const orrery_site *, SiteTotals *> SiteRows;
  /// The rows of the sites called last, direct-mapped, in the rank itself:
  /// every call looks one up, and with thousands of ranks the table's
  /// bucket and node are cache misses by the time the rank runs again.
  std::array<std::pair<const orrery_site *, SiteTotals *>, 32> RecentSites{};
  SiteTotals *siteRow(const orrery_site *S);
  PollStreak DeviceQueries; ///< cudaStreamQuery, cudaEventQuery
  /// RankClock.h: the rank's own time while it is ahead of SimGrid's clock
  /// (-1: it is not), and SimGrid's clock when it went ahead.
  double AheadTime = -1, AheadFrom = 0;

  DeviceContext &device(int D);
  DeviceContext &current() { return device(Device); }
};

class Runtime {
public:
  /// The runtime, read from the environment on first use (exits with a
  /// message naming the variable at fault).
  static Runtime &get();
  /// The calling rank. Must be called from an SMPI rank actor.
  Rank &rank();

  const models::Machine &machine() const { return M; }
  const models::GpuParams &gpu() const { return Gpu; }
  const models::CommParams &comm() const { return Comm; }
  int gpusPerNode() const { return GpusPerNode; }
  int ranksPerNode() const { return RanksPerNode; }
  /// Ranks of this run (smpirun's -np), and how many orrery-run places on
  /// \p Node (blocks of ranks-per-node: rank Id on node Id / ranks per node).
  static int rankCount();
  int ranksOnNode(int Node) const {
    return std::max(0,
                    std::min(RanksPerNode, rankCount() - Node * RanksPerNode));
  }
  bool idealNetwork() const { return Ideal; }
  s4u::Host *gpuHost(int Node, int Gpu);
  /// The CPU host of world rank \p Id (orrery-run's placement: blocks of
  /// ranks-per-node, local rank L on rail L % rails).
  s4u::Host *cpuHostOf(int Id);
  /// The rank with world id \p Id, or null before its first hook.
  Rank *rankById(int Id) const;
  /// The GPU world rank \p Id drives (its cudaSetDevice; before its first
  /// hook, the GPU its local rank selects).
  int deviceOf(int Id) const;

  /// Charges \p Seconds of CPU-side time to the calling rank: its clock
  /// advances, nothing else is busy (no simulation step: RankClock.h).
  void cpuWait(Rank &R, Category C, double Seconds, bool Estimate) {
    cpuWait(R, {{C, Seconds}}, Estimate);
  }
  /// The same for several categories at once: one simulated wait.
  void cpuWait(Rank &R,
               std::initializer_list<std::pair<Category, double>> Parts,
               bool Estimate);

  /// Charges the simulated time since \p Start to \p C on rank \p R (and
  /// to its open site), with a timeline span.
  void chargeSince(Rank &R, Category C, double Start, bool Estimate);

  /// Moves \p Bytes from \p From to \p To as a flow started by the calling
  /// rank, which waits for it: the time is SimGrid's, shared with other
  /// flows on the same links.
  /// \p Latency, where not negative, replaces the route's (latencyFlow).
  void cpuFlow(Rank &R, Category C, s4u::Host *From, s4u::Host *To,
               double Bytes, bool Estimate, double Latency = -1);

  /// A payload-free flow from \p From to \p To whose latency is
  /// \p Seconds (not its route's): a fixed cost, such as alpha_gdr, placed
  /// on the links it belongs to. The calling rank waits for it.
  void latencyFlow(Rank &R, Category C, s4u::Host *From, s4u::Host *To,
                   double Seconds, bool Estimate);

  /// Moves several flows at once (each \p Flows entry: from, to, bytes);
  /// the calling rank waits for the last. Charged to \p C as one span.
  void cpuFlows(
      Rank &R, Category C,
      const std::vector<std::tuple<s4u::Host *, s4u::Host *, double>> &Flows,
      bool Estimate);

  /// Wall time since the runtime started; prints a progress line on stderr
  /// every ORRERY_PROGRESS seconds.
  void tick();

  Report &report() { return Rep; }

  /// The calling rank called MPI_Abort(comm, \p Code): the run failed.
  void recordAbort(int Code);
  /// Ends the run after signal \p Sig: a report of how far it got, then exit
  /// with 128 + Sig.
  [[noreturn]] void interrupt(int Sig);
  std::vector<Rank *> ranks() const;

private:
  Runtime();
  void finish();

  models::Machine M;
  std::string MachinePath;
  models::GpuParams Gpu;
  models::CommParams Comm;
  int GpusPerNode = 1, RanksPerNode = 1;
  bool Ideal = false;
  bool BindGpus = false; ///< ORRERY_GPU_BIND=local
  // Looked up on every hook: vectors (a rank's entries one cache miss
  // away), not trees of thousands of nodes.
  std::vector<std::unique_ptr<Rank>> Ranks; ///< by actor pid (null: none)
  std::vector<Rank *> ById;                 ///< by world rank
  Rank *LastRank = nullptr;
  long LastPid = -1;
  std::vector<s4u::Host *> GpuHosts; ///< by node * GPUs per node + GPU
  std::vector<s4u::Host *> CpuHosts; ///< by world rank
  Report Rep;
  double WallStart = 0, LastProgress = 0, ProgressEvery = 10;
  double SimulatedEnd = 0;
  int RanksEnded = 0;
  bool Finished = false;
  /// How the run went wrong, for the report (empty: it completed).
  std::string Failure;
  int FailureStatus = 0;                ///< exit status the run should end with
  std::vector<std::string> FailedRanks; ///< "rank 3: in MPI_Recv at f.c:9"
  std::vector<int> Unfinalized; ///< ranks that ended without MPI_Finalize
  unsigned long TickCount = 0;
};

/// Leaves SMPI's computation benchmark around a blocking S4U call made from
/// rank code, so real CPU time of other ranks does not leak into the clock.
/// Nothing to leave when SMPI benchmarks nothing (smpi/simulate-computation
/// off, orrery-run's default, and no mmap privatization): the two calls
/// would only read CPU clocks through system calls.
class OutsideBench {
public:
  OutsideBench();
  ~OutsideBench();
  OutsideBench(const OutsideBench &) = delete;
  OutsideBench &operator=(const OutsideBench &) = delete;

private:
  bool On;
};

/// The calling actor's simulated time: a rank's own, which may be ahead of
/// SimGrid's clock (RankClock.h).
double now();

/// Prints "liborrery-sim: error: MESSAGE" and exits with status 2 (bad
/// configuration of the run: the message names the variable or file).
[[noreturn]] void fatal(const std::string &Message);

} // namespace orrery::sim

#endif // ORRERY_SIM_RUNTIME_H
