//===- ResultValues.cpp - Values written over what calls leave ------------===//
//
// Besides copies (DeviceValues.cpp), a program reads results that a
// simulated run cannot compute: the result of an MPI reduction over
// device data, and what a kernel leaves in memory the host reads directly
// (managed or mapped pinned memory: a flag, a count, a norm). A value the
// user set, or a recording, is written over them here.
//
//===----------------------------------------------------------------------===//

#include "DeviceValues.h"
#include "ValueChoice.h"
#include "gpu/DeviceMemory.h"
#include "gpu/KernelRegistry.h"
#include "orrery/apis/MpiResults.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace orrery::sim {

namespace {

/// The value type of an MPI datatype ("bytes" for the others), by its
/// name as native runs record it.
std::string mpiValueType(MPI_Datatype D) {
  char Name[MPI_MAX_OBJECT_NAME] = "";
  int Length = 0;
  if (MPI_Type_get_name(D, Name, &Length) != MPI_SUCCESS)
    return "bytes";
  return apis::mpiValueType(std::string_view(Name, Length));
}

/// A result's value, chosen and encoded, to be written at \p Buf.
struct ResultValue {
  const orrery_site *Site = nullptr;
  void *Buf = nullptr;
  std::size_t Bytes = 0;
  std::string ValueType;
  Chosen C;
  std::vector<unsigned char> E;  ///< empty: the computed result stands
  const void *Request = nullptr; ///< nonblocking: the program's request
};

std::map<const Rank *, std::vector<ResultValue>> &pendingResults() {
  static std::map<const Rank *, std::vector<ResultValue>> M;
  return M;
}

} // namespace

void mpiResultBegin(Rank &R, const orrery_site *Site, const orrery_buf &Result,
                    const void *Request) {
  if (!resultValuesGiven() || !Site || !Result.ptr || Result.count <= 0)
    return;
  std::string Via;
  UserValue *User = userValues().empty() ? nullptr : userValueFor(Site, Via);
  if (!User && !hasRecording(Site, R))
    return; // the computed result stands, and is not listed
  auto Type = reinterpret_cast<MPI_Datatype>(Result.datatype);
  int Size = 0;
  if (MPI_Type_size(Type, &Size) != MPI_SUCCESS || Size <= 0)
    return;
  ResultValue V;
  V.Site = Site;
  V.Buf = const_cast<void *>(Result.ptr);
  V.Bytes = static_cast<std::size_t>(Result.count) * Size;
  V.ValueType = mpiValueType(Type);
  V.C = chooseValue(R, Site, User, Via, nullptr);
  encodeChosen(V.C, V.ValueType, V.E);
  V.Request = Request;
  pendingResults()[&R].push_back(std::move(V));
}

void mpiResultsCompleted(Rank &R) {
  auto &All = pendingResults();
  if (All.empty())
    return;
  auto It = All.find(&R);
  if (It == All.end())
    return;
  auto &Pending = It->second;
  for (auto P = Pending.begin(); P != Pending.end();) {
    if (!P->Request ||
        *static_cast<const MPI_Request *>(P->Request) == MPI_REQUEST_NULL) {
      if (!P->E.empty())
        fill(P->Buf, P->Bytes, P->E);
      recordRead(P->C, P->Site, P->ValueType, static_cast<double>(P->Bytes));
      P = Pending.erase(P);
    } else {
      ++P;
    }
  }
  if (Pending.empty())
    All.erase(It);
}

