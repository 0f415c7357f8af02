//===- ThreadGuards.cpp - Thread-id guards and branch fractions
//-------------===//

#include "Analyzer.h"

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

/// `threadIdx.x == c` (or a variable holding threadIdx.x): the fraction of
/// threads taking the branch is 1 / blockDim.x.
std::optional<SymExpr> Analyzer::oneThreadPerBlock(const Expr *Cond) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd) {
    // 0 == threadIdx.y && 0 == threadIdx.x: one thread of each block.
    std::optional<SymExpr> L = oneThreadPerBlock(BO->getLHS());
    std::optional<SymExpr> R = oneThreadPerBlock(BO->getRHS());
    if (L && R)
      return *L * *R;
    return std::nullopt;
  }
  if (BO->getOpcode() != BO_EQ)
    return std::nullopt;
  for (auto [Var, Val] : {std::pair{BO->getLHS(), BO->getRHS()},
                          std::pair{BO->getRHS(), BO->getLHS()}}) {
    const Expr *V = Var;
    if (const VarDecl *D = varOf(Var); D && initOf(D) && !LoopVars.count(D))
      V = initOf(D);
    std::string B = builtinName(V);
    if (StringRef(B).starts_with("threadIdx.") && symbolic(Val))
      return SymExpr(1.0) / SymExpr::sym("blockDim." + B.substr(10));
    // The first lane of each warp: (threadIdx.x & 31) == 0,
    // threadIdx.x % 32 == 0 (or % warpSize): one thread in 32.
    if (const auto *Lane = dyn_cast<BinaryOperator>(V->IgnoreParenImpCasts());
        Lane && (Lane->getOpcode() == BO_And || Lane->getOpcode() == BO_Rem) &&
        builtinName(Lane->getLHS()) == "threadIdx.x" && symbolic(Val)) {
      std::optional<SymExpr> M = symbolic(Lane->getRHS());
      std::optional<double> W = M ? M->constant() : std::nullopt;
      if (Lane->getOpcode() == BO_Rem && !W &&
          builtinName(Lane->getRHS()) == "warpSize")
        W = 32;
      if (W && Lane->getOpcode() == BO_And)
        W = *W + 1; // x & (2^k - 1) is x mod 2^k
      if (W && *W >= 1 && *W <= 32)
        return SymExpr(1.0) / SymExpr::min(SymExpr(*W),
                                            SymExpr::sym("blockDim.x"));
    }
  }
  return std::nullopt;
}

/// `if (flag)` on a bool kernel parameter: taken by every thread or none,
/// as the launch decides.
std::optional<SymExpr> Analyzer::flagParameter(const Expr *Cond) {
  const Expr *C = Cond->IgnoreParenImpCasts();
  const auto *P = dyn_cast_or_null<ParmVarDecl>(varOf(C));
  if (!P || !InlineStack.empty() || !P->getType()->isBooleanType())
    return std::nullopt;
  return SymExpr::sym(P->getName().str());
}

std::optional<Rel> relOf(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return Rel::LT;
  case BO_LE:
    return Rel::LE;
  case BO_GT:
    return Rel::GT;
  case BO_GE:
    return Rel::GE;
  case BO_EQ:
    return Rel::EQ;
  case BO_NE:
    return Rel::NE;
  default:
    return std::nullopt;
  }
}

bool Analyzer::threadCompares(const Expr *Cond, bool Negated,
                              std::vector<Compare> &Out, bool &Other,
                              unsigned Depth) {
  if (!Cond || Depth > 24) {
    Other = true;
    return !Out.empty();
  }
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return threadCompares(U->getSubExpr(), !Negated, Out, Other, Depth + 1);
  if (const VarDecl *V = varOf(Cond); V && initOf(V) &&
                                      !LoopVars.count(V) &&
                                      V->getType()->isBooleanType())
    // const bool inside = i >= 1 && i < n - 1; if (inside)
    return threadCompares(initOf(V), Negated, Out, Other, Depth + 1);
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (BO && ((!Negated && BO->getOpcode() == BO_LAnd) ||
             (Negated && BO->getOpcode() == BO_LOr))) {
    threadCompares(BO->getLHS(), Negated, Out, Other, Depth + 1);
    threadCompares(BO->getRHS(), Negated, Out, Other, Depth + 1);
    return !Out.empty();
  }
  std::optional<Rel> R = BO ? relOf(BO->getOpcode()) : std::nullopt;
  std::optional<SymExpr> L = R ? symbolic(BO->getLHS()) : std::nullopt;
  std::optional<SymExpr> B = L ? symbolic(BO->getRHS()) : std::nullopt;
  if (!B || !(mentionsThread(*L) || mentionsThread(*B))) {
    Other = true;
    return !Out.empty();
  }
  Compare C{*L, Negated ? negated(*R) : *R, *B};
  ThreadSet Trial;
  if (!Trial.constrain(C.L, C.R, C.Bound)) {
    Other = true;
    return !Out.empty();
  }
  Out.push_back(std::move(C));
  return true;
}

/// Records a thread-id guard (`i >= 1 && i < n - 1`, or its negation before
/// an early return) in the kernel's active threads. Returns true if every
/// part of Cond bounds a thread coordinate.
bool Analyzer::guard(const Expr *Cond, bool Negated) {
  std::vector<Compare> Cs;
  bool Other = false;
  if (!threadCompares(Cond, Negated, Cs, Other) || Other)
    return false;
  for (const Compare &C : Cs)
    Kernel.constrain(C.L, C.R, C.Bound);
  GuardNotes.push_back(loc(Cond->getBeginLoc()));
  return true;
}

std::optional<SymExpr> Analyzer::reductionStep(const Expr *Cond,
                                               const SymExpr &Mult) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || (BO->getOpcode() != BO_LT && BO->getOpcode() != BO_GT))
    return std::nullopt;
  const Expr *T = BO->getLHS(), *S = BO->getRHS();
  if (BO->getOpcode() == BO_GT)
    std::swap(T, S);
  auto It = LoopVars.find(varOf(S));
  if (It == LoopVars.end() || !It->second.Sum)
    return std::nullopt;
  std::optional<SymExpr> X = symbolic(T);
  std::optional<ThreadAtom> A = X ? threadAtom(*X) : std::nullopt;
  if (!A || A->Kind != CoordKind::Local || A->Dim != 0 ||
      A->Coef.constant() != 1.0 || !A->Offset.isZero())
    return std::nullopt;
  // Step s lets s of the blockDim.x threads in (s <= blockDim.x): over the
  // loop, sum(s) / blockDim.x executions per thread.
  const LoopVar &LV = It->second;
  SymExpr PerThread = *LV.Sum / SymExpr::sym("blockDim.x");
  if (Mult == LV.OuterMult * LV.Trip)
    return LV.OuterMult * PerThread;
  return Mult * (PerThread / LV.Trip);
}

} // namespace kernels
} // namespace orrery
