//===- sim_bootstrap.cpp - the bootstrap under SMPI -----------------------===//
//
// libramc-sim's only bootstrap: ranks and size are SMPI's (the calling
// actor's "rank" property and smpi/np), records are exchanged through
// SimBarrier's store, fences and barriers are SimBarrier's. A RAMC program
// need not call MPI_Init: the first context of a rank initializes SMPI's MPI
// for it, because SMPI serves simulated time (clock_gettime, gettimeofday,
// MPI_Wtime) only to initialized ranks - the others read the real clock. It
// is never finalized by RAMC, so that time stays simulated after
// ramc_finalize (SMPI then notes that not every rank called MPI_Finalize).
//
//===----------------------------------------------------------------------===//
#include "bootstrap.h"

#include "sim_barrier.h"
#include "sim_world.h"

#include "orrery/sim/Api.h"

#include <mpi.h>

namespace ramc {
namespace {

class SmpiBootstrap final : public Bootstrap {
public:
  SmpiBootstrap() {
    int Initialized = 0;
    MPI_Initialized(&Initialized);
    if (!Initialized)
      MPI_Init(nullptr, nullptr);
    Rank = orrery::sim::api::rank();
    Size = sim::SimWorld::get().size();
    setSerial(sim::SimBarrier::get().nextSerial(Rank));
  }
  const char *name() const override { return "smpi"; }
  bool put(const std::string &Key, const std::vector<uint8_t> &Value,
           std::string &) override {
    sim::SimBarrier::get().publish(Rank, Key, Value);
    return true;
  }
  bool fence(std::string &) override {
    return sim::SimBarrier::get().arrive(Rank, Size, nullptr);
  }
  bool get(int Peer, const std::string &Key, std::vector<uint8_t> &Value,
           std::string &Err) override {
    if (sim::SimBarrier::get().lookup(Peer, Key, Value))
      return true;
    Err = "rank " + std::to_string(Peer) + " published no '" + Key +
          "' (has it called ramc_init?)";
    return false;
  }
  bool barrier(const std::function<bool()> &Progress,
               std::string &Err) override {
    if (sim::SimBarrier::get().arrive(Rank, Size, Progress))
      return true;
    Err = "not every process reached the barrier before the deadline (has "
          "one exited?)";
    return false;
  }
};

} // namespace

std::unique_ptr<Bootstrap> createBootstrap(int Which, std::string &Err) {
  // Under smpirun there is one way to find the other ranks; a native
  // choice (RAMC_BOOTSTRAP=pmix, ...) does not apply.
  (void)Which;
  (void)Err;
  return std::make_unique<SmpiBootstrap>();
}

} // namespace ramc
