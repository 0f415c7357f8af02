//===- Events.cpp - The simulated events a run went through ---------------===//

#include "Events.h"
#include "mpi/MpiClass.h"

#include <string_view>
#include <unordered_set>

namespace orrery::sim {

namespace {

/// The CUDA calls that copy or set memory (Cuda.def's Copy and Set rows).
bool isCopy(const std::string &Api) {
  static const std::unordered_set<std::string_view> Names = [] {
    struct Row {
      std::string_view Name, Op;
    };
    const Row Rows[] = {
#define ORRERY_CUDA_API(Name, Op, Hook, Dst, Src, Aux, Stream, DeviceRead,     \
                        Sim)                                                   \
  {#Name, #Op},
#include "orrery/apis/Cuda.def"
    };
    std::unordered_set<std::string_view> S;
    for (const Row &R : Rows)
      if (R.Op == "Copy" || R.Op == "Set")
        S.insert(R.Name);
    return S;
  }();
  return Names.count(Api) != 0;
}

} // namespace

void countCalls(EventCounts &E, const std::string &Api, double Calls) {
  if (isCopy(Api)) {
    E.Copies += Calls;
    return;
  }
  switch (mpiEventOf(Api.c_str())) {
  case MpiEvent::Message:
    E.MpiMessages += Calls;
    break;
  case MpiEvent::Collective:
    E.MpiCollectives += Calls;
    break;
  case MpiEvent::None:
    break;
  }
}

} // namespace orrery::sim
