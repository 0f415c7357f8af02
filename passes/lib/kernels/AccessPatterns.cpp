//===- AccessPatterns.cpp - Memory accesses and their patterns
//--------------===//

#include "Analyzer.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <cmath>
#include <numeric>
#include <tuple>

using namespace clang;
using namespace llvm;

namespace orrery {

const char *patternName(AccessPattern P) {
  switch (P) {
  case AccessPattern::Uniform:
    return "uniform";
  case AccessPattern::Coalesced:
    return "coalesced";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Indirect:
    return "indirect";
  case AccessPattern::Unknown:
    return "unknown";
  }
  return "unknown";
}

SymExpr Access::requestedBytes() const {
  // Per warp instruction: uniform -> 1 sector; |c|-strided with element e ->
  // min(32, ceil(32*|c|*e / 32)) sectors; indirect/unknown -> 32 sectors.
  // Per thread: sectors * 32 B / 32 lanes.
  switch (Pattern) {
  case AccessPattern::Uniform:
    return SingleLane ? ElemSize : SymExpr(1.0);
  case AccessPattern::Coalesced:
    return SymExpr::min(32.0, SymExpr::ceilDiv(SymExpr(32.0) * ElemSize, 32.0));
  case AccessPattern::Strided:
    return SymExpr::min(
        32.0, SymExpr::ceilDiv(SymExpr(32.0) * Stride * ElemSize, 32.0));
  case AccessPattern::Indirect:
  case AccessPattern::Unknown:
    return SymExpr(32.0);
  }
  return SymExpr(32.0);
}

SymExpr Access::l1Bytes() const {
  // A wavefront is 128 bytes a clock; per thread, 4 bytes each.
  switch (Pattern) {
  case AccessPattern::Uniform:
    // One wavefront, or the half/quarter warps of 8- and 16-byte loads.
    return SingleLane ? SymExpr(128.0) : SymExpr::max(4.0, ElemSize);
  case AccessPattern::Coalesced:
    return SymExpr(4.0) * SymExpr::l1Wavefronts(1.0, ElemSize);
  case AccessPattern::Strided:
    return SymExpr(4.0) * SymExpr::l1Wavefronts(Stride, ElemSize);
  case AccessPattern::Indirect:
  case AccessPattern::Unknown:
    break;
  }
  // Scattered: every lane in a line of its own, the banks about evenly
  // used, as an odd stride of more than a line gives.
  return SymExpr(4.0) * SymExpr::l1Wavefronts(33.0, ElemSize);
}

namespace kernels {

/// The threadIdx.x coefficient of an index expression.
Coefficient Analyzer::coefficient(const Expr *E, unsigned Depth) {
  if (!E || Depth > 40)
    return Coefficient::unknown();
  E = E->IgnoreParenImpCasts();
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
    return coefficient(C->getSubExpr(), Depth + 1);
  if (isa<ArraySubscriptExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    return Coefficient::indirect();
  std::string B = builtinName(E);
  if (!B.empty())
    return Coefficient::known(B == "threadIdx.x" ? 1.0 : 0.0);
  if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E))
    return Coefficient::known(0.0);
  if (const VarDecl *V = varOf(E)) {
    if (isa<ParmVarDecl>(V) && !initOf(V))
      return Coefficient::known(0.0);
    auto It = LoopVars.find(V);
    if (It != LoopVars.end()) {
      if (It->second.GridStride)
        return coefficient(It->second.Init, Depth + 1);
      // k = row_ptr[r]: each thread walks its own data-dependent range.
      return readsMemory(It->second.Init) ? Coefficient::indirect()
                                          : Coefficient::known(0.0);
    }
    if (initOf(V))
      return coefficient(initOf(V), Depth + 1);
    // Assigned in several places (branches): known if every value has the
    // same coefficient.
    auto All = Values.find(V);
    if (All != Values.end() && !All->second.empty()) {
      std::optional<Coefficient> Same;
      for (const Expr *Value : All->second) {
        Coefficient C =
            Value ? coefficient(Value, Depth + 1) : Coefficient::unknown();
        if (C.K != Coefficient::Known || (Same && !(Same->C == C.C)))
          return C.K == Coefficient::Indirect ? C : Coefficient::unknown();
        Same = C;
      }
      return *Same;
    }
    return Coefficient::unknown();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    Coefficient L = coefficient(BO->getLHS(), Depth + 1);
    Coefficient R = coefficient(BO->getRHS(), Depth + 1);
    if (L.K == Coefficient::Indirect || R.K == Coefficient::Indirect)
      return Coefficient::indirect();
    if (L.K == Coefficient::Unknown || R.K == Coefficient::Unknown)
      return Coefficient::unknown();
    switch (BO->getOpcode()) {
    case BO_Add:
      return Coefficient::known(L.C + R.C);
    case BO_Sub:
      return Coefficient::known(L.C - R.C);
    case BO_Mul: {
      if (L.C.isZero() && R.C.isZero())
        return Coefficient::known(0.0);
      // c * (a + b*tx): the other side must be thread-invariant.
      const Expr *Other = L.C.isZero() ? BO->getLHS() : BO->getRHS();
      SymExpr C = L.C.isZero() ? R.C : L.C;
      if (!(L.C.isZero() || R.C.isZero()))
        return Coefficient::unknown();
      std::optional<SymExpr> K = symbolic(Other, Depth + 1);
      if (!K)
        return Coefficient::unknown();
      return Coefficient::known(*K * C);
    }
    case BO_Div:
    case BO_Shr: {
      if (L.C.isZero() && R.C.isZero())
        return Coefficient::known(0.0);
      if (!R.C.isZero())
        return Coefficient::unknown();
      // A row of a linearised index, gid / n: neighbouring threads share
      // it; with a known divisor the coefficient is divided by it, else
      // (a field of a struct argument) taken as the same across a warp,
      // exact when n spans at least the warp.
      std::optional<SymExpr> K = symbolic(BO->getRHS(), Depth + 1);
      if (K && BO->getOpcode() == BO_Shr) {
        std::optional<double> Bits = K->constant();
        K = Bits ? std::optional<SymExpr>(SymExpr(std::ldexp(1.0, int(*Bits))))
                 : std::nullopt;
      }
      if (K && !K->isZero())
        return Coefficient::known(L.C / *K);
      return Coefficient::known(0.0);
    }
    case BO_Rem:
    case BO_And: {
      if (L.C.isZero() && R.C.isZero())
        return Coefficient::known(0.0);
      if (!R.C.isZero())
        return Coefficient::unknown();
      // The column of a linearised index, gid % n: consecutive threads get
      // consecutive columns (a row's wrap apart); a modulus below a warp's
      // span (tid % 4, tid & 3) leaves a few addresses, like one.
      std::optional<SymExpr> K = symbolic(BO->getRHS(), Depth + 1);
      std::optional<double> M = K ? K->constant() : std::nullopt;
      if (M && BO->getOpcode() == BO_And)
        *M += 1;
      if (M && *M < 32)
        return Coefficient::known(0.0);
      return Coefficient::known(L.C);
    }
    default:
      return Coefficient::unknown();
    }
  }
  // min(j + 1, n), max(i - 1, 0): clamping an index to a bound keeps its
  // coefficient (but at the edge).
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (minOrMax(CE)) {
      Coefficient L = coefficient(CE->getArg(0), Depth + 1);
      Coefficient R = coefficient(CE->getArg(1), Depth + 1);
      if (L.K == Coefficient::Known && R.K == Coefficient::Known) {
        if (L.C.isZero())
          return R;
        if (R.C.isZero() || L.C == R.C)
          return L;
      }
    }
  }
  if (!mentionsThreadId(E))
    return Coefficient::known(0.0);
  return Coefficient::unknown();
}

