//===- MpiResultRecorder.cpp - MPI results a native run got ---------------===//

#include "MpiResultRecorder.h"
#include "DeviceReadRecorder.h"

#include "orrery/apis/MpiResults.h"

#include <dlfcn.h>

#include <cstring>
#include <string_view>
#include <vector>

namespace orrery::native {

namespace {

/// MPI's calls as the program links them. Handles travel as intptr_t (the
/// hook ABI's form): a pointer in Open MPI, an int in MPICH, both passed in
/// one integer register.
struct MpiCalls {
  using HandleInt = int (*)(intptr_t, int *);
  using TypeName = int (*)(intptr_t, char *, int *);
  HandleInt CommRank = nullptr, TypeSize = nullptr;
  TypeName GetName = nullptr;
  /// Bytes of an MPI_Request: a pointer in Open MPI, an int elsewhere.
  std::size_t RequestBytes = sizeof(int);

  static const MpiCalls &get() {
    static const MpiCalls C = [] {
      MpiCalls M;
      M.CommRank =
          reinterpret_cast<HandleInt>(dlsym(RTLD_DEFAULT, "MPI_Comm_rank"));
      M.TypeSize =
          reinterpret_cast<HandleInt>(dlsym(RTLD_DEFAULT, "MPI_Type_size"));
      M.GetName =
          reinterpret_cast<TypeName>(dlsym(RTLD_DEFAULT, "MPI_Type_get_name"));
      if (dlsym(RTLD_DEFAULT, "ompi_request_null"))
        M.RequestBytes = sizeof(void *);
      return M;
    }();
    return C;
  }
  bool usable() const { return CommRank && TypeSize && GetName; }
};

/// A result to record once its call (or request) completes.
struct Pending {
  const orrery_site *Site = nullptr;
  const unsigned char *Buf = nullptr;
  std::size_t Bytes = 0;
  const char *Type = "bytes";
  const void *Request = nullptr; ///< nonblocking: the program's request
  unsigned char Handle[sizeof(void *)] = {}; ///< the request when issued
  bool Issued = false; ///< the call that started it has returned
};

thread_local std::vector<Pending> Results;

bool requestChanged(const Pending &P) {
  return std::memcmp(P.Request, P.Handle, MpiCalls::get().RequestBytes) != 0;
}

} // namespace

void mpiResultBegin(const orrery_site *Site, const orrery_buf &Recv, int Root,
                    intptr_t Comm, const void *Request) {
  if (!recordingReads() || !Site->api || Recv.form != ORRERY_BUF_MPI ||
      !Recv.ptr || Recv.count <= 0)
    return;
  apis::MpiResultCall Call = apis::mpiResultCall(Site->api);
  const MpiCalls &Mpi = MpiCalls::get();
  if (Call.Kind == apis::MpiResult::None || !Mpi.usable() ||
      (Call.Nonblocking && !Request))
    return;
  int Me = -1, Size = 0, Length = 0;
  if (Call.Kind == apis::MpiResult::RootOnly &&
      (Mpi.CommRank(Comm, &Me) != 0 || Me != Root))
    return;
  char Name[256] = "";
  if (Mpi.TypeSize(Recv.datatype, &Size) != 0 || Size <= 0 ||
      Mpi.GetName(Recv.datatype, Name, &Length) != 0)
    return;
  Pending P;
  P.Site = Site;
  P.Buf = static_cast<const unsigned char *>(Recv.ptr);
  P.Bytes = static_cast<std::size_t>(Recv.count) * Size;
  P.Type =
      apis::mpiValueType(std::string_view(Name, strnlen(Name, sizeof Name)));
  P.Request = Call.Nonblocking ? Request : nullptr;
  Results.push_back(P);
}

void mpiResultEnd(const orrery_site *Site, long long Result) {
  if (Results.empty())
    return;
  // The call that started the newest result: a blocking call's result is
  // there; a nonblocking call's request is noted as MPI issued it.
  Pending &Last = Results.back();
  if (!Last.Issued && Last.Site == Site) {
    if (Result != 0) {
      Results.pop_back(); // the program saw an error, not a result
    } else if (!Last.Request) {
      recordRead(Last.Site, Last.Type, Last.Buf, Last.Bytes);
      Results.pop_back();
    } else {
      std::memcpy(Last.Handle, Last.Request, MpiCalls::get().RequestBytes);
      Last.Issued = true;
    }
    return;
  }
  // Requests a wait or test completed since (MPI resets the program's
  // handle to MPI_REQUEST_NULL), in the order they were started.
  for (auto P = Results.begin(); P != Results.end();) {
    if (P->Issued && requestChanged(*P)) {
      recordRead(P->Site, P->Type, P->Buf, P->Bytes);
      P = Results.erase(P);
    } else {
      ++P;
    }
  }
}

} // namespace orrery::native
