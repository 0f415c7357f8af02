//===- ProcessorSharing.cpp - Jobs sharing one processor equally ----------===//

#include "orrery/models/ProcessorSharing.h"

#include <algorithm>

namespace orrery::models {

void projectSharedEnds(std::vector<SharedJob> &Jobs, double From) {
  std::sort(
      Jobs.begin(), Jobs.end(),
      [](const SharedJob &A, const SharedJob &B) { return A.Work < B.Work; });
  double At = From, Done = 0;
  for (std::size_t I = 0, N = Jobs.size(); I < N; ++I) {
    At += (Jobs[I].Work - Done) * static_cast<double>(N - I);
    Done = Jobs[I].Work;
    Jobs[I].End = At;
  }
}

void advanceShared(std::vector<SharedJob> &Jobs, double From, double To) {
  if (To <= From)
    return;
  std::sort(
      Jobs.begin(), Jobs.end(),
      [](const SharedJob &A, const SharedJob &B) { return A.End < B.End; });
  double At = From;
  for (std::size_t I = 0, N = Jobs.size(); I < N; ++I) {
    double Until = std::min(Jobs[I].End, To);
    if (Until > At) {
      double Each = (Until - At) / static_cast<double>(N - I);
      for (std::size_t J = I; J < N; ++J)
        Jobs[J].Work = std::max(0.0, Jobs[J].Work - Each);
      At = Until;
    }
    if (Jobs[I].End > To)
      break;
    Jobs[I].Work = 0;
  }
}

} // namespace orrery::models