namespace {

/// A pointer parameter of a registered kernel: its index and element type.
struct OutputParam {
  unsigned Index = 0;
  std::string Name, Type;
};

/// Parameter \p Arg (a name, or an index from 0) of \p E among its pointer
/// parameters (orrery_kernel_entry::pointees: "INDEX:NAME:TYPE ...").
std::optional<OutputParam> pointerParam(const orrery_kernel_entry &E,
                                        const std::string &Arg) {
  if (!E.pointees)
    return std::nullopt;
  std::string_view Rest = E.pointees;
  while (!Rest.empty()) {
    std::size_t Space = Rest.find(' ');
    std::string_view Item = Rest.substr(0, Space);
    Rest = Space == std::string_view::npos ? "" : Rest.substr(Space + 1);
    std::size_t C1 = Item.find(':'), C2 = Item.rfind(':');
    if (C1 == std::string_view::npos || C1 == C2)
      continue;
    std::string Index(Item.substr(0, C1));
    if (Item.substr(C1 + 1, C2 - C1 - 1) == Arg || Index == Arg)
      return OutputParam{static_cast<unsigned>(std::atoi(Index.c_str())),
                         std::string(Item.substr(C1 + 1, C2 - C1 - 1)),
                         std::string(Item.substr(C2 + 1))};
  }
  return std::nullopt;
}

/// A kernel output's value that cannot be written, said once per site and
/// argument.
void cannotWrite(const orrery_site *Site, const std::string &Arg,
                 const std::string &Why) {
  static std::set<std::pair<const orrery_site *, std::string>> Said;
  if (!Said.emplace(Site, Arg).second)
    return;
  Runtime::get().report().warn("the value for " + std::string(Site->file) +
                               ":" + std::to_string(Site->line) + "@" + Arg +
                               " was not written: " + Why);
}

} // namespace

void kernelOutputs(Rank &R, const PendingLaunch &Launch, const void *Func,
                   void **Args) {
  const orrery_site *Site = Launch.Site;
  if (!Site || !Site->file)
    return;
  // The user's FILE:LINE@ARG values, then a pragma's `ARG=VALUE`.
  struct Target {
    std::string Arg;
    UserValue *User = nullptr;
    const char *Pragma = nullptr;
    std::optional<OutputParam> Param;
  };
  std::vector<Target> Targets;
  for (UserValue &U : userValues())
    if (!U.Arg.empty() && U.Line == Site->line &&
        sameFile(U.File, Site->file)) {
      U.Used = true;
      Targets.push_back({U.Arg, &U, nullptr, std::nullopt});
    }
  if (Launch.OutputArg && Launch.OutputValue)
    Targets.push_back(
        {Launch.OutputArg, nullptr, Launch.OutputValue, std::nullopt});
  if (Targets.empty())
    return;
  const orrery_kernel_entry *E = registeredKernel(Func);
  for (Target &T : Targets) {
    if (E)
      T.Param = pointerParam(*E, T.Arg);
    if (!T.Param)
      cannotWrite(Site, T.Arg,
                  E ? "the kernel " + std::string(E->name) +
                          " has no pointer parameter '" + T.Arg +
                          "' (name one of its pointer parameters, or its "
                          "index from 0)"
                    : std::string("the kernel launched there was not "
                                  "instrumented, so its parameters are "
                                  "unknown"));
  }
  for (const Target &T : Targets) {
    if (!T.Param)
      continue;
    // A user's value for the argument wins over the pragma's.
    if (T.Pragma &&
        std::any_of(Targets.begin(), Targets.end(), [&](const Target &U) {
          return U.User && U.Param && U.Param->Index == T.Param->Index;
        }))
      continue;
    unsigned I = T.Param->Index;
    void *Ptr =
        Args && Args[I] ? *static_cast<void *const *>(Args[I]) : nullptr;
    const Allocation *A = Ptr ? DeviceMemory::get().find(Ptr) : nullptr;
    if (!Ptr || (A && A->Kind == MemoryKind::Device)) {
      cannotWrite(Site, T.Arg,
                  Ptr ? "it points into device memory (cudaMalloc), which "
                        "the host reads through a copy: set the value at "
                        "that copy's line"
                      : "the argument is a null pointer");
      continue;
    }
    Chosen C = chooseValue(R, Site, T.User, "", T.Pragma);
    C.Site += "@" + (T.Param->Name.empty() ? T.Arg : T.Param->Name);
    std::vector<unsigned char> Bytes;
    if (encodeChosen(C, T.Param->Type, Bytes))
      std::memcpy(Ptr, Bytes.data(), Bytes.size());
    recordRead(C, Site, T.Param->Type, static_cast<double>(Bytes.size()),
               E->name);
  }
}

} // namespace orrery::sim
