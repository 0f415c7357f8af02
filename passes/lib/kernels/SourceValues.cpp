//===- SourceValues.cpp - Source expressions as symbolic values
//-------------===//

#include "Analyzer.h"

#include "clang/AST/ExprCXX.h"

#include <cmath>

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

std::string Analyzer::builtinName(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    E = POE->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *PRE = dyn_cast<MSPropertyRefExpr>(E);
  if (!PRE)
    return "";
  const Expr *BaseE = PRE->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(BaseE))
    BaseE = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Base = dyn_cast<DeclRefExpr>(BaseE);
  if (!Base)
    return "";
  StringRef Var = Base->getDecl()->getName();
  if (Var != "threadIdx" && Var != "blockIdx" && Var != "blockDim" &&
      Var != "gridDim")
    return "";
  return (Var + "." + PRE->getPropertyDecl()->getName()).str();
}

const VarDecl *Analyzer::varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

bool Analyzer::readsMemoryImpl(const Expr *E) {
  if (!E || !builtinName(E).empty())
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      return true;
  if (isa<CallExpr>(E) && builtinName(E).empty())
    return true;
  if (const VarDecl *V = varOf(E))
    if (initOf(V) && !LoopVars.count(V))
      return readsMemory(initOf(V));
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (readsMemory(CE))
        return true;
  return false;
}

bool Analyzer::mentionsThreadIdImpl(const Expr *E, unsigned Depth) {
  if (!E || Depth > 32)
    return false;
  std::string B = builtinName(E);
  if (!B.empty())
    return StringRef(B).starts_with("threadIdx") ||
           StringRef(B).starts_with("blockIdx");
  if (const VarDecl *V = varOf(E)) {
    auto It = LoopVars.find(V);
    if (It != LoopVars.end())
      return mentionsThreadId(It->second.Init, Depth + 1);
    if (initOf(V))
      return mentionsThreadId(initOf(V), Depth + 1);
    return false;
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (mentionsThreadId(CE, Depth))
        return true;
  return false;
}

/// A kernel-parameter/geometry expression as a SymExpr, if it is one.
std::optional<SymExpr> Analyzer::symbolic(const Expr *E, unsigned Depth) {
  if (!E || Depth > 40)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
    return symbolic(C->getSubExpr(), Depth + 1);
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return SymExpr(static_cast<double>(R.Val.getInt().getExtValue()));
  if (const auto *F = dyn_cast<FloatingLiteral>(E))
    return SymExpr(F->getValueAsApproximateDouble());
  std::string B = builtinName(E);
  if (!B.empty())
    return SymExpr::sym(B);
  if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(E)) {
    if (U->getKind() == UETT_SizeOf && U->isArgumentType() &&
        U->getArgumentType()->isDependentType())
      return SymExpr::sym("sizeof(" + U->getArgumentType().getAsString() + ")");
    return std::nullopt;
  }
  if (const VarDecl *V = varOf(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (initOf(P))
        return symbolic(initOf(P), Depth + 1);
      if (P->getType()->isPointerType())
        return std::nullopt;
      return SymExpr::sym(P->getName().str());
    }
    if (LoopVars.count(V))
      return std::nullopt;
    if (V->getInit() && V->getType().isConstQualified())
      return symbolic(V->getInit(), Depth + 1);
    if (initOf(V) && V->isLocalVarDecl())
      return symbolic(initOf(V), Depth + 1);
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(DRE->getDecl()))
      return SymExpr::sym(NT->getName().str());
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    std::optional<bool> Min = minOrMax(CE);
    if (!Min)
      return std::nullopt;
    std::optional<SymExpr> L = symbolic(CE->getArg(0), Depth + 1);
    std::optional<SymExpr> R = symbolic(CE->getArg(1), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    return *Min ? SymExpr::min(*L, *R) : SymExpr::max(*L, *R);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    std::optional<SymExpr> L = symbolic(BO->getLHS(), Depth + 1);
    std::optional<SymExpr> R = symbolic(BO->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      return *L * *R;
    case BO_Div:
      if (BO->getType()->isIntegerType())
        return SymExpr::floorDiv(*L, *R);
      return *L / *R;
    case BO_Shr:
      if (std::optional<double> K = R->constant())
        return *L / std::pow(2.0, *K);
      return std::nullopt;
    case BO_Shl:
      if (std::optional<double> K = R->constant())
        return *L * std::pow(2.0, *K);
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<bool> minOrMax(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || CE->getNumArgs() != 2 || !FD->getDeclName().isIdentifier())
    return std::nullopt;
  StringRef Name = FD->getName();
  if (Name == "min" || Name == "umin" || Name == "fminf" || Name == "fmin" ||
      Name == "llmin")
    return true;
  if (Name == "max" || Name == "umax" || Name == "fmaxf" || Name == "fmax" ||
      Name == "llmax")
    return false;
  return std::nullopt;
}

const Expr *Analyzer::initOf(const VarDecl *V) const {
  if (isa<ParmVarDecl>(V)) {
    auto It = ParamArgs.find(V);
    return It == ParamArgs.end() ? nullptr : It->second;
  }
  if (auto C = Current.find(V); C != Current.end())
    return C->second;
  if (V->getInit())
    return V->getInit();
  auto It = Assigned.find(V);
  return It == Assigned.end() ? nullptr : It->second;
}

void Analyzer::noteAssignment(const Stmt *S) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || !BO->isAssignmentOp())
    return;
  const VarDecl *V = varOf(BO->getLHS());
  if (!V || !V->isLocalVarDecl())
    return;
  const Expr *Value = BO->getOpcode() == BO_Assign ? BO->getRHS() : nullptr;
  // x = f(x) or x += ...: the new value depends on the old one.
  if (Value) {
    std::vector<const Stmt *> Work{Value};
    while (!Work.empty() && Value) {
      const Stmt *E = Work.back();
      Work.pop_back();
      if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E);
          D && D->getDecl() == V)
        Value = nullptr;
      if (E)
        for (const Stmt *C : E->children())
          Work.push_back(C);
    }
  }
  Current[V] = Value;
}

