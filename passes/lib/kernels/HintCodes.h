//===- HintCodes.h - Diagnostic codes of the kernel analysis ---*- C++ -*-===//
//
// Every diagnostic a kernel hint can carry, with the confidence it leaves
// the hint at. The table in docs/kernel-cost.md lists the same codes.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELS_HINTCODES_H
#define ORRERY_PASSES_KERNELS_HINTCODES_H

#include "orrery/models/KernelCounts.h"

namespace orrery {

enum class HintCode {
  UnknownTrip,
  RowLength,
  BranchProb,
  Switch,
  UnknownPattern,
  UnknownCall,
  DependentType,
  DependentShared,
  Recursion,
  IndirectCall,
  InlineAsm,
  DynamicParallelism,
  RemoteTransfer,
};

struct HintCodeInfo {
  HintCode Code;
  const char *Name;              ///< as printed: UNKNOWN_TRIP
  models::Confidence Confidence; ///< what the code leaves the hint at
};

const HintCodeInfo &hintCodeInfo(HintCode C);

} // namespace orrery

#endif
