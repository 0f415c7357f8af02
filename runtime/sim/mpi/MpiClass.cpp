//===- MpiClass.cpp - What each MPI call is, from the MPI table -----------===//

#include "MpiClass.h"

#include <string_view>
#include <unordered_map>

namespace orrery::sim {

namespace {

constexpr bool nonblockingMode(std::string_view Mode) {
  return Mode == "Nonblocking";
}

/// Each MPI call's operation class, from the MPI table
/// (apis/include/orrery/apis/Mpi.def). Sites carry the API's name.
const std::unordered_map<std::string_view, MpiOp> &opTable() {
  static const std::unordered_map<std::string_view, MpiOp> T = {
#define ORRERY_MPI_API(Name, Op, Send, Recv, Peer, Comm, Match, Sim)           \
  {#Name, {MpiClass::Op}},
#define ORRERY_MPI_COLLECTIVE(Name, Coll, Mode, Send, Recv, Root, Comm, Sim)   \
  {#Name,                                                                      \
   {MpiClass::Collective, models::Collective::Coll, nonblockingMode(#Mode)}},
#include "orrery/apis/Mpi.def"
  };
  return T;
}

} // namespace

MpiOp classify(const char *Api) {
  auto It = opTable().find(Api);
  return It == opTable().end() ? MpiOp() : It->second;
}

MpiEvent mpiEventOf(const char *Api) {
  switch (classify(Api).Class) {
  case MpiClass::Send:
  case MpiClass::SendRecv:
  case MpiClass::OneSidedFrom:
  case MpiClass::OneSidedTo:
    return MpiEvent::Message;
  case MpiClass::Collective:
    return MpiEvent::Collective;
  default:
    return MpiEvent::None;
  }
}

} // namespace orrery::sim
