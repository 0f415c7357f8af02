// NCCL collectives' bus bandwidth by size: the method of NVIDIA's
// nccl-tests (*_perf). For each size from MIN to MAX bytes, doubling: WARMUP
// operations, then ITERS operations queued back to back and the host time
// until every stream has finished, over ITERS; the bus bandwidth is that
// time's algorithm bandwidth times nccl-tests' bus factor (AllReduce
// 2(n-1)/n, AllGather and ReduceScatter (n-1)/n, SendRecv 1), n the GPUs.
// Sizes are nccl-tests' (the whole buffer of AllReduce, the receive buffer
// of AllGather, the send buffer of ReduceScatter; SendRecv sends each size
// to the next GPU and receives as much from the previous one).
//
// One process drives GPUS GPUs (nccl-tests' -g GPUS: one communicator per
// GPU from ncclCommInitAll, each operation a group of one call per GPU), or,
// started as several MPI ranks, each rank drives one GPU (-g 1; the unique
// id over MPI_Bcast) and GPUS is ignored.
// Output (rank 0): OP,bytes,GB/s
// Usage: nccl-busbw allreduce|allgather|reducescatter|sendrecv GPUS MIN MAX
//        [ITERS [WARMUP]]
// Link: -lnccl
#include "common.h"

#include <mpi.h>
#include <nccl.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

void checkNccl(ncclResult_t R, const char *Call, int Line) {
  if (R == ncclSuccess)
    return;
  std::fprintf(stderr, "nccl-busbw.cu:%d: %s: %s\n", Line, Call,
               ncclGetErrorString(R));
  std::exit(1);
}
#define NCHECK(call) checkNccl((call), #call, __LINE__)

enum class Op { AllReduce, AllGather, ReduceScatter, SendRecv };

struct Gpu {
  int Device = 0;
  ncclComm_t Comm = nullptr;
  cudaStream_t Stream = nullptr;
  float *Send = nullptr, *Recv = nullptr;
};

/// One operation of \p Bytes (nccl-tests' size) on every GPU this process
/// drives, as one group.
void issue(Op O, size_t Bytes, int Ranks, std::vector<Gpu> &Gpus) {
  NCHECK(ncclGroupStart());
  for (Gpu &G : Gpus) {
    int Rank = 0;
    NCHECK(ncclCommUserRank(G.Comm, &Rank));
    size_t Count = Bytes / sizeof(float);
    switch (O) {
    case Op::AllReduce:
      NCHECK(ncclAllReduce(G.Send, G.Recv, Count, ncclFloat, ncclSum, G.Comm,
                           G.Stream));
      break;
    case Op::AllGather:
      NCHECK(ncclAllGather(G.Send, G.Recv, Count / Ranks, ncclFloat, G.Comm,
                           G.Stream));
      break;
    case Op::ReduceScatter:
      NCHECK(ncclReduceScatter(G.Send, G.Recv, Count / Ranks, ncclFloat,
                               ncclSum, G.Comm, G.Stream));
      break;
    case Op::SendRecv:
      NCHECK(ncclSend(G.Send, Count, ncclFloat, (Rank + 1) % Ranks, G.Comm,
                      G.Stream));
      NCHECK(ncclRecv(G.Recv, Count, ncclFloat, (Rank + Ranks - 1) % Ranks,
                      G.Comm, G.Stream));
      break;
    }
  }
  NCHECK(ncclGroupEnd());
}

void synchronize(std::vector<Gpu> &Gpus) {
  for (Gpu &G : Gpus) {
    CHECK(cudaSetDevice(G.Device));
    CHECK(cudaStreamSynchronize(G.Stream));
  }
}

double busFactor(Op O, int Ranks) {
  switch (O) {
  case Op::AllReduce:
    return 2.0 * (Ranks - 1) / Ranks;
  case Op::AllGather:
  case Op::ReduceScatter:
    return double(Ranks - 1) / Ranks;
  case Op::SendRecv:
    return 1;
  }
  return 1;
}

