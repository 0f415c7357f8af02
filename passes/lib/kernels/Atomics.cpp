//===- Atomics.cpp - Atomic calls and their address classes
//-----------------===//

#include "Analyzer.h"

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

void Analyzer::atomicCall(const CallExpr *CE, const SymExpr &Mult) {
  if (CE->getNumArgs() == 0)
    return;
  const Expr *Addr = CE->getArg(0)->IgnoreParenImpCasts();
  Access A;
  A.Dir = "atomic";
  A.Count = Mult;
  A.Location = loc(CE->getBeginLoc());
  QualType PT = CE->getArg(0)->getType();
  A.ElemSize = SymExpr(4.0);
  if (const auto *P = PT->getAs<PointerType>())
    A.ElemSize = elemSize(P->getPointeeType());
  A.ElemBytes =
      A.ElemSize.constant() ? static_cast<unsigned>(*A.ElemSize.constant()) : 0;
  const Expr *Base = Addr, *Index = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(Addr);
      U && U->getOpcode() == UO_AddrOf)
    if (const auto *AS =
            dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
      Base = AS->getBase();
      Index = AS->getIdx();
    }
  const VarDecl *V = varOf(Base);
  A.Array = V ? V->getName().str() : "<expr>";
  A.Space = V && SharedVars.count(V) ? "shared" : "global";
  Coefficient C = Index ? coefficient(Index) : Coefficient::known(0.0);
  if (C.K == Coefficient::Indirect) {
    A.Address = "indirect";
    A.Pattern = AccessPattern::Indirect;
  } else if (C.K == Coefficient::Unknown) {
    A.Address = "unknown";
    A.Pattern = AccessPattern::Unknown;
  } else if (!C.C.isZero()) {
    A.Address = "distinct";
    A.Pattern = AccessPattern::Coalesced;
  } else {
    A.Address =
        Index && mentionsThreadId(Index) ? "same_per_block" : "same_for_grid";
    A.Pattern = AccessPattern::Uniform;
  }
  ++Work;
  H.Accesses.push_back(std::move(A));
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    expr(CE->getArg(I), Mult);
  if (Index)
    expr(Index, Mult);
}

} // namespace kernels
} // namespace orrery