/// Whether \p T has a spelling the hint can use in sizeof(...): not the
/// placeholder type Clang gives a type-dependent expression in a template
/// (a[i] with a dependent a prints as "<dependent type>").
static bool spellable(QualType T) {
  return !T.isNull() && !T->isSpecificBuiltinType(BuiltinType::Dependent) &&
         T.getAsString().find("<dependent") == std::string::npos;
}

SymExpr Analyzer::elemSize(QualType Pointee) {
  if (Pointee->isDependentType()) {
    if (!spellable(Pointee))
      return SymExpr(4.0); // no spelling: a 4-byte element, as for int
    return SymExpr::sym("sizeof(" + Pointee.getUnqualifiedType().getAsString() +
                        ")");
  }
  if (Pointee->isIncompleteType() || Pointee->isVoidType())
    return SymExpr(1.0);
  return SymExpr(
      static_cast<double>(Ctx.getTypeSizeInChars(Pointee).getQuantity()));
}

/// The array a pointer value points into: `a`, `&a[i]`, `&a[i][j]`.
const VarDecl *arrayOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenImpCasts();
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

void Analyzer::memAccess(const Expr *E, const Expr *Base, const Expr *Index,
                         StringRef Dir, const SymExpr &Mult) {
  // a[i][j]: the access is to the root array; the threadIdx.x coefficient
  // of the linear index is sum(coefficient(index_k) * row size below k).
  std::optional<Coefficient> Linear;
  if (Index) {
    Coefficient Acc = coefficient(Index);
    SymExpr RowSize(1.0);
    const Expr *B = Base->IgnoreParenImpCasts();
    while (const auto *AS = dyn_cast<ArraySubscriptExpr>(B)) {
      if (const auto *CAT = Ctx.getAsConstantArrayType(AS->getType()))
        RowSize = RowSize * static_cast<double>(CAT->getSize().getZExtValue());
      Acc = addCoefficients(Acc, coefficient(AS->getIdx()), RowSize);
      Base = AS->getBase();
      B = Base->IgnoreParenImpCasts();
    }
    Linear = Acc;
  }
  const Expr *B = Base->IgnoreParenImpCasts();
  const VarDecl *V = varOf(B);
  // A pointer moved by its thread (p = a + threadIdx.x, p += threadIdx.x)
  // adds its own threadIdx.x coefficient to the index's.
  // A pointer whose movement the analysis cannot follow keeps the index's
  // coefficient alone (as before pointers were followed).
  if (V && V->getType()->isPointerType()) {
    Coefficient P = pointerCoefficient(V);
    if (P.K != Coefficient::Unknown)
      Linear = addCoefficients(Linear ? *Linear : Coefficient::known(0.0), P);
  }
  QualType PT = Base->getType();
  QualType Pointee;
  if (const auto *PTy = PT->getAs<PointerType>())
    Pointee = PTy->getPointeeType();
  else if (const auto *AT = Ctx.getAsArrayType(PT))
    Pointee = AT->getElementType();
  else if (PT->isDependentType())
    Pointee = E->getType();
  else
    return;
  std::string Space;
  // A pointer parameter of an inlined function is the caller's array.
  for (unsigned Hops = 0; V && isa<ParmVarDecl>(V) && initOf(V) && Hops < 32;
       ++Hops) {
    const VarDecl *To = arrayOf(initOf(V));
    if (!To)
      break;
    V = To;
  }
  if (V && V->isLocalVarDecl() && V->getType()->isPointerType() && V->getInit())
    // volatile float *w = sdata; float *t = &tile[0][0];
    if (const VarDecl *To = arrayOf(V->getInit()); To && SharedVars.count(To))
      V = To;
  if (V && SharedVars.count(V))
    Space = "shared";
  else if (V && (isa<ParmVarDecl>(V) ||
                 (V->getType()->isPointerType() && V->hasLocalStorage())))
    Space = "global";
  else if (V && V->hasAttr<CUDAConstantAttr>())
    return; // constant memory: cached broadcast, not modeled as traffic
  else if (V && V->hasLocalStorage())
    return; // a local array: registers or local memory
  else
    Space = "global";
  Access A;
  if (Space == "global") {
    A.Buffer = bufferOf(V);
    std::set<const VarDecl *> Seen;
    A.BlockInvariant = !dependsOnBlock(E, Seen);
    A.Dependent = Dir == "load" && chases(V, Index);
  }
  A.Array = V ? V->getName().str() : "<expr>";
  // A functor's or closure's field (this->y, or a capture): its name, after
  // the object's (b.data for an accessor called on b).
  if (!V)
    A.Array = objectName(Base);
  if (A.Array.empty())
    A.Array = "<expr>";
  A.Space = Space;
  A.Dir = Dir.str();
  // The element accessed (a[i] of float4* is 16 bytes; As[i][j] of
  // float[16][16] is 4).
  QualType Elem = E->getType()->isDependentType() || E->isGLValue()
                      ? E->getType()
                      : Pointee;
  // In a template, a[i] of a dependent a has the placeholder type: the
  // pointer's or array's declared element type is the same and spellable.
  if (!spellable(Elem) && spellable(Pointee))
    Elem = Pointee;
  A.ElemSize = elemSize(Elem);
  A.ElemBytes =
      A.ElemSize.constant() ? static_cast<unsigned>(*A.ElemSize.constant()) : 0;
  A.Count = Mult;
  A.Location = loc(E->getBeginLoc());
  if (Dir == "load") {
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(E->getSourceRange()), SM,
        Ctx.getLangOpts());
    StringRef Text =
        R.isValid() ? Lexer::getSourceText(R, SM, Ctx.getLangOpts()) : "";
    if (!Text.empty() &&
        !StatementLoads.insert(Text.str() + "|" + Mult.str()).second)
      return; // read again in the same statement: the compiler reuses it
  }
  Coefficient C = Linear ? *Linear : Coefficient::known(0.0);
  if (C.K == Coefficient::Indirect)
    A.Pattern = AccessPattern::Indirect;
  else if (C.K == Coefficient::Unknown)
    A.Pattern = AccessPattern::Unknown;
  else if (C.C.isZero()) {
    A.Pattern = AccessPattern::Uniform;
    A.SingleLane = SingleLane > 0;
  } else if (C.C.constant() && std::fabs(*C.C.constant()) == 1)
    A.Pattern = AccessPattern::Coalesced;
  else {
    A.Pattern = AccessPattern::Strided;
    A.Stride = C.C;
  }
  if (Space == "shared" && C.K == Coefficient::Known) {
    // 4-byte banks: a word stride s gives gcd(s, 32)-way conflicts.
    if (std::optional<double> S = C.C.constant()) {
      double Words = std::fabs(*S) * (A.ElemBytes ? A.ElemBytes : 4) / 4.0;
      unsigned W = static_cast<unsigned>(Words);
      if (W > 1 && Words == W)
        H.BankConflictWay = std::max(H.BankConflictWay, std::gcd(W, 32u));
    }
  }
  if (A.Pattern == AccessPattern::Unknown && Space == "global")
    diag(HintCode::UnknownPattern, E->getBeginLoc(),
         "index of '" + A.Array +
             "' is not affine in threadIdx.x; 32 sectors per warp assumed");
  ++Work;
  H.Accesses.push_back(std::move(A));
}

