//===- LoopTrips.cpp - Loop trip counts -----------------------------------===//

#include "Analyzer.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

const VarDecl *Analyzer::writtenVar(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    return varOf(B->getLHS());
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->isIncrementDecrementOp())
    return varOf(U->getSubExpr());
  return nullptr;
}

const Expr *Analyzer::valueBeforeLoop(const VarDecl *V) const {
  if (!V || !V->isLocalVarDecl() || isa<ParmVarDecl>(V))
    return nullptr;
  auto It = Current.find(V);
  return It != Current.end() ? It->second : V->getInit();
}

bool Analyzer::loopStep(const Expr *Inc, const VarDecl *IV, LoopHeader &L) {
  if (!Inc || !IV)
    return false;
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Inc)) {
    if (!U->isIncrementDecrementOp() || varOf(U->getSubExpr()) != IV)
      return false;
    L.Step = SymExpr(1.0);
    L.Down = U->isDecrementOp();
    return true;
  }
  const auto *BO = dyn_cast<BinaryOperator>(Inc);
  if (!BO || !BO->isAssignmentOp() || varOf(BO->getLHS()) != IV)
    return false;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *By = BO->getRHS();
  if (Op == BO_Assign) {
    // i = i + c, i = i >> 1, ...
    const auto *R =
        dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (!R)
      return false;
    if (varOf(R->getLHS()) == IV)
      By = R->getRHS();
    else if (R->getOpcode() == BO_Add && varOf(R->getRHS()) == IV)
      By = R->getLHS();
    else
      return false;
    if (R->getOpcode() < BO_Mul || R->getOpcode() > BO_Shr)
      return false;
    Op = BinaryOperatorKind(R->getOpcode() + (BO_MulAssign - BO_Mul));
  }
  std::optional<SymExpr> V = symbolic(By);
  if (!V)
    return false;
  switch (Op) {
  case BO_AddAssign:
  case BO_SubAssign:
    L.Step = *V;
    L.Down = Op == BO_SubAssign;
    return true;
  case BO_ShrAssign:
  case BO_ShlAssign:
  case BO_DivAssign:
  case BO_MulAssign: {
    std::optional<double> K = V->constant();
    if (!K)
      return false;
    bool Shift = Op == BO_ShrAssign || Op == BO_ShlAssign;
    L.Factor = Shift ? std::pow(2.0, *K) : *K;
    L.Down = Op == BO_ShrAssign || Op == BO_DivAssign;
    return *L.Factor > 1;
  }
  default:
    return false;
  }
}

bool Analyzer::loopCond(const Expr *Cond, LoopHeader &L) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  std::optional<Rel> R = BO ? relOf(BO->getOpcode()) : std::nullopt;
  if (!R || !L.IV)
    return false;
  if (varOf(BO->getLHS()) == L.IV) {
    L.Bound = BO->getRHS();
    L.R = *R;
  } else if (varOf(BO->getRHS()) == L.IV) {
    L.Bound = BO->getLHS();
    L.R = swapped(*R);
  } else
    return false;
  return true;
}

/// The single array element an expression is, through local variables:
/// `row_ptr[r]`, or `start` for `int start = row_ptr[r];`.
static const ArraySubscriptExpr *elementOf(const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->isLocalVarDecl() && V->getInit())
        return elementOf(V->getInit(), Depth + 1);
  return nullptr;
}

/// How far \p To lies above \p From when it is written `From + c` (or
/// `From - c`, or From itself) with c symbolic: `for (kv = k; kv <= k + 1;
/// ++kv)` runs twice whatever k is.
std::optional<SymExpr> Analyzer::spanBetween(const Expr *From, const Expr *To) {
  if (!From || !To)
    return std::nullopt;
  From = From->IgnoreParenImpCasts();
  To = To->IgnoreParenImpCasts();
  if (Expr::isSameComparisonOperand(From, To))
    return SymExpr(0.0);
  const auto *BO = dyn_cast<BinaryOperator>(To);
  if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
    return std::nullopt;
  if (Expr::isSameComparisonOperand(From, BO->getLHS()->IgnoreParenImpCasts()))
    if (std::optional<SymExpr> C = symbolic(BO->getRHS()))
      return BO->getOpcode() == BO_Add ? *C : SymExpr(0.0) - *C;
  if (BO->getOpcode() == BO_Add &&
      Expr::isSameComparisonOperand(From, BO->getRHS()->IgnoreParenImpCasts()))
    return symbolic(BO->getLHS());
  return std::nullopt;
}

