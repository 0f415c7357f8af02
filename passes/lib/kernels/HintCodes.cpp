//===- HintCodes.cpp - Diagnostic codes of the kernel analysis ------------===//

#include "HintCodes.h"

#include <cassert>
#include <iterator>

namespace orrery {

static const HintCodeInfo Table[] = {
    {HintCode::UnknownTrip, "UNKNOWN_TRIP", "defaulted"},
    {HintCode::RowLength, "ROW_LENGTH", "defaulted"},
    {HintCode::BranchProb, "BRANCH_PROB", "defaulted"},
    {HintCode::Switch, "SWITCH", "defaulted"},
    {HintCode::UnknownPattern, "UNKNOWN_PATTERN", "symbolic"},
    {HintCode::UnknownCall, "UNKNOWN_CALL", "symbolic"},
    {HintCode::DependentType, "DEPENDENT_TYPE", "symbolic"},
    {HintCode::DependentShared, "DEPENDENT_SHARED", "symbolic"},
    {HintCode::Recursion, "RECURSION", "unknown"},
    {HintCode::IndirectCall, "INDIRECT_CALL", "unknown"},
    {HintCode::InlineAsm, "INLINE_ASM", "unknown"},
    {HintCode::DynamicParallelism, "DYNAMIC_PARALLELISM", "unknown"},
};

const HintCodeInfo &hintCodeInfo(HintCode C) {
  const HintCodeInfo &I = Table[static_cast<unsigned>(C)];
  assert(I.Code == C && "HintCodes table out of order");
  static_assert(std::size(Table) ==
                    static_cast<unsigned>(HintCode::DynamicParallelism) + 1,
                "one row per code");
  return I;
}

} // namespace orrery