int usage() {
  std::fprintf(stderr, "usage: nccl-busbw allreduce|allgather|reducescatter|"
                       "sendrecv GPUS MIN MAX [ITERS [WARMUP]]\n");
  return 2;
}

} // namespace

int main(int Argc, char **Argv) {
  MPI_Init(&Argc, &Argv);
  if (Argc < 5)
    return usage();
  const std::string Name = Argv[1];
  Op O = Name == "allreduce"       ? Op::AllReduce
         : Name == "allgather"     ? Op::AllGather
         : Name == "reducescatter" ? Op::ReduceScatter
         : Name == "sendrecv"      ? Op::SendRecv
                                   : static_cast<Op>(-1);
  if (static_cast<int>(O) < 0)
    return usage();
  int Local = std::atoi(Argv[2]);
  size_t Min = std::strtoull(Argv[3], nullptr, 10);
  size_t Max = std::strtoull(Argv[4], nullptr, 10);
  int Iters = Argc > 5 ? std::atoi(Argv[5]) : 20;
  int Warmup = Argc > 6 ? std::atoi(Argv[6]) : 5;
  int MpiRank = 0, MpiSize = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &MpiRank);
  MPI_Comm_size(MPI_COMM_WORLD, &MpiSize);
  if (Local < 1 || Min < 8 || Max < Min || Iters < 1 || Warmup < 0)
    return usage();

  std::vector<Gpu> Gpus;
  int Ranks = 0;
  if (MpiSize > 1) {
    // One GPU per rank, the node-local one.
    MPI_Comm Node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, MpiRank,
                        MPI_INFO_NULL, &Node);
    int LocalRank = 0;
    MPI_Comm_rank(Node, &LocalRank);
    ncclUniqueId Id;
    if (MpiRank == 0)
      NCHECK(ncclGetUniqueId(&Id));
    MPI_Bcast(&Id, sizeof Id, MPI_BYTE, 0, MPI_COMM_WORLD);
    Gpus.resize(1);
    Gpus[0].Device = LocalRank;
    CHECK(cudaSetDevice(LocalRank));
    NCHECK(ncclCommInitRank(&Gpus[0].Comm, MpiSize, Id, MpiRank));
    Ranks = MpiSize;
  } else {
    std::vector<ncclComm_t> Comms(Local);
    std::vector<int> Devices(Local);
    for (int I = 0; I < Local; ++I)
      Devices[I] = I;
    NCHECK(ncclCommInitAll(Comms.data(), Local, Devices.data()));
    Gpus.resize(Local);
    for (int I = 0; I < Local; ++I) {
      Gpus[I].Device = I;
      Gpus[I].Comm = Comms[I];
    }
    Ranks = Local;
  }
  for (Gpu &G : Gpus) {
    CHECK(cudaSetDevice(G.Device));
    CHECK(cudaStreamCreate(&G.Stream));
    CHECK(cudaMalloc(&G.Send, Max));
    CHECK(cudaMalloc(&G.Recv, Max));
  }

  for (size_t Bytes = Min; Bytes <= Max; Bytes *= 2) {
    for (int I = 0; I < Warmup; ++I)
      issue(O, Bytes, Ranks, Gpus);
    synchronize(Gpus);
    MPI_Barrier(MPI_COMM_WORLD);
    double T0 = seconds();
    for (int I = 0; I < Iters; ++I)
      issue(O, Bytes, Ranks, Gpus);
    synchronize(Gpus);
    double T = (seconds() - T0) / Iters, Slowest = T;
    MPI_Reduce(&T, &Slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (MpiRank == 0)
      std::printf("%s,%zu,%.4g\n", Name.c_str(), Bytes,
                  Bytes / Slowest * busFactor(O, Ranks) / 1e9);
  }

  for (Gpu &G : Gpus) {
    CHECK(cudaSetDevice(G.Device));
    CHECK(cudaFree(G.Send));
    CHECK(cudaFree(G.Recv));
    NCHECK(ncclCommDestroy(G.Comm));
  }
  MPI_Finalize();
  return 0;
}