LoopResult Analyzer::loopTrip(const LoopHeader &L, SourceLocation At) {
  LoopResult Out;
  std::string Note;
  if (overriddenTrip(At, Out.Trip, Out.Note)) {
    Out.Kind = "override";
    Out.MaxTrip = Out.Trip;
    return Out;
  }
  std::optional<SymExpr> Lo = L.Init ? symbolic(L.Init) : std::nullopt;
  std::optional<SymExpr> Hi = L.Bound ? symbolic(L.Bound) : std::nullopt;
  bool Inclusive = L.R == Rel::LE || L.R == Rel::GE;
  const ArraySubscriptExpr *First = elementOf(L.Init);
  const ArraySubscriptExpr *Last = elementOf(L.Bound);
  if (First && Last && varOf(First->getBase()) &&
      varOf(First->getBase()) == varOf(Last->getBase())) {
    // for (k = row_ptr[r]; k < row_ptr[r + 1]; ++k): the row's length.
    std::string Name = varOf(First->getBase())->getName().str() + ".avg_nnz";
    Out.Kind = "row_length";
    Out.Trip = SymExpr::sym(Name);
    if (Override && Override->Symbols.count(Name)) {
      Out.Trip = SymExpr(Override->Symbols.at(Name));
      Out.Note = "side file: " + Name;
    } else {
      Out.Note = "bind " + Name + " (average row length)";
      diag(HintCode::RowLength, At,
           formatv("loop runs from {0}[r] to {0}[r+1]: trip is the symbol "
                   "'{1}' (average row length; bind it with --launch or "
                   "the side file's symbols; {2} in the generated hint)",
                   varOf(First->getBase())->getName(), Name,
                   static_cast<int>(DefaultDataDependentTrip)));
    }
    Out.MaxTrip = Out.Trip;
    return Out;
  }
  if (L.Step && !L.Down && Lo && Hi && mentionsThread(*Lo) &&
      (L.R == Rel::LT || L.R == Rel::LE)) {
    // Grid- and block-stride loops: i = gid (or threadIdx); i < n;
    // i += gridDim.x * blockDim.x (or blockDim.x).
    std::optional<ThreadAtom> A = threadAtom(*Lo);
    if (A && A->Coef.constant() == 1.0 && A->Kind != CoordKind::Block) {
      SymExpr Width = SymExpr::sym(std::string("blockDim.") + "xyz"[A->Dim]);
      if (A->Kind == CoordKind::Global)
        Width = SymExpr::sym(std::string("gridDim.") + "xyz"[A->Dim]) * Width;
      if (sameValue(*L.Step, Width)) {
        SymExpr Span =
            SymExpr::max(0.0, *Hi - A->Offset + (Inclusive ? 1.0 : 0.0));
        Out.MaxTrip = SymExpr::ceilDiv(Span, *L.Step);
        if (A->Kind == CoordKind::Global && Work == 0 && InlineStack.empty() &&
            Nest.empty()) {
          // min(span, all threads) threads run; together they run span
          // iterations.
          Kernel.constrain(*Lo, L.R, *Hi);
          Out.Trip = Span / Kernel.dimCount(A->Dim);
          Out.Kind = "grid_stride";
          Out.GridStride = true;
          GuardNotes.push_back(loc(At) + " (grid-stride loop)");
        } else {
          // Every thread here enters: together the threads of a block (or
          // of the grid) run span iterations.
          Out.Trip = Span / Width;
          Out.Kind =
              A->Kind == CoordKind::Global ? "grid_stride" : "block_stride";
        }
        Out.Note = "per-thread max " + Out.MaxTrip.str();
        return Out;
      }
    }
  }
  std::optional<SymExpr> Between;
  if (L.Step && !(Lo && Hi))
    Between =
        L.Down ? spanBetween(L.Bound, L.Init) : spanBetween(L.Init, L.Bound);
  if (L.Step && ((Lo && Hi) || Between)) {
    SymExpr Span = Between ? *Between : L.Down ? *Lo - *Hi : *Hi - *Lo;
    Span = Span + (Inclusive ? 1.0 : 0.0);
    Out.Trip = SymExpr::max(0.0, SymExpr::ceilDiv(Span, *L.Step));
    Out.Kind = Out.Trip.isConst() ? "constant" : "symbolic";
  } else if (L.Factor && Lo && Hi) {
    std::optional<double> LoC = Lo->constant(), HiC = Hi->constant();
    double F = *L.Factor;
    if (LoC && HiC) {
      // Constant bounds: run the loop.
      double V = *LoC, N = 0, Sum = 0;
      auto Holds = [&](double X) {
        switch (L.R) {
        case Rel::LT:
          return X < *HiC;
        case Rel::LE:
          return X <= *HiC;
        case Rel::GT:
          return X > *HiC;
        case Rel::GE:
          return X >= *HiC;
        case Rel::NE:
          return X != *HiC;
        case Rel::EQ:
          return X == *HiC;
        }
        return false;
      };
      for (; N < 64 && Holds(V); ++N) {
        Sum += V;
        V = L.Down ? std::floor(V / F) : V * F;
      }
      Out.Trip = SymExpr(N);
      Out.Sum = SymExpr(Sum);
      Out.Kind = "constant";
    } else if (F == 2 && L.Down && (L.R == Rel::GT || L.R == Rel::GE)) {
      // for (s = blockDim.x / 2; s > 0; s >>= 1); sums exact for powers of
      // two.
      bool ToOne = (L.R == Rel::GT && Hi->isZero()) ||
                   (L.R == Rel::GE && Hi->constant() == 1.0);
      if (ToOne) {
        Out.Trip = SymExpr::log2Steps(*Lo);
        Out.Sum = SymExpr(2.0) * *Lo - 1.0;
      } else if (L.R == Rel::GT) {
        Out.Trip = SymExpr::log2Steps(SymExpr::floorDiv(*Lo, *Hi)) - 1.0;
        Out.Sum = SymExpr(2.0) * *Lo - SymExpr(2.0) * *Hi;
      } else {
        Out.Trip = SymExpr::log2Steps(SymExpr::floorDiv(*Lo, *Hi));
        Out.Sum = SymExpr(2.0) * *Lo - *Hi;
      }
      Out.Kind = "symbolic";
    } else if (F == 2 && !L.Down && (L.R == Rel::LT || L.R == Rel::LE)) {
      // for (s = 1; s < blockDim.x; s *= 2)
      Out.Trip = SymExpr::log2Steps(
          SymExpr::floorDiv(L.R == Rel::LT ? *Hi - 1.0 : *Hi, *Lo));
      Out.Kind = "symbolic";
    }
  }
  Out.MaxTrip = Out.Trip;
  return Out;
}

