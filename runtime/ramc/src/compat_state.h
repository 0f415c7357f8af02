//===- compat_state.h - the RAMC 0.5 API's default context -----*- C++ -*-===//
//
// What the RAMC 0.5-compatible API (compat_api.cpp) keeps between calls:
// the default context, the last error while there is none, and the tags
// ramc_init_check_bb_status confirmed. One per process natively
// (compat_state.cpp); one per simulated rank in libramc-sim, where all ranks
// share one process (sim/sim_compat_state.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_COMPAT_STATE_H
#define RAMC_SRC_COMPAT_STATE_H

#include "ramc/ramc_ctx.h"

#include <cstdint>
#include <map>
#include <string>

namespace ramc {

struct CompatState {
  ramc_ctx_t *Ctx = nullptr;
  std::string Err; // errors while there is no context
  std::map<int, uint64_t> LastCheckedTag;
};

/// The calling process's (or simulated rank's) state.
CompatState &compatState();

} // namespace ramc

#endif
