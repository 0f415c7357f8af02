//===- MpiApis.cpp - MPI calls and their cost annotations -----------------===//
//
// Slots: A = send-side buffer, B = receive-side buffer (an in-out buffer such
// as Bcast's is both), Aux = peer, root or target rank, Handle = the
// communicator or window. Per-rank counts of the v-variants are passed as
// arrays (MpiV); the runtime knows each collective's semantics from the API
// name. Wait/Test families pass their request array as Handles.
//
//===----------------------------------------------------------------------===//

#include "ApiTableEntries.h"

namespace orrery {

static const SiteKind M = SiteKind::Mpi;

static const ApiSpec MpiTable[] = {
    // Point-to-point.
    {"MPI_Send", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Ssend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Bsend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Rsend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Isend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Issend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Ibsend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Irsend", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Send_init", M, mpi("$0", "$1", "$2"), none(), "$3", "$5"},
    {"MPI_Recv", M, none(), mpi("$0", "$1", "$2"), "$3", "$5"},
    {"MPI_Irecv", M, none(), mpi("$0", "$1", "$2"), "$3", "$5"},
    {"MPI_Recv_init", M, none(), mpi("$0", "$1", "$2"), "$3", "$5"},
    {"MPI_Sendrecv", M, mpi("$0", "$1", "$2"), mpi("$5", "$6", "$7"), "$3",
     "$10"},
    {"MPI_Sendrecv_replace", M, mpi("$0", "$1", "$2"), mpi("$0", "$1", "$2"),
     "$3", "$7"},
    {"MPI_Probe", M, none(), none(), "$0", "$2"},
    {"MPI_Iprobe", M, none(), none(), "$0", "$2"},
    // Completion.
    {"MPI_Wait", M, handles("$0", "1"), none(), "", ""},
    {"MPI_Waitall", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Waitany", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Waitsome", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Test", M, handles("$0", "1"), none(), "", ""},
    {"MPI_Testall", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Testany", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Testsome", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Start", M, handles("$0", "1"), none(), "", ""},
    {"MPI_Startall", M, handles("$1", "$0"), none(), "", ""},
    {"MPI_Request_free", M, handles("$0", "1"), none(), "", ""},
    // Collectives (blocking and non-blocking share a layout).
    {"MPI_Barrier", M, none(), none(), "", "$0"},
    {"MPI_Ibarrier", M, none(), none(), "", "$0"},
    {"MPI_Bcast", M, mpi("$0", "$1", "$2"), mpi("$0", "$1", "$2"), "$3", "$4"},
    {"MPI_Ibcast", M, mpi("$0", "$1", "$2"), mpi("$0", "$1", "$2"), "$3", "$4"},
    {"MPI_Reduce", M, mpi("$0", "$2", "$3"), mpi("$1", "$2", "$3"), "$5", "$6"},
    {"MPI_Ireduce", M, mpi("$0", "$2", "$3"), mpi("$1", "$2", "$3"), "$5",
     "$6"},
    {"MPI_Allreduce", M, mpi("$0", "$2", "$3"), mpi("$1", "$2", "$3"), "",
     "$5"},
    {"MPI_Iallreduce", M, mpi("$0", "$2", "$3"), mpi("$1", "$2", "$3"), "",
     "$5"},
    {"MPI_Reduce_scatter", M, mpiv("$0", "$2", "$3"), mpiv("$1", "$2", "$3"),
     "", "$5"},
    {"MPI_Reduce_scatter_block", M, mpi("$0", "$2", "$3"),
     mpi("$1", "$2", "$3"), "", "$5"},
    {"MPI_Scan", M, mpi("$0", "$2", "$3"), mpi("$1", "$2", "$3"), "", "$5"},
    {"MPI_Exscan", M, mpi("$0", "$2", "$3"), mpi("$1", "$2", "$3"), "", "$5"},
    {"MPI_Gather", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "$6", "$7"},
    {"MPI_Igather", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "$6",
     "$7"},
    {"MPI_Gatherv", M, mpi("$0", "$1", "$2"), mpiv("$3", "$4", "$6"), "$7",
     "$8"},
    {"MPI_Scatter", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "$6",
     "$7"},
    {"MPI_Iscatter", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "$6",
     "$7"},
    {"MPI_Scatterv", M, mpiv("$0", "$1", "$3"), mpi("$4", "$5", "$6"), "$7",
     "$8"},
    {"MPI_Allgather", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "",
     "$6"},
    {"MPI_Iallgather", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "",
     "$6"},
    {"MPI_Allgatherv", M, mpi("$0", "$1", "$2"), mpiv("$3", "$4", "$6"), "",
     "$7"},
    {"MPI_Alltoall", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "", "$6"},
    {"MPI_Ialltoall", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"), "",
     "$6"},
    {"MPI_Alltoallv", M, mpiv("$0", "$1", "$3"), mpiv("$4", "$5", "$7"), "",
     "$8"},
    // One-sided.
    {"MPI_Win_create", M, bytes("$0", "$1"), none(), "", "$4"},
    {"MPI_Win_allocate", M, bytes("$4", "$0"), none(), "", "$3"},
    {"MPI_Win_free", M, none(), none(), "", "*($0)"},
    {"MPI_Win_fence", M, none(), none(), "", "$1"},
    {"MPI_Put", M, mpi("$0", "$1", "$2"), none(), "$3", "$7"},
    {"MPI_Rput", M, mpi("$0", "$1", "$2"), none(), "$3", "$7"},
    {"MPI_Get", M, none(), mpi("$0", "$1", "$2"), "$3", "$7"},
    {"MPI_Rget", M, none(), mpi("$0", "$1", "$2"), "$3", "$7"},
    {"MPI_Accumulate", M, mpi("$0", "$1", "$2"), none(), "$3", "$8"},
    {"MPI_Get_accumulate", M, mpi("$0", "$1", "$2"), mpi("$3", "$4", "$5"),
     "$6", "$11"},
    {"MPI_Win_lock", M, none(), none(), "$1", "$3"},
    {"MPI_Win_unlock", M, none(), none(), "$0", "$1"},
    {"MPI_Win_lock_all", M, none(), none(), "", "$1"},
    {"MPI_Win_unlock_all", M, none(), none(), "", "$0"},
    {"MPI_Win_flush", M, none(), none(), "$0", "$1"},
    {"MPI_Win_flush_all", M, none(), none(), "", "$0"},
    {"MPI_Win_flush_local", M, none(), none(), "$0", "$1"},
    {"MPI_Win_flush_local_all", M, none(), none(), "", "$0"},
    // Environment and local calls: hooked for call overhead only.
    {"MPI_Init", M, none(), none(), "", ""},
    {"MPI_Init_thread", M, none(), none(), "", ""},
    {"MPI_Finalize", M, none(), none(), "", ""},
    {"MPI_Abort", M, none(), none(), "", "$0"},
    {"MPI_Comm_rank", M, none(), none(), "", "$0"},
    {"MPI_Comm_size", M, none(), none(), "", "$0"},
    {"MPI_Comm_split", M, none(), none(), "", "$0"},
    {"MPI_Comm_dup", M, none(), none(), "", "$0"},
    {"MPI_Comm_free", M, none(), none(), "", "*($0)"},
    {"MPI_Cart_create", M, none(), none(), "", "$0"},
    {"MPI_Cart_coords", M, none(), none(), "", "$0"},
    {"MPI_Cart_rank", M, none(), none(), "", "$0"},
    {"MPI_Cart_shift", M, none(), none(), "", "$0"},
    {"MPI_Dims_create", M, none(), none(), "", ""},
    {"MPI_Type_size", M, none(), none(), "", ""},
    {"MPI_Type_contiguous", M, none(), none(), "", ""},
    {"MPI_Type_vector", M, none(), none(), "", ""},
    {"MPI_Type_commit", M, none(), none(), "", ""},
    {"MPI_Type_free", M, none(), none(), "", ""},
    {"MPI_Get_count", M, none(), none(), "", ""},
    {"MPI_Get_processor_name", M, none(), none(), "", ""},
    {"MPI_Op_create", M, none(), none(), "", ""},
    {"MPI_Op_free", M, none(), none(), "", ""},
};

llvm::ArrayRef<ApiSpec> mpiApis() { return MpiTable; }

} // namespace orrery
