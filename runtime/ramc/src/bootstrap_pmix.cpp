//===- bootstrap_pmix.cpp - PMIx backend (mpirun, srun --mpi=pmix) --------===//
#include "bootstrap.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#ifdef RAMC_HAVE_PMIX
#include <pmix.h>
#endif

namespace ramc {

#ifdef RAMC_HAVE_PMIX
namespace {

// PMIx is initialized once per process and finalized at exit: the PMIx
// servers of Open MPI and Slurm do not take a client that finalizes and
// initializes again (fences then fail with PARTIAL SUCCESS), and every
// context of the process shares the one connection.
std::mutex SessionLock;
bool SessionUp = false;
pmix_proc_t SessionProc;

void finalizeSession() {
  std::lock_guard<std::mutex> G(SessionLock);
  if (SessionUp)
    PMIx_Finalize(nullptr, 0);
  SessionUp = false;
}

// Whether the init fence collects every process's data (O(N) per process)
// or leaves each PMIx_Get to fetch one peer's data on demand ("direct
// modex", what makes lazy peer resolution scale). RAMC_PMIX_COLLECT=1
// collects, for PMIx servers without direct modex.
bool collectAtFence() {
  const char *V = std::getenv("RAMC_PMIX_COLLECT");
  return V && *V == '1';
}

class PmixBootstrap final : public Bootstrap {
public:
  const char *name() const override { return "pmix"; }

