//===- bootstrap.cpp - choosing a bootstrap backend -----------------------===//
#include "bootstrap.h"

#include "ramc/ramc_codes.h"

#include <cstdlib>
#include <cstring>

namespace ramc {

static int fromEnvironment() {
  const char *V = std::getenv("RAMC_BOOTSTRAP");
  if (!V || !*V)
    return RAMC_BOOTSTRAP_AUTO;
  if (!std::strcmp(V, "pmix"))
    return RAMC_BOOTSTRAP_PMIX;
  if (!std::strcmp(V, "mpi"))
    return RAMC_BOOTSTRAP_MPI;
  if (!std::strcmp(V, "single"))
    return RAMC_BOOTSTRAP_SINGLE;
  return -1;
}

static std::unique_ptr<Bootstrap> createBackend(int Which, std::string &Err) {
  if (Which == RAMC_BOOTSTRAP_AUTO)
    Which = fromEnvironment();
  switch (Which) {
  case RAMC_BOOTSTRAP_PMIX:
    return createPmixBootstrap(Err);
  case RAMC_BOOTSTRAP_MPI:
    return createMpiBootstrap(Err);
  case RAMC_BOOTSTRAP_SINGLE:
    return createSingleBootstrap();
  case RAMC_BOOTSTRAP_AUTO:
    if (pmixAvailable())
      return createPmixBootstrap(Err);
    if (mpiAvailable())
      return createMpiBootstrap(Err);
    return createSingleBootstrap();
  default:
    Err = "RAMC_BOOTSTRAP='" + std::string(std::getenv("RAMC_BOOTSTRAP")) +
          "' is not one of pmix, mpi, single";
    return nullptr;
  }
}

std::unique_ptr<Bootstrap> createBootstrap(int Which, std::string &Err) {
  static int NextSerial = 0;
  std::unique_ptr<Bootstrap> B = createBackend(Which, Err);
  if (B)
    B->setSerial(NextSerial++);
  return B;
}

} // namespace ramc
