//===- ApiRows.cpp - The API tables as ApiSpec rows -----------------------===//
//
// One array per family, built from the table files every layer reads
// (apis/include/orrery/apis/*.def).
//
//===----------------------------------------------------------------------===//

#include "ApiTableEntries.h"

namespace orrery {

static const ApiSpec CudaTable[] = {
#define ORRERY_CUDA_API(Name, Op, Hook, Dst, Src, Aux, Stream, DeviceRead,     \
                        Sim)                                                   \
  {#Name, SiteKind::Hook, Dst, Src, Aux, Stream,                               \
   "",    DeviceRead,     #Op, "",  "",  Sim},
#include "orrery/apis/Cuda.def"
#define ORRERY_CUDA_API(Name, Op, Hook, Dst, Src, Aux, Stream, DeviceRead,     \
                        Sim)                                                   \
  {#Name, SiteKind::Hook, Dst, Src, Aux, Stream,                               \
   "",    DeviceRead,     #Op, "",  "",  Sim},
#include "orrery/apis/MathLibs.def"
#define ORRERY_CUDA_API(Name, Op, Hook, Dst, Src, Aux, Stream, DeviceRead,     \
                        Sim)                                                   \
  {#Name, SiteKind::Hook, Dst, Src, Aux, Stream,                               \
   "",    DeviceRead,     #Op, "",  "",  Sim},
#include "orrery/apis/Nccl.def"
};

static const ApiSpec MpiTable[] = {
#define ORRERY_MPI_API(Name, Op, Send, Recv, Peer, Comm, Match, Sim)           \
  {#Name, SiteKind::Mpi, Send, Recv, Peer, Comm, "",                           \
   false, #Op,           "",   "",   Sim,  Match},
#define ORRERY_MPI_COLLECTIVE(Name, Coll, Mode, Send, Recv, Root, Comm, Sim)   \
  {#Name,                                                                      \
   SiteKind::Mpi,                                                              \
   Send,                                                                       \
   Recv,                                                                       \
   Root,                                                                       \
   Comm,                                                                       \
   "",                                                                         \
   false,                                                                      \
   "Collective",                                                               \
   #Coll,                                                                      \
   #Mode,                                                                      \
   Sim,                                                                        \
   collectiveMatch(#Mode)},
#include "orrery/apis/Mpi.def"
};

static const ApiSpec RamcTable[] = {
#define ORRERY_RAMC_API(Name, Op, Src, Dst, Peer, Object, Handle, Sim)         \
  {#Name,  SiteKind::Ramc, Src, Dst, Peer, Object,                             \
   Handle, false,          #Op, "",  "",   Sim},
#include "orrery/apis/Ramc.def"
};

static const char *const IgnoredTable[] = {
#define ORRERY_CUDA_API(...)
#define ORRERY_IGNORED_API(Name) #Name,
#include "orrery/apis/Cuda.def"
#define ORRERY_CUDA_API(...)
#define ORRERY_IGNORED_API(Name) #Name,
#include "orrery/apis/MathLibs.def"
#define ORRERY_CUDA_API(...)
#define ORRERY_IGNORED_API(Name) #Name,
#include "orrery/apis/Nccl.def"
#define ORRERY_MPI_API(...)
#define ORRERY_MPI_COLLECTIVE(...)
#define ORRERY_IGNORED_API(Name) #Name,
#include "orrery/apis/Mpi.def"
#define ORRERY_RAMC_API(...)
#define ORRERY_IGNORED_API(Name) #Name,
#include "orrery/apis/Ramc.def"
};

llvm::ArrayRef<ApiSpec> cudaApis() { return CudaTable; }
llvm::ArrayRef<ApiSpec> mpiApis() { return MpiTable; }
llvm::ArrayRef<ApiSpec> ramcApis() { return RamcTable; }
llvm::ArrayRef<const char *> ignoredApis() { return IgnoredTable; }

} // namespace orrery