void Analyzer::recordLoop(const LoopResult &R, SourceLocation At,
                          StringRef What) {
  if (R.Kind == "data_dependent")
    diag(HintCode::UnknownTrip, At,
         formatv("{0} trip count is data-dependent; defaulted to {1} "
                 "(override with #pragma orrery loop_count(expr))",
                 What, static_cast<int>(DefaultDataDependentTrip)));
  else if (R.Kind != "constant" && R.Kind != "row_length")
    lower(models::Confidence::Symbolic);
  H.Loops.push_back({loc(At), R.Kind, R.Trip, R.Note, R.MaxTrip});
}

namespace {

/// Roughly the instructions one trip of \p Body issues: its operators,
/// calls and subscripts.
unsigned bodyOps(const Stmt *Body) {
  unsigned N = 0;
  forEachStmt(Body, [&N](const Stmt *S) {
    if (isa<BinaryOperator>(S) || isa<ArraySubscriptExpr>(S) ||
        isa<ConditionalOperator>(S))
      ++N;
    else if (isa<CallExpr>(S))
      N += 8; // a call inlined, or a math function's sequence
    else if (const auto *U = dyn_cast<UnaryOperator>(S);
             U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_Minus ||
                   U->getOpcode() == UO_LNot || U->getOpcode() == UO_Deref))
      ++N;
  });
  return N;
}

} // namespace

/// How nvcc (NVVM) and clang unroll an innermost loop no pragma names, as
/// LLVM's loop unroller does at -O3: fully where a constant trip count
/// times the body stays within about 300 instructions (0), else by 4 where
/// four copies of the body fit its partial threshold of about 75 (2 where
/// two do), else not at all (1).
int64_t Analyzer::defaultUnroll(const SymExpr &Trip, const Stmt *Body) {
  unsigned Ops = std::max(1u, bodyOps(Body));
  if (std::optional<double> T = Trip.constant(); T && *T * Ops <= 300)
    return 0;
  return Ops * 4 <= 75 ? 4 : Ops * 2 <= 75 ? 2 : 1;
}