/// Local variables declared without a value and assigned exactly once
/// (Assigned), and every value each local or parameter is given (Values:
/// null for a compound assignment, an increment or an address taken).
void Analyzer::collectAssignments(const Stmt *Body) {
  std::map<const VarDecl *, unsigned> Writes;
  std::vector<const Stmt *> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    const Expr *Target = nullptr, *Value = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp()) {
      Target = BO->getLHS();
      if (BO->getOpcode() == BO_Assign)
        Value = BO->getRHS();
      else if (const VarDecl *V = varOf(Target))
        Steps[V].push_back(BO->getRHS());
    } else if (const auto *U = dyn_cast<UnaryOperator>(S);
               U &&
               (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)) {
      Target = U->getSubExpr();
    }
    if (const VarDecl *V = Target ? varOf(Target) : nullptr;
        V && (V->isLocalVarDecl() || isa<ParmVarDecl>(V))) {
      // Every value a local is given (its initializer included), for
      // an index set differently in two branches (donor = j - 1 or j).
      if (Value && !Values.count(V) && V->getInit())
        Values[V].push_back(V->getInit());
      if (Value)
        Values[V].push_back(Value);
      else
        Values[V].push_back(nullptr); // +=, ++, &v: not a plain value
    }
    const auto *U = dyn_cast<UnaryOperator>(S);
    bool AddressOnly = U && U->getOpcode() == UO_AddrOf;
    if (const VarDecl *V = Target ? varOf(Target) : nullptr;
        V && V->isLocalVarDecl() && !V->getInit() && !AddressOnly) {
      ++Writes[V];
      if (Value)
        Assigned[V] = Value;
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  for (const auto &[V, N] : Writes)
    if (N != 1)
      Assigned.erase(V);
}

} // namespace kernels
} // namespace orrery
