//===- cxi_tuning.cpp - provider-specific defaults ------------------------===//
//
// Environment defaults RAMC sets before fi_getinfo unless the user already
// set them. The CXI (HPE Slingshot) part is WRITTEN BUT NOT RUN: no Slingshot
// hardware was available when it was written; see docs/ramc.md, "CXI".
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include <cstdlib>

namespace ramc {

static void setDefault(const char *Name, const char *Value) {
  setenv(Name, Value, /*overwrite=*/0);
}

void applyProviderDefaults(const std::string &Provider) {
  // sockets: its progress thread sleeps between polls by default, which
  // costs milliseconds per operation on few cores (7.5 ms -> 116 us).
  setDefault("FI_SOCKETS_PE_WAITTIME", "0");

  // CXI (not run here): RAMC waits by polling counters, never by
  // fi_cntr_wait, so the provider's wait objects are not needed; a counter
  // reaching N must mean that N writes are visible, which the provider
  // guarantees when target ordering is strict. Users who relax it should run
  // with RAMC_DELIVERY_COMPLETE=1.
  if (Provider == "cxi" || (!Provider.empty() && Provider.find("cxi") == 0)) {
    setDefault("FI_CXI_MR_TARGET_ORDERING", "strict");
    setDefault("FI_CXI_OPTIMIZED_MRS", "1");
  }
}

} // namespace ramc