std::string Analyzer::objectName(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getDecl()->getNameAsString();
  if (isa<CXXThisExpr>(E))
    return ThisNames.empty() ? std::string("this") : ThisNames.back();
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    std::string Member = M->getMemberDecl()->getNameAsString();
    const Expr *B = M->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(B) && ThisNames.empty())
      return Member;
    return objectName(B) + "." + Member;
  }
  return "<expr>";
}

void Analyzer::assignTarget(const Expr *LHS, const SymExpr &Mult,
                            bool AlsoLoad) {
  const Expr *L = LHS->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L)) {
    if (AlsoLoad)
      memAccess(AS, AS->getBase(), AS->getIdx(), "load", Mult);
    memAccess(AS, AS->getBase(), AS->getIdx(), "store", Mult);
    expr(AS->getIdx(), Mult);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(L);
      U && U->getOpcode() == UO_Deref) {
    if (AlsoLoad)
      memAccess(U, U->getSubExpr(), nullptr, "load", Mult);
    memAccess(U, U->getSubExpr(), nullptr, "store", Mult);
    return;
  }
  if (const auto *M = dyn_cast<MemberExpr>(L)) {
    // v[i].x = ... on a vector element: the access is the subscript.
    assignTarget(M->getBase(), Mult, AlsoLoad);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(L);
      CE && CE->getCallReturnType(Ctx)->isReferenceType()) {
    // a(i, j) = ... through an accessor returning a reference: what the
    // accessor returns is the target.
    auto Saved = std::make_pair(StoreReturnDepth, StoreReturnAlsoLoad);
    StoreReturnDepth = InlineStack.size() + 1;
    StoreReturnAlsoLoad = AlsoLoad;
    call(CE, Mult);
    std::tie(StoreReturnDepth, StoreReturnAlsoLoad) = Saved;
    return;
  }
  // A local variable: no memory traffic.
}

} // namespace kernels
} // namespace orrery
