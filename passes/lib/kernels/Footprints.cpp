//===- Footprints.cpp - Distinct bytes a launch and one block touch -------===//
//
// A launch's footprint per array and direction (docs/kernel-cost.md,
// "Footprints"):
//  - an array whose every access is coalesced and runs once per thread (or
//    under a launch-uniform flag) touches one element per active thread;
//  - an array reached through a pointer parameter touches no more than it
//    requests, and no more than the buffer the argument points into (the
//    runtime's orrery_buffer_bytes at the launch: `bytes(p)` in the hint);
//  - an array no access of which depends on blockIdx is the same for every
//    block: its footprint is one block's;
//  - anything else is not known, and its requested bytes count as moved.
// One block's loads: all of a block-invariant array, else the block's share
// of the footprint, and at least what it requests over the array's access
// sites (neighbouring sites overlap, as a stencil's do).
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"

#include "clang/AST/Expr.h"

namespace orrery {
namespace kernels {

using namespace clang;

namespace {

/// Of `a + k` or `k + a`, the pointer operand: the one of pointer type,
/// else (in a template, where `a + k` has a dependent type) the one that is
/// not an integer.
const Expr *pointerOperand(const BinaryOperator *BO) {
  QualType RT = BO->getRHS()->getType();
  bool Left = BO->getLHS()->getType()->isPointerType() ||
              (!RT->isPointerType() && RT->isIntegralOrEnumerationType());
  return Left ? BO->getLHS() : BO->getRHS();
}

/// The array a pointer expression points into, through casts and pointer
/// arithmetic (`a + k`, `(T *)&a[i]`).
const VarDecl *pointerBase(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 16)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub))
    return pointerBase(pointerOperand(BO), Depth + 1);
  return arrayOf(E);
}

/// `*p`, `p[i]` or `p->next`: a value read through \p V itself.
bool readsThrough(const Expr *E, const VarDecl *V) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return pointerBase(U->getSubExpr()) == V;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointerBase(AS->getBase()) == V;
  if (const auto *M = dyn_cast<MemberExpr>(E); M && M->isArrow())
    return pointerBase(M->getBase()) == V;
  return false;
}

} // namespace

std::string Analyzer::bufferOf(const VarDecl *V) const {
  if (!V || !KernelDecl || !V->getType()->isPointerType())
    return "";
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == KernelDecl ? P->getName().str() : "";
  if (!V->isLocalVarDecl() || !V->getInit())
    return "";
  // A local pointer that starts in a parameter's buffer and moves only
  // within it: offsets (p += k, p = p + k) and links read through itself
  // (p = *p, a pointer chase inside one buffer).
  const VarDecl *Start = pointerBase(V->getInit());
  const auto *P = dyn_cast_or_null<ParmVarDecl>(Start);
  if (!P || P->getDeclContext() != KernelDecl || !P->getType()->isPointerType())
    return "";
  if (auto It = Values.find(V); It != Values.end())
    for (const Expr *Value : It->second) {
      if (!Value)
        continue; // p += k
      const VarDecl *To = pointerBase(Value);
      if (To != V && To != Start && !readsThrough(Value, V))
        return "";
    }
  return P->getName().str();
}

bool Analyzer::dependsOnBlock(const Expr *E, std::set<const VarDecl *> &Seen,
                              unsigned Depth) {
  if (!E || Depth > 32)
    return false;
  std::string B = builtinName(E);
  if (!B.empty())
    return StringRef(B).starts_with("blockIdx");
  if (const VarDecl *V = varOf(E)) {
    if (!Seen.insert(V).second)
      return false;
    if (auto It = LoopVars.find(V);
        It != LoopVars.end() &&
        dependsOnBlock(It->second.Init, Seen, Depth + 1))
      return true;
    if (dependsOnBlock(initOf(V), Seen, Depth + 1))
      return true;
    for (const auto *Writes : {&Values, &Steps})
      if (auto It = Writes->find(V); It != Writes->end())
        for (const Expr *W : It->second)
          if (dependsOnBlock(W, Seen, Depth + 1))
            return true;
    return false;
  }
  E = E->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->hasBody() && !FD->isInStdNamespace()) {
      // A helper that computes an index (global_id(), this_grid().rank()):
      // whether its body reads blockIdx.
      std::vector<const Stmt *> Work{FD->getBody()};
      for (unsigned Steps = 0; !Work.empty() && Steps < 512; ++Steps) {
        const Stmt *S = Work.back();
        Work.pop_back();
        if (!S)
          continue;
        if (const auto *X = dyn_cast<Expr>(S);
            X && StringRef(builtinName(X)).starts_with("blockIdx"))
          return true;
        for (const Stmt *C : S->children())
          Work.push_back(C);
      }
    }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (dependsOnBlock(CE, Seen, Depth + 1))
        return true;
  return false;
}

Coefficient Analyzer::pointerCoefficient(const VarDecl *V, unsigned Depth) {
  if (!V || Depth > 8)
    return Coefficient::unknown();
  Coefficient C = Coefficient::known(0.0);
  if (const Expr *Init = initOf(V)) {
    // Links followed (p = *p) keep the start's pattern: the threads that
    // started together follow the same links.
    if (auto It = Values.find(V); It != Values.end())
      for (const Expr *Value : It->second)
        if (Value && Value != V->getInit() && !readsThrough(Value, V))
          return Coefficient::unknown();
    C = offsetCoefficient(Init, Depth + 1);
  }
  if (auto It = Steps.find(V); It != Steps.end())
    for (const Expr *Step : It->second)
      C = addCoefficients(C, coefficient(Step));
  return C;
}

