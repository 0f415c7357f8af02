//===- bootstrap_mpi.cpp - MPI backend (when the program initialized MPI) -===//
#include "bootstrap.h"

#include <cstring>
#include <map>

#ifdef RAMC_HAVE_MPI
#define OMPI_SKIP_MPICXX 1 // only the C bindings
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace ramc {

#ifdef RAMC_HAVE_MPI
namespace {

using KeyValues = std::map<std::string, std::vector<uint8_t>>;

void append(std::vector<uint8_t> &Out, const void *P, size_t N) {
  const uint8_t *B = static_cast<const uint8_t *>(P);
  Out.insert(Out.end(), B, B + N);
}

std::vector<uint8_t> serialize(const KeyValues &KV) {
  std::vector<uint8_t> Out;
  for (const auto &E : KV) {
    uint32_t KL = static_cast<uint32_t>(E.first.size());
    uint32_t VL = static_cast<uint32_t>(E.second.size());
    append(Out, &KL, 4);
    append(Out, E.first.data(), KL);
    append(Out, &VL, 4);
    append(Out, E.second.data(), VL);
  }
  return Out;
}

void deserialize(const uint8_t *P, size_t N, KeyValues &KV) {
  size_t I = 0;
  while (I + 4 <= N) {
    uint32_t KL, VL;
    std::memcpy(&KL, P + I, 4);
    I += 4;
    std::string K(reinterpret_cast<const char *>(P + I), KL);
    I += KL;
    std::memcpy(&VL, P + I, 4);
    I += 4;
    KV[K].assign(P + I, P + I + VL);
    I += VL;
  }
}

/// Exchanges all key-values at each fence with MPI_Allgatherv on a
/// duplicate of MPI_COMM_WORLD.
class MpiBootstrap final : public Bootstrap {
public:
  ~MpiBootstrap() override {
    int Finalized = 0;
    MPI_Finalized(&Finalized);
    if (!Finalized && Comm != MPI_COMM_NULL)
      MPI_Comm_free(&Comm);
  }
  const char *name() const override { return "mpi"; }
  bool init(std::string &Err) {
    int Inited = 0;
    MPI_Initialized(&Inited);
    if (!Inited) {
      Err = "MPI bootstrap requested but MPI_Init was not called";
      return false;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &Comm);
    MPI_Comm_rank(Comm, &Rank);
    MPI_Comm_size(Comm, &Size);
    Peers.resize(Size);
    return true;
  }
  bool put(const std::string &Key, const std::vector<uint8_t> &Value,
           std::string &) override {
    Local[Key] = Value;
    return true;
  }
  bool fence(std::string &Err) override {
    std::vector<uint8_t> Mine = serialize(Local);
    int N = static_cast<int>(Mine.size());
    std::vector<int> Counts(Size), Displs(Size);
    if (MPI_Allgather(&N, 1, MPI_INT, Counts.data(), 1, MPI_INT, Comm) !=
        MPI_SUCCESS) {
      Err = "MPI_Allgather failed in the RAMC bootstrap fence";
      return false;
    }
    int Total = 0;
    for (int I = 0; I < Size; ++I) {
      Displs[I] = Total;
      Total += Counts[I];
    }
    std::vector<uint8_t> All(Total > 0 ? Total : 1);
    if (MPI_Allgatherv(Mine.data(), N, MPI_BYTE, All.data(), Counts.data(),
                       Displs.data(), MPI_BYTE, Comm) != MPI_SUCCESS) {
      Err = "MPI_Allgatherv failed in the RAMC bootstrap fence";
      return false;
    }
    for (int I = 0; I < Size; ++I)
      deserialize(All.data() + Displs[I], Counts[I], Peers[I]);
    return true;
  }
  bool get(int Peer, const std::string &Key, std::vector<uint8_t> &Value,
           std::string &Err) override {
    auto It = Peers[Peer].find(Key);
    if (It == Peers[Peer].end()) {
      Err = "MPI bootstrap has no key '" + Key + "' for rank " +
            std::to_string(Peer);
      return false;
    }
    Value = It->second;
    return true;
  }
  bool barrier(const std::function<bool()> &Progress,
               std::string &Err) override {
    MPI_Request Req;
    if (MPI_Ibarrier(Comm, &Req) != MPI_SUCCESS) {
      Err = "MPI_Ibarrier failed";
      return false;
    }
    for (int Done = 0; !Done;) {
      if (MPI_Test(&Req, &Done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        Err = "MPI_Test of the barrier failed";
        return false;
      }
      if (!Done && !Progress()) {
        Err = "not every process reached the barrier before the deadline "
              "(has one exited?)";
        return false; // the MPI_Ibarrier request is abandoned
      }
    }
    return true;
  }

private:
  MPI_Comm Comm = MPI_COMM_NULL;
  KeyValues Local;
  std::vector<KeyValues> Peers;
};

} // namespace

bool mpiAvailable() {
  int Inited = 0, Finalized = 0;
  MPI_Initialized(&Inited);
  MPI_Finalized(&Finalized);
  return Inited && !Finalized;
}

std::unique_ptr<Bootstrap> createMpiBootstrap(std::string &Err) {
  auto B = std::make_unique<MpiBootstrap>();
  if (!B->init(Err))
    return nullptr;
  return B;
}

#else // !RAMC_HAVE_MPI

bool mpiAvailable() { return false; }
std::unique_ptr<Bootstrap> createMpiBootstrap(std::string &Err) {
  Err = "RAMC was built without MPI";
  return nullptr;
}

#endif

} // namespace ramc
