//===- HintCodes.cpp - Diagnostic codes of the kernel analysis ------------===//

#include "HintCodes.h"

#include <cassert>
#include <iterator>

namespace orrery {

static const HintCodeInfo Table[] = {
    {HintCode::UnknownTrip, "UNKNOWN_TRIP", models::Confidence::Defaulted},
    {HintCode::RowLength, "ROW_LENGTH", models::Confidence::Defaulted},
    {HintCode::BranchProb, "BRANCH_PROB", models::Confidence::Defaulted},
    {HintCode::Switch, "SWITCH", models::Confidence::Defaulted},
    {HintCode::UnknownPattern, "UNKNOWN_PATTERN", models::Confidence::Symbolic},
    {HintCode::UnknownCall, "UNKNOWN_CALL", models::Confidence::Symbolic},
    {HintCode::DependentType, "DEPENDENT_TYPE", models::Confidence::Symbolic},
    {HintCode::DependentShared, "DEPENDENT_SHARED",
     models::Confidence::Symbolic},
    {HintCode::Recursion, "RECURSION", models::Confidence::Unknown},
    {HintCode::IndirectCall, "INDIRECT_CALL", models::Confidence::Unknown},
    {HintCode::InlineAsm, "INLINE_ASM", models::Confidence::Unknown},
    {HintCode::DynamicParallelism, "DYNAMIC_PARALLELISM",
     models::Confidence::Unknown},
    {HintCode::RemoteTransfer, "REMOTE_TRANSFER",
     models::Confidence::Defaulted},
};

const HintCodeInfo &hintCodeInfo(HintCode C) {
  const HintCodeInfo &I = Table[static_cast<unsigned>(C)];
  assert(I.Code == C && "HintCodes table out of order");
  static_assert(std::size(Table) ==
                    static_cast<unsigned>(HintCode::RemoteTransfer) + 1,
                "one row per code");
  return I;
}

} // namespace orrery
