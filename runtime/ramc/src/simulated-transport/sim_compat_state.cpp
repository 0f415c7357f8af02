//===- sim_compat_state.cpp - one default context per simulated rank ------===//
//
// smpirun runs all ranks in one process and loads libramc-sim once: the
// RAMC 0.5 API's default context is kept per SMPI rank, found from the
// calling actor (its pid indexes a table: this is on every call's path).
//
//===----------------------------------------------------------------------===//
#include "compat_state.h"

#include <simgrid/s4u/Actor.hpp>

#include <memory>
#include <vector>

namespace ramc {

CompatState &compatState() {
  // Never destroyed, like every state libramc-sim shares between ranks.
  static auto *States = new std::vector<std::unique_ptr<CompatState>>();
  auto Pid = static_cast<size_t>(simgrid::s4u::this_actor::get_pid());
  if (Pid >= States->size())
    States->resize(Pid + 1);
  std::unique_ptr<CompatState> &S = (*States)[Pid];
  if (!S)
    S = std::make_unique<CompatState>();
  return *S;
}

} // namespace ramc
