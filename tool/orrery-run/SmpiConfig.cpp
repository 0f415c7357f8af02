//===- SmpiConfig.cpp - SimGrid settings of an Orrery run -----------------===//
//
// Every setting was checked against SimGrid 3.32's option list (an unknown
// key aborts smpirun with "Bad config key"); docs/orrery-run.md explains them.
//
//===----------------------------------------------------------------------===//

#include "SmpiConfig.h"

#include "Collectives.h"

#include <cstdio>

namespace orrery::run {

namespace {

std::string cfg(const std::string &KeyValue) { return "--cfg=" + KeyValue; }

bool setsKey(const std::vector<std::string> &Extra, const std::string &Key) {
  for (const std::string &E : Extra)
    if (E.compare(0, Key.size() + 1, Key + ":") == 0)
      return true;
  return false;
}

} // namespace

std::vector<std::string> smpiSettings(const SmpiConfigInputs &In) {
  std::vector<std::string> S;
  // SimGrid's informational messages would mix with the program's output;
  // warnings and errors still show.
  S.push_back("--log=root.thresh:warning");
  // The runtime's stream actors crash under mmap privatization
  // (docs/orrery-run.md); dlopen loads one copy of the program per rank.
  S.push_back(cfg("smpi/privatization:dlopen"));
  if (In.HostCompute) {
    // SMPI measures the host code between MPI calls and charges
    // measured seconds x host-speed / core speed: with host-speed equal to the
    // machine's core speed, one measured second is one simulated second.
    char Speed[64];
    std::snprintf(Speed, sizeof(Speed), "%.17gf", In.CoreSpeed);
    S.push_back(cfg(std::string("smpi/host-speed:") + Speed));
  } else {
    // Only Orrery's hooks advance the clocks; the workstation's own CPU time
    // does not leak into the prediction.
    S.push_back(cfg("smpi/simulate-computation:no"));
  }
  // For programs that call SMPI_SHARED_MALLOC (liborrery-sim's device memory
  // does not): SMPI maps one shared file block per blocksize bytes, and all
  // ranks live in one process whose mappings are capped by
  // vm.max_map_count (65530 here). At SMPI's
  // default 1 MiB, a 16 GiB device array takes 16,384 mappings and four of
  // them exhaust the process. At 256 MiB it takes 64, so ~1,000 such arrays
  // fit; measured on 16 ranks x 16 GiB: 2.0 s of wall time at 256 MiB against
  // 7.9 s at 64 MiB, while the block itself costs 256 MiB of page cache once.
  S.push_back(cfg("smpi/shared-malloc-blocksize:" +
                  std::to_string(SharedMallocBlockSize)));
  // Every actor's stack (a rank and each of its CUDA streams) is one mapping
  // plus one for its guard page; at 4,096 GPUs the guard pages alone would
  // take 16,384 of the 65,530 mappings the process may have.
  S.push_back(cfg("contexts/guard-size:0"));
  // Polling loops (docs/orrery-run.md): SMPI's own defaults, stated so a
  // report's command line shows them. Each MPI_Test that finds its request
  // incomplete charges 0.1 ms times the number of failed tests so far, and
  // each clock read 10 ns (liborrery-sim grows it in polling loops).
  S.push_back(cfg("smpi/test:0.0001"));
  S.push_back(cfg("smpi/grow-injected-times:yes"));
  S.push_back(cfg("smpi/wtime:1e-08"));
  // Collectives: SMPI's own selectors are unfit for performance studies or
  // slow to start; mirror Open MPI 4.1's choices.
  if (!setsKey(In.Extra, "smpi/coll-selector")) {
    if (hasCollectiveTable(In.CollectiveSelector)) {
      for (const CollectiveChoice &C : openMpiTunedChoices(In.Ranks))
        S.push_back(cfg("smpi/" + C.Collective + ":" + C.Algorithm));
    } else if (!In.CollectiveSelector.empty()) {
      S.push_back(cfg("smpi/coll-selector:" + In.CollectiveSelector));
    }
  }
  if (In.Network == NetworkMode::Ideal) {
    // T_net = sum of route latencies + bytes / bottleneck bandwidth: no
    // size-dependent correction factors, no 5% reverse traffic per flow, no
    // TCP window bound (gamma / 2 latency). liborrery-sim applies factors of
    // 1 itself (its callbacks, which SimGrid refuses once a factor option is
    // set, also keep PCIe and NVLink flows right); for other programs the
    // factor tables are set here. A bare "1" crashes SMPI 3.32; the table
    // form "0:1" means factor 1 from 0 bytes on.
    if (!In.RuntimeSetsFactors) {
      S.push_back(cfg("smpi/bw-factor:0:1"));
      S.push_back(cfg("smpi/lat-factor:0:1"));
    }
    S.push_back(cfg("network/crosstraffic:0"));
    S.push_back(cfg("network/TCP-gamma:0"));
  }
  for (const std::string &E : In.Extra)
    S.push_back(cfg(E));
  return S;
}

} // namespace orrery::run
