//===- MpiResults.h - MPI calls that leave a result on a rank ---*- C++ -*-===//
//
// A program's global decisions (a residual, a particle count) pass through
// an MPI reduction, scan or broadcast even where the value came from memory
// no hook sees. Simulated runs may replace such a result with a user's or a
// recorded value, and native runs record it (docs/simulate.md, "MPI
// results"): both ask here which calls leave one, from the MPI table.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_APIS_MPIRESULTS_H
#define ORRERY_APIS_MPIRESULTS_H

#include <string_view>
#include <unordered_map>

namespace orrery::apis {

enum class MpiResult {
  None,     ///< the call leaves no result a value may stand for
  Everyone, ///< every rank's receive buffer (Allreduce, Bcast, Scan, Exscan)
  RootOnly  ///< the root's receive buffer (Reduce)
};

struct MpiResultCall {
  MpiResult Kind = MpiResult::None;
  bool Nonblocking = false; ///< the result is there once its request is done
};

/// Whether a call of \p Api leaves a result in its receive buffer.
inline MpiResultCall mpiResultCall(std::string_view Api) {
  static const std::unordered_map<std::string_view, MpiResultCall> Calls = [] {
    auto Kind = [](std::string_view Coll) {
      if (Coll == "Reduce")
        return MpiResult::RootOnly;
      if (Coll == "Allreduce" || Coll == "Bcast" || Coll == "Scan" ||
          Coll == "Exscan")
        return MpiResult::Everyone;
      return MpiResult::None;
    };
    std::unordered_map<std::string_view, MpiResultCall> M;
#define ORRERY_MPI_API(Name, Op, Send, Recv, Peer, Comm, Match, Sim)
#define ORRERY_MPI_COLLECTIVE(Name, Coll, Mode, Send, Recv, Root, Comm, Sim)   \
  if (Kind(#Coll) != MpiResult::None)                                          \
    M[#Name] = {Kind(#Coll), std::string_view(#Mode) == "Nonblocking"};
#include "orrery/apis/Mpi.def"
    return M;
  }();
  auto It = Calls.find(Api);
  return It == Calls.end() ? MpiResultCall() : It->second;
}

/// The value type (docs/simulate.md: f32, f64, i8..i64, u8..u64) of an
/// element of the predefined MPI datatype named \p TypeName (what
/// MPI_Type_get_name says: "MPI_DOUBLE"), "bytes" for the others. Names, not
/// handles, so that SMPI and a native MPI agree without one ABI.
inline const char *mpiValueType(std::string_view TypeName) {
  static const std::unordered_map<std::string_view, const char *> Types = {
      {"MPI_DOUBLE", "f64"},
      {"MPI_FLOAT", "f32"},
      {"MPI_INT", "i32"},
      {"MPI_INT32_T", "i32"},
      {"MPI_UNSIGNED", "u32"},
      {"MPI_UINT32_T", "u32"},
      {"MPI_LONG", sizeof(long) == 8 ? "i64" : "i32"},
      {"MPI_LONG_LONG", "i64"},
      {"MPI_LONG_LONG_INT", "i64"},
      {"MPI_INT64_T", "i64"},
      {"MPI_UNSIGNED_LONG", sizeof(long) == 8 ? "u64" : "u32"},
      {"MPI_UNSIGNED_LONG_LONG", "u64"},
      {"MPI_UINT64_T", "u64"},
      {"MPI_SHORT", "i16"},
      {"MPI_INT16_T", "i16"},
      {"MPI_UNSIGNED_SHORT", "u16"},
      {"MPI_UINT16_T", "u16"},
      {"MPI_CHAR", "i8"},
      {"MPI_SIGNED_CHAR", "i8"},
      {"MPI_INT8_T", "i8"},
      {"MPI_UNSIGNED_CHAR", "u8"},
      {"MPI_UINT8_T", "u8"},
      {"MPI_C_BOOL", "u8"},
  };
  auto It = Types.find(TypeName);
  return It == Types.end() ? "bytes" : It->second;
}

} // namespace orrery::apis

#endif