Coefficient Analyzer::offsetCoefficient(const Expr *P, unsigned Depth) {
  if (!P || Depth > 8)
    return Coefficient::unknown();
  P = P->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(P);
      U && U->getOpcode() == UO_AddrOf) {
    const Expr *Sub = U->getSubExpr()->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
      return addCoefficients(offsetCoefficient(AS->getBase(), Depth + 1),
                             coefficient(AS->getIdx()));
    return Coefficient::unknown();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    const Expr *Ptr = pointerOperand(BO);
    const Expr *Off = Ptr == BO->getLHS() ? BO->getRHS() : BO->getLHS();
    return addCoefficients(offsetCoefficient(Ptr, Depth + 1), coefficient(Off),
                           SymExpr(BO->getOpcode() == BO_Sub ? -1.0 : 1.0));
  }
  if (const VarDecl *V = varOf(P)) {
    if (SharedVars.count(V) || !V->getType()->isPointerType())
      return Coefficient::known(0.0); // an array's own start
    return pointerCoefficient(V, Depth + 1);
  }
  return Coefficient::unknown();
}

bool Analyzer::chases(const VarDecl *Pointer, const Expr *Index) {
  // p = *p: the pointer is the value read through it.
  if (Pointer && !isa<ParmVarDecl>(Pointer))
    if (auto It = Values.find(Pointer); It != Values.end())
      for (const Expr *Value : It->second)
        if (Value && readsThrough(Value, Pointer))
          return true;
  // j = next[j]: the index is a value read at that index.
  const VarDecl *J = Index ? varOf(Index->IgnoreParenCasts()) : nullptr;
  if (!J || isa<ParmVarDecl>(J))
    return false;
  if (auto It = Values.find(J); It != Values.end())
    for (const Expr *Value : It->second) {
      const auto *AS =
          Value ? dyn_cast<ArraySubscriptExpr>(Value->IgnoreParenCasts())
                : nullptr;
      if (AS && varOf(AS->getIdx()->IgnoreParenCasts()) == J)
        return true;
    }
  return false;
}

void Analyzer::footprints(const SymExpr &Active,
                          const std::set<std::string> &LaunchFlags) {
  struct ArrayInfo {
    bool CoalescedOnce = true, Once = false, BlockInvariant = true;
    bool OneBuffer = true;
    std::string Buffer;
    SymExpr Elem, Requested{0.0}; ///< requested: per thread
    unsigned Sites = 0;
    bool Load = false, InLoops = false;
  };
  std::map<std::string, ArrayInfo> PerArray;
  for (const Access &A : H.Accesses) {
    if (A.Space != "global" || A.Dir == "atomic")
      continue;
    ArrayInfo &I = PerArray[A.Array + " (" + A.Dir + ")"];
    if (I.Sites == 0)
      I.Buffer = A.Buffer;
    else if (I.Buffer != A.Buffer)
      I.OneBuffer = false;
    ++I.Sites;
    I.Load = A.Dir == "load";
    I.Elem = A.ElemSize;
    bool Once = A.Count.constant() == 1.0;
    I.Once |= Once;
    I.InLoops |= !Once;
    I.CoalescedOnce &= A.Pattern == AccessPattern::Coalesced &&
                       (Once || LaunchFlags.count(A.Count.str()));
    I.BlockInvariant &= A.BlockInvariant;
    I.Requested = I.Requested + A.requestedBytes() * A.Count;
  }
  SymExpr BlockThreads = SymExpr::sym("blockDim.x") *
                         SymExpr::sym("blockDim.y") *
                         SymExpr::sym("blockDim.z");
  SymExpr Blocks = SymExpr::sym("gridDim.x") * SymExpr::sym("gridDim.y") *
                   SymExpr::sym("gridDim.z");
  for (auto &[Key, I] : PerArray) {
    // Every block touches the same elements of a block-invariant array.
    SymExpr Threads = I.BlockInvariant ? BlockThreads : Active;
    std::optional<SymExpr> F;
    if (I.CoalescedOnce && I.Once)
      F = Threads * I.Elem;
    else if (I.OneBuffer && !I.Buffer.empty())
      F = SymExpr::min(Threads * I.Requested,
                       SymExpr::sym("bytes(" + I.Buffer + ")"));
    if (!F)
      continue;
    H.Footprint.push_back({Key, F->normalize()});
    if (!I.Load)
      continue;
    // Sites that run once per thread read neighbours of one another (a
    // stencil's); sites in loops walk on through the data.
    double Overlap = I.InLoops ? 1 : double(I.Sites);
    SymExpr PerBlock =
        I.BlockInvariant
            ? *F
            : SymExpr::min(*F,
                           SymExpr::max(*F, Active * I.Requested / Overlap) /
                               Blocks);
    H.BlockFootprint.push_back({Key, PerBlock.normalize()});
  }
}

} // namespace kernels
} // namespace orrery
