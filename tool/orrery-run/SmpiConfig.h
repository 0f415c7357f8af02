//===- SmpiConfig.h - SimGrid settings of an Orrery run ---------*- C++ -*-===//
//
// The --cfg= and --log= arguments orrery-run gives smpirun; the reasons for
// each are in SmpiConfig.cpp and docs/orrery-run.md.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_SMPICONFIG_H
#define ORRERY_TOOL_RUN_SMPICONFIG_H

#include "RunOptions.h"

#include <cstdint>
#include <string>
#include <vector>

namespace orrery::run {

/// smpi/shared-malloc-blocksize (bytes); see SmpiConfig.cpp.
inline constexpr std::uint64_t SharedMallocBlockSize = 256ull << 20;

struct SmpiConfigInputs {
  int Ranks = 1;
  std::string CollectiveSelector; ///< the machine's mpi.collective_selector
  NetworkMode Network = NetworkMode::Smpi;
  bool HostCompute = false;
  /// The program links liborrery-sim, whose network factor callbacks give
  /// factors of 1 with ORRERY_NETWORK_MODE=ideal.
  bool RuntimeSetsFactors = false;
  double CoreSpeed = 0;           ///< FLOP/s of a simulated CPU core (node.cpu)
  std::vector<std::string> Extra; ///< --smpi-cfg KEY:VALUE, applied last
};

/// The settings, in the order they are passed ("--log=...", "--cfg=...").
std::vector<std::string> smpiSettings(const SmpiConfigInputs &In);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_SMPICONFIG_H
