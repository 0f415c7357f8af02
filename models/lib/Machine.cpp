//===- Machine.cpp - Names of machine-model enumerations ------------------===//

#include "orrery/models/Machine.h"

namespace orrery::models {

std::string_view precisionName(Precision P) {
  switch (P) {
  case Precision::FP64:
    return "fp64";
  case Precision::FP32:
    return "fp32";
  case Precision::FP16:
    return "fp16";
  }
  return "?";
}

std::string_view topologyName(TopologyKind K) {
  switch (K) {
  case TopologyKind::FatTree:
    return "fat-tree";
  case TopologyKind::Dragonfly:
    return "dragonfly";
  case TopologyKind::Flat:
    return "flat";
  }
  return "?";
}

std::string_view networkFiguresName(NetworkFigures F) {
  return F == NetworkFigures::Mpi ? "mpi" : "link";
}

namespace {
constexpr std::string_view CollectiveNames[NumCollectives] = {
    "allreduce",      "reduce",    "reduce_scatter_block",
    "reduce_scatter", "scan",      "exscan",
    "bcast",          "allgather", "gather",
    "scatter",        "alltoall",  "barrier"};
} // namespace

std::string_view collectiveName(Collective C) {
  return CollectiveNames[static_cast<int>(C)];
}

bool parseCollective(std::string_view Name, Collective &Out) {
  for (int I = 0; I < NumCollectives; ++I)
    if (CollectiveNames[I] == Name) {
      Out = static_cast<Collective>(I);
      return true;
    }
  return false;
}

double Machine::estimateShare() const {
  if (Quantities.empty())
    return 0;
  std::size_t Estimates = 0;
  for (const NamedQuantity &NQ : Quantities)
    if (NQ.Q.Kind == ValueKind::Estimate)
      ++Estimates;
  return static_cast<double>(Estimates) / Quantities.size();
}

} // namespace orrery::models