void Analyzer::loop(const ForStmt *F, const SymExpr &Mult) {
  LoopHeader L;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
      DS && DS->isSingleDecl()) {
    L.IV = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (L.IV)
      L.Init = L.IV->getInit();
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(F->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    L.IV = varOf(BO->getLHS());
    L.Init = BO->getRHS();
  } else if (!F->getInit()) {
    // `for (; i < n; i += s)`: the variable the increment steps, from its
    // value before the loop.
    const VarDecl *V =
        writtenVar(F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr);
    if (const Expr *Before = valueBeforeLoop(V)) {
      L.IV = V;
      L.Init = Before;
    }
  }
  loopStep(F->getInc(), L.IV, L);
  loopCond(F->getCond(), L);
  LoopResult R = loopTrip(L, F->getBeginLoc());
  recordLoop(R, F->getBeginLoc(), "loop");
  LastLoopGridStride = R.GridStride;
  if (L.IV)
    LoopVars[L.IV] = {R.Kind == "grid_stride" || R.Kind == "block_stride",
                      L.Init, R.Sum, Mult, R.Trip};
  SymExpr Inner = Mult * R.Trip;
  int64_t Pragma = UnrollNext;
  UnrollNext = -1;
  if (L.Init)
    expr(L.Init, Mult);
  size_t First = H.Accesses.size(), LoopsBefore = H.Loops.size();
  stmt(F->getBody(), Inner, false);
  // Unrolled k times (`#pragma unroll k`), the loop tests and steps once per
  // k trips; fully unrolled (a constant trip), never. Without a pragma, the
  // compiler's own unrolling of an innermost loop (defaultUnroll).
  bool Innermost = H.Loops.size() == LoopsBefore;
  bool Default = Pragma < 0;
  if (Default)
    Pragma = Innermost ? defaultUnroll(R.Trip, F->getBody()) : 1;
  bool Full = Pragma == 0 && R.Trip.constant();
  int64_t Unroll = Full ? static_cast<int64_t>(*R.Trip.constant()) : Pragma;
  SymExpr Control = Full         ? SymExpr(0.0)
                    : Unroll > 1 ? Inner / double(Unroll)
                                 : Inner;
  if (F->getCond())
    expr(F->getCond(), Control);
  if (F->getInc())
    expr(F->getInc(), Control);
  // The loads of trips a pragma unrolls issue together, before the first
  // use; the compiler's own unrolling is not relied on for that (a store in
  // the body may alias the next trip's loads).
  if (Unroll > 1 && !Default) {
    double Trip = 0;
    for (size_t I = First; I < H.Accesses.size(); ++I) {
      const Access &A = H.Accesses[I];
      if (A.Space == "global" && A.Dir == "load" && !A.Dependent)
        Trip += A.ElemBytes;
    }
    H.BytesInFlight = std::max(H.BytesInFlight, Trip * double(Unroll));
  }
}

/// A `while`/`do` loop `while (i REL bound) { ...; i STEP; }`: the variable,
/// its value before the loop, and its one update in the body.
LoopResult Analyzer::conditionLoop(const Expr *Cond, const Stmt *Body,
                                   SourceLocation At, bool AtLeastOnce) {
  LoopHeader L;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  for (const Expr *Side :
       {BO ? BO->getLHS() : nullptr, BO ? BO->getRHS() : nullptr}) {
    const VarDecl *V = Side ? varOf(Side) : nullptr;
    if (const Expr *Before = valueBeforeLoop(V)) {
      L.IV = V;
      L.Init = Before;
      break;
    }
  }
  // Exactly one statement of the body writes the variable, at its top.
  const Expr *Update = nullptr;
  unsigned Writes = 0;
  if (L.IV)
    forEachStmt(Body, [&](const Stmt *S) {
      if (const auto *E = dyn_cast<Expr>(S); E && writtenVar(E) == L.IV) {
        ++Writes;
        Update = E;
      }
    });
  bool TopLevelUpdate = false;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
    for (const Stmt *C : CS->body())
      TopLevelUpdate |= C == Update;
  } else
    TopLevelUpdate = Body == Update;
  LoopResult R;
  if (Writes == 1 && TopLevelUpdate && loopStep(Update, L.IV, L) &&
      loopCond(Cond, L))
    R = loopTrip(L, At);
  else if (overriddenTrip(At, R.Trip, R.Note)) {
    R.Kind = "override";
    R.MaxTrip = R.Trip;
  }
  if (AtLeastOnce && R.Kind != "override" && R.Kind != "data_dependent") {
    R.Trip = SymExpr::max(1.0, R.Trip);
    R.MaxTrip = SymExpr::max(1.0, R.MaxTrip);
  }
  return R;
}

} // namespace kernels
} // namespace orrery