  bool init(std::string &Err) {
    {
      std::lock_guard<std::mutex> G(SessionLock);
      if (!SessionUp) {
        pmix_status_t Rc = PMIx_Init(&SessionProc, nullptr, 0);
        if (Rc != PMIX_SUCCESS) {
          Err = std::string("PMIx_Init failed: ") + PMIx_Error_string(Rc);
          return false;
        }
        SessionUp = true;
        std::atexit(finalizeSession);
      }
      Me = SessionProc;
    }
    pmix_status_t Rc;
    Rank = static_cast<int>(Me.rank);
    pmix_proc_t Job;
    PMIX_PROC_CONSTRUCT(&Job);
    PMIX_LOAD_PROCID(&Job, Me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *Val = nullptr;
    Rc = PMIx_Get(&Job, PMIX_JOB_SIZE, nullptr, 0, &Val);
    if (Rc != PMIX_SUCCESS || !Val) {
      Err = std::string("PMIx_Get(PMIX_JOB_SIZE) failed: ") +
            PMIx_Error_string(Rc);
      return false;
    }
    Size = static_cast<int>(Val->data.uint32);
    PMIX_VALUE_RELEASE(Val);
    return true;
  }

  bool put(const std::string &Key, const std::vector<uint8_t> &Value,
           std::string &Err) override {
    pmix_value_t V;
    PMIX_VALUE_CONSTRUCT(&V);
    V.type = PMIX_BYTE_OBJECT;
    V.data.bo.bytes =
        reinterpret_cast<char *>(const_cast<uint8_t *>(Value.data()));
    V.data.bo.size = Value.size();
    pmix_status_t Rc = PMIx_Put(PMIX_GLOBAL, Key.c_str(), &V);
    if (Rc != PMIX_SUCCESS) {
      Err = "PMIx_Put(" + Key + ") failed: " + PMIx_Error_string(Rc);
      return false;
    }
    Rc = PMIx_Commit();
    if (Rc != PMIX_SUCCESS) {
      Err = std::string("PMIx_Commit failed: ") + PMIx_Error_string(Rc);
      return false;
    }
    return true;
  }

  bool fence(std::string &Err) override {
    return doFence(collectAtFence(), Err);
  }
  bool barrier(const std::function<bool()> &Progress,
               std::string &Err) override {
    struct State {
      std::atomic<int> Done{0};
      pmix_status_t Status = PMIX_SUCCESS;
    };
    // Mark the arrival first (arrivedAtBarrier).
    ++Barriers;
    if (!putValue(arrivalKey(), Barriers, Err))
      return false;
    // On the heap: after a timeout the callback may still run later, so an
    // abandoned State is deliberately leaked.
    auto *St = new State;
    auto Callback = [](pmix_status_t S, void *Data) {
      auto *P = static_cast<State *>(Data);
      P->Status = S;
      P->Done.store(1, std::memory_order_release);
    };
    pmix_status_t Rc = PMIx_Fence_nb(nullptr, 0, nullptr, 0, Callback, St);
    if (Rc != PMIX_SUCCESS) {
      delete St;
      Err = std::string("PMIx_Fence_nb failed: ") + PMIx_Error_string(Rc);
      return false;
    }
    while (!St->Done.load(std::memory_order_acquire))
      if (!Progress()) {
        Err = "not every process reached the barrier before the deadline "
              "(has one exited?)";
        return false;
      }
    pmix_status_t Status = St->Status;
    delete St;
    if (Status != PMIX_SUCCESS) {
      Err = std::string("PMIx fence failed: ") + PMIx_Error_string(Status);
      return false;
    }
    return true;
  }

  bool get(int Peer, const std::string &Key, std::vector<uint8_t> &Value,
           std::string &Err) override {
    pmix_proc_t P;
    PMIX_PROC_CONSTRUCT(&P);
    PMIX_LOAD_PROCID(&P, Me.nspace, static_cast<pmix_rank_t>(Peer));
    pmix_value_t *V = nullptr;
    pmix_status_t Rc = PMIx_Get(&P, Key.c_str(), nullptr, 0, &V);
    if (Rc != PMIX_SUCCESS || !V) {
      Err = "PMIx_Get(" + Key + ") of rank " + std::to_string(Peer) +
            " failed: " + PMIx_Error_string(Rc);
      return false;
    }
    if (V->type != PMIX_BYTE_OBJECT) {
      PMIX_VALUE_RELEASE(V);
      Err = "PMIx_Get(" + Key + ") of rank " + std::to_string(Peer) +
            " returned an unexpected type";
      return false;
    }
    Value.assign(V->data.bo.bytes, V->data.bo.bytes + V->data.bo.size);
    PMIX_VALUE_RELEASE(V);
    return true;
  }

  Arrival arrivedAtBarrier(int Peer) override {
    auto Known = Reached.find(Peer);
    if (Known != Reached.end() && Known->second >= Barriers)
      return Arrival::Yes;
    pmix_proc_t P;
    PMIX_PROC_CONSTRUCT(&P);
    PMIX_LOAD_PROCID(&P, Me.nspace, static_cast<pmix_rank_t>(Peer));
    pmix_info_t Info;
    PMIX_INFO_CONSTRUCT(&Info);
    bool True = true;
    PMIX_INFO_LOAD(&Info, PMIX_OPTIONAL, &True, PMIX_BOOL);
    pmix_value_t *V = nullptr;
    pmix_status_t Rc = PMIx_Get(&P, arrivalKey().c_str(), &Info, 1, &V);
    PMIX_INFO_DESTRUCT(&Info);
    if (Rc == PMIX_ERR_NOT_FOUND)
      return Arrival::No;
    if (Rc != PMIX_SUCCESS || !V || V->type != PMIX_UINT64) {
      if (V)
        PMIX_VALUE_RELEASE(V);
      return Arrival::Unknown;
    }
    uint64_t Count = V->data.uint64;
    PMIX_VALUE_RELEASE(V);
    Reached[Peer] = Count;
    return Count >= Barriers ? Arrival::Yes : Arrival::No;
  }

private:
  /// How many barriers this process entered, under one key per context
  /// that every barrier overwrites.
  std::string arrivalKey() const {
    return "ramc.barriers." + std::to_string(serial());
  }
  bool putValue(const std::string &Key, uint64_t Value, std::string &Err) {
    pmix_value_t V;
    PMIX_VALUE_CONSTRUCT(&V);
    V.type = PMIX_UINT64;
    V.data.uint64 = Value;
    pmix_status_t Rc = PMIx_Put(PMIX_GLOBAL, Key.c_str(), &V);
    if (Rc == PMIX_SUCCESS)
      Rc = PMIx_Commit();
    if (Rc != PMIX_SUCCESS) {
      Err = "PMIx_Put(" + Key + ") failed: " + PMIx_Error_string(Rc);
      return false;
    }
    return true;
  }

  bool doFence(bool Collect, std::string &Err) {
    pmix_info_t Info;
    PMIX_INFO_CONSTRUCT(&Info);
    bool True = true;
    PMIX_INFO_LOAD(&Info, PMIX_COLLECT_DATA, &True, PMIX_BOOL);
    pmix_status_t Rc =
        PMIx_Fence(nullptr, 0, Collect ? &Info : nullptr, Collect ? 1 : 0);
    PMIX_INFO_DESTRUCT(&Info);
    if (Rc != PMIX_SUCCESS) {
      Err = std::string("PMIx_Fence failed: ") + PMIx_Error_string(Rc);
      return false;
    }
    return true;
  }

  pmix_proc_t Me;
  uint64_t Barriers = 0;
  std::map<int, uint64_t> Reached; // barriers peers are known to have entered
};

} // namespace

bool pmixAvailable() {
  return std::getenv("PMIX_NAMESPACE") && std::getenv("PMIX_RANK");
}

std::unique_ptr<Bootstrap> createPmixBootstrap(std::string &Err) {
  auto B = std::make_unique<PmixBootstrap>();
  if (!B->init(Err))
    return nullptr;
  return B;
}

#else // !RAMC_HAVE_PMIX

bool pmixAvailable() { return false; }
std::unique_ptr<Bootstrap> createPmixBootstrap(std::string &Err) {
  Err = "RAMC was built without PMIx (install libpmix-dev and rebuild)";
  return nullptr;
}

#endif

} // namespace ramc
