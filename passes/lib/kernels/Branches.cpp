//===- Branches.cpp - if and switch
//-----------------------------------------===//

#include "Analyzer.h"

#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

bool isEarlyReturn(const IfStmt *If) {
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
    Then = *CS->body_begin();
  return isa<ReturnStmt>(Then);
}

/// A `switch` on a launch-uniform value (a parameter, a template argument,
/// a constant) runs only the taken case: each statement counts with the
/// indicator of the labels that reach it, `[sel == v]`, a constant in an
/// instantiation and `max(0, min(sel - v + 1, v - sel + 1))` otherwise.
void Analyzer::switchStmt(const SwitchStmt *S, const SymExpr &Mult) {
  expr(S->getCond(), Mult);
  std::optional<SymExpr> Sel = symbolic(S->getCond());
  const auto *Body = dyn_cast_or_null<CompoundStmt>(S->getBody());
  if (!Sel || mentionsThread(*Sel) || !Body) {
    diag(HintCode::Switch, S->getBeginLoc(),
         "switch on a value that is not launch-uniform: every case counted "
         "once");
    stmt(S->getBody(), Mult, false);
    return;
  }
  auto Indicator = [&](const Expr *Label) -> std::optional<SymExpr> {
    std::optional<SymExpr> V = symbolic(Label);
    if (!V)
      return std::nullopt;
    if (Sel->constant() && V->constant())
      return SymExpr(*Sel->constant() == *V->constant() ? 1.0 : 0.0);
    return SymExpr::max(0.0, SymExpr::min(*Sel - *V + 1.0, *V - *Sel + 1.0));
  };
  struct Item {
    std::vector<SymExpr> Labels;
    bool Default = false;
    const Stmt *S = nullptr;
  };
  std::vector<Item> Items;
  SymExpr AnyCase(0.0);
  for (const Stmt *Child : Body->body()) {
    Item I;
    while (true) {
      if (const auto *C = dyn_cast<CaseStmt>(Child)) {
        std::optional<SymExpr> Ind =
            C->getRHS() ? std::nullopt : Indicator(C->getLHS());
        if (!Ind) {
          diag(HintCode::Switch, C->getBeginLoc(),
               "case label is not a constant: every case counted once");
          stmt(Body, Mult, false);
          return;
        }
        I.Labels.push_back(*Ind);
        AnyCase = AnyCase + *Ind;
        Child = C->getSubStmt();
      } else if (const auto *D = dyn_cast<DefaultStmt>(Child)) {
        I.Default = true;
        Child = D->getSubStmt();
      } else
        break;
    }
    I.S = Child;
    Items.push_back(std::move(I));
  }
  SymExpr Reach(0.0);
  for (const Item &I : Items) {
    for (const SymExpr &L : I.Labels)
      Reach = Reach + L;
    if (I.Default)
      Reach = Reach + (SymExpr(1.0) - AnyCase);
    if (!Reach.isZero())
      stmt(I.S, Mult * Reach, false);
    const Stmt *Last = I.S;
    if (const auto *CS = dyn_cast<CompoundStmt>(Last); CS && !CS->body_empty())
      Last = CS->body_back();
    if (isa<BreakStmt>(Last) || isa<ReturnStmt>(Last))
      Reach = SymExpr(0.0);
  }
}

void Analyzer::ifStmt(const IfStmt *If, const SymExpr &Mult, bool TopLevel) {
  expr(If->getCond(), Mult);
  const Stmt *Then = If->getThen();
  bool EarlyReturn = isEarlyReturn(If);
  // A guard bounds the kernel's active threads only where nothing has
  // been counted before it (else it is a branch like any other).
  bool KernelGuard = TopLevel && InlineStack.empty() && Work == 0;
  if (KernelGuard && EarlyReturn && !If->getElse() &&
      guard(If->getCond(), /*Negated=*/true))
    return;
  if (KernelGuard && !If->getElse() &&
      guard(If->getCond(), /*Negated=*/false)) {
    stmt(Then, Mult, true);
    return;
  }
  SymExpr P(DefaultBranchProbability);
  bool OneLane = false;
  std::optional<SymExpr> ThenMult;
  std::optional<ThreadSet> Inner, ElseInner;
  std::vector<Compare> Cs, NotCs;
  bool Other = false, NotOther = false;
  bool Constant = false;
  if (!If->getCond()->isValueDependent() &&
      If->getCond()->EvaluateAsBooleanCondition(Constant, Ctx)) {
    // A condition the compiler folds (a template argument, a constant):
    // one branch runs.
    P = SymExpr(Constant ? 1.0 : 0.0);
  } else if (std::optional<double> Side = sideBranch(If->getBeginLoc())) {
    P = SymExpr(*Side);
  } else if (const OrreryPragma *Pr =
                 pragmaBefore(If->getBeginLoc(), "branch_prob")) {
    if (std::optional<SymExpr> V = parseSymExpr(Pr->Text))
      P = *V;
  } else if (std::optional<SymExpr> One = oneThreadPerBlock(If->getCond())) {
    P = *One; // if (threadIdx.x == 0): one thread of each block (or warp)
    OneLane = true;
  } else if (std::optional<SymExpr> Flag = flagParameter(If->getCond())) {
    P = *Flag;
  } else if (std::optional<SymExpr> Step = reductionStep(If->getCond(), Mult)) {
    ThenMult = *Step; // if (threadIdx.x < s) in a halving loop over s
    P = SymExpr(0.0);
  } else if (threadCompares(If->getCond(), false, Cs, Other)) {
    // A branch on thread coordinates: the fraction of the threads here
    // that take it (times 0.5 for a part that is not one).
    Inner = current();
    for (const Compare &C : Cs)
      Inner->constrain(C.L, C.R, C.Bound);
    P = current().fractionIn(*Inner);
    if (Other) {
      P = P * DefaultBranchProbability;
      diag(HintCode::BranchProb, If->getBeginLoc(),
           formatv("part of the condition is not on thread ids: "
                   "probability {0:F1} assumed for it (override with "
                   "#pragma orrery branch_prob(p))",
                   DefaultBranchProbability));
    }
  } else if (threadCompares(If->getCond(), true, NotCs, NotOther) &&
             !NotOther) {
    // A disjunction on thread coordinates (`i < 1 || i >= n - 1`): one
    // minus the fraction that passes its negation, a conjunction.
    ElseInner = current();
    for (const Compare &C : NotCs)
      ElseInner->constrain(C.L, C.R, C.Bound);
    P = SymExpr(1.0) - current().fractionIn(*ElseInner);
  } else if (!EarlyReturn) {
    diag(HintCode::BranchProb, If->getBeginLoc(),
         formatv("branch probability assumed {0:F1} (override with #pragma "
                 "orrery branch_prob(p))",
                 DefaultBranchProbability));
  }
  if (Inner)
    Nest.push_back(*Inner);
  SingleLane += OneLane;
  stmt(Then, ThenMult ? *ThenMult : Mult * P, false);
  SingleLane -= OneLane;
  if (Inner)
    Nest.pop_back();
  if (ElseInner)
    Nest.push_back(*ElseInner);
  if (If->getElse())
    stmt(If->getElse(), ThenMult ? Mult - *ThenMult : Mult * (SymExpr(1.0) - P),
         false);
  if (ElseInner)
    Nest.pop_back();
  return;
}

} // namespace kernels
} // namespace orrery
