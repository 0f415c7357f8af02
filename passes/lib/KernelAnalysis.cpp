//===- KernelAnalysis.cpp - Static cost analysis of __global__ kernels ----===//

#include "KernelAnalysis.h"
#include "kernels/ThreadRanges.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Stack.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <numeric>
#include <optional>
#include <type_traits>

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
    return SymExpr(1.0);
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

//===--------------------------------------------------------------------===//
// The analyzer.
//===--------------------------------------------------------------------===//

namespace {

/// The threadIdx.x coefficient of an index, or why there is none.
struct Coefficient {
  enum Kind { Known, Indirect, Unknown } K = Known;
  SymExpr C; ///< elements per threadIdx.x step
  static Coefficient known(SymExpr C) { return {Known, std::move(C)}; }
  static Coefficient indirect() { return {Indirect, SymExpr(0.0)}; }
  static Coefficient unknown() { return {Unknown, SymExpr(0.0)}; }
};

/// A loop variable and what it means for thread-dependence.
struct LoopVar {
  bool GridStride = false;
  const Expr *Init = nullptr;
  /// Sum of the variable's values over the iterations, where known (halving
  /// loops), and the multiplier outside the loop and the trip, to count
  /// `if (threadIdx.x < s)` in a tree reduction.
  std::optional<SymExpr> Sum;
  SymExpr OuterMult, Trip;
};

/// What a loop's header says: `IV = Init; IV R Bound; IV += Step` (or
/// `IV *= Factor`, `IV >>= k`).
struct LoopHeader {
  const VarDecl *IV = nullptr;
  const Expr *Init = nullptr;
  const Expr *Bound = nullptr;
  Rel R = Rel::LT;
  std::optional<SymExpr> Step;
  std::optional<double> Factor;
  bool Down = false;
};

/// A loop's trip: the mean per thread that counts use, and the maximum.
struct LoopResult {
  std::string Kind = "data_dependent", Note;
  SymExpr Trip = SymExpr(DefaultDataDependentTrip);
  SymExpr MaxTrip = SymExpr(DefaultDataDependentTrip);
  std::optional<SymExpr> Sum; ///< of the variable's values (halving loops)
  bool GridStride = false;
};

/// One comparison of a condition, as symbolic operands.
struct Compare {
  SymExpr L;
  Rel R;
  SymExpr Bound;
};

/// Runs F, on a fresh stack when this one runs low. The analyses recurse
/// once per operator and statement, and code can nest 50,000 deep
/// (`1+1+...+1`); clang's own recursions do the same.
template <typename FnT> auto withStack(FnT F) {
  using R = decltype(F());
  if constexpr (std::is_void_v<R>) {
    clang::runWithSufficientStackSpace([] {}, F);
  } else {
    std::optional<R> Out;
    clang::runWithSufficientStackSpace([] {}, [&] { Out.emplace(F()); });
    return std::move(*Out);
  }
}

class Analyzer {
public:
  Analyzer(ASTContext &Ctx, const PragmaTable &Pragmas,
           const KernelOverride *Override)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Pragmas(Pragmas),
        Override(Override) {}

  KernelHint run(const FunctionDecl *K);

private:
  // Statements and expressions, with the number of executions per active
  // thread so far.
  void stmt(const Stmt *S, const SymExpr &Mult, bool TopLevel) {
    withStack([&] { stmtImpl(S, Mult, TopLevel); });
  }
  void expr(const Expr *E, const SymExpr &Mult) {
    withStack([&] { exprImpl(E, Mult); });
  }
  void stmtImpl(const Stmt *S, const SymExpr &Mult, bool TopLevel);
  void exprImpl(const Expr *E, const SymExpr &Mult);
  void assignTarget(const Expr *LHS, const SymExpr &Mult, bool AlsoLoad);
  void memAccess(const Expr *E, const Expr *Base, const Expr *Index,
                 StringRef Dir, const SymExpr &Mult);
  void call(const CallExpr *CE, const SymExpr &Mult);
  void arith(BinaryOperatorKind Op, QualType T, const SymExpr &Mult,
             const Expr *At);
  enum class FpKind { Add, Mul, Fma, Div, Sqrt, Transc };
  void countFp(FpKind K, QualType T, const Expr *E, const SymExpr &Mult);
  void loop(const ForStmt *F, const SymExpr &Mult);
  bool loopStep(const Expr *Inc, const VarDecl *IV, LoopHeader &L);
  bool loopCond(const Expr *Cond, LoopHeader &L);
  LoopResult loopTrip(const LoopHeader &L, SourceLocation At);
  LoopResult conditionLoop(const Expr *Cond, const Stmt *Body,
                           SourceLocation At, bool AtLeastOnce);
  void recordLoop(const LoopResult &R, SourceLocation At, StringRef What);

  /// The comparisons on thread coordinates a condition is the conjunction
  /// of (Negated: the condition's negation); Other is set when some part is
  /// not one. False if none is.
  bool threadCompares(const Expr *Cond, bool Negated, std::vector<Compare> &Out,
                      bool &Other, unsigned Depth = 0);
  /// Records a top-level guard on the kernel's active threads.
  bool guard(const Expr *Cond, bool Negated);
  /// The threads known to run the statement being walked.
  const ThreadSet &current() const {
    return Nest.empty() ? Kernel : Nest.back();
  }
  /// `if (threadIdx.x < s)` in a loop over s: the then-branch multiplier.
  std::optional<SymExpr> reductionStep(const Expr *Cond, const SymExpr &Mult);
  /// The value a local variable is given where it is defined: its
  /// initializer, or its one assignment (`int i; i = ...;`).
  const Expr *initOf(const VarDecl *V) const;
  void collectAssignments(const Stmt *S);
  void switchStmt(const SwitchStmt *S, const SymExpr &Mult);
  /// The trip of a `while`/`do` loop with an affine condition, if it is one.

  /// All threads of the launch, and those the guards seen so far let in.
  SymExpr launchedThreads() const;
  SymExpr activeThreads() const;
  std::optional<SymExpr> oneThreadPerBlock(const Expr *Cond);
  std::optional<SymExpr> flagParameter(const Expr *Cond);
  std::optional<SymExpr> symbolic(const Expr *E, unsigned Depth = 0);
  Coefficient coefficient(const Expr *E, unsigned Depth = 0);
  std::string builtinName(const Expr *E);
  const VarDecl *varOf(const Expr *E);
  bool readsMemory(const Expr *E) {
    return withStack([&] { return readsMemoryImpl(E); });
  }
  bool mentionsThreadId(const Expr *E, unsigned Depth = 0) {
    return withStack([&] { return mentionsThreadIdImpl(E, Depth); });
  }
  bool readsMemoryImpl(const Expr *E);
  bool mentionsThreadIdImpl(const Expr *E, unsigned Depth);
  std::string loc(SourceLocation L);
  const OrreryPragma *pragmaBefore(SourceLocation L, StringRef Kind);
  /// The side file's trip or probability for the statement at L ("file:line").
  std::optional<SymExpr> sideTrip(SourceLocation L);
  std::optional<double> sideBranch(SourceLocation L);
  /// The trip of a loop from the side file or a pragma, if any.
  bool overriddenTrip(SourceLocation L, SymExpr &Trip, std::string &Note);
  void diag(StringRef Code, SourceLocation L, const Twine &Msg,
            StringRef Confidence);
  void lower(StringRef Confidence);
  SymExpr elemSize(QualType Pointee);
  FpOps *fpClass(QualType T);

  ASTContext &Ctx;
  SourceManager &SM;
  const PragmaTable &Pragmas;
  const KernelOverride *Override;
  KernelHint H;
  std::map<const VarDecl *, LoopVar> LoopVars;
  std::set<const VarDecl *> SharedVars;
  std::vector<const FunctionDecl *> InlineStack;
  /// The threads the top-level guards let in, and the sets of enclosing
  /// thread-only branches.
  ThreadSet Kernel;
  std::vector<ThreadSet> Nest;
  std::map<const VarDecl *, const Expr *> Assigned;
  bool LastLoopGridStride = false;
  /// Operations, accesses and barriers counted so far.
  unsigned Work = 0;
  std::vector<std::string> GuardNotes;
  const Expr *ConsumedMul = nullptr; ///< a `*` already counted as part of fma
};

std::string Analyzer::loc(SourceLocation L) {
  L = SM.getExpansionLoc(L);
  return formatv("{0}:{1}:{2}", sys::path::filename(SM.getFilename(L)),
                 SM.getExpansionLineNumber(L), SM.getExpansionColumnNumber(L))
      .str();
}

void Analyzer::lower(StringRef Confidence) {
  static const char *Order[] = {"exact", "symbolic", "defaulted", "unknown"};
  auto Rank = [](StringRef C) {
    for (unsigned I = 0; I < 4; ++I)
      if (C == Order[I])
        return I;
    return 0u;
  };
  if (Rank(Confidence) > Rank(H.Confidence))
    H.Confidence = Confidence.str();
}

void Analyzer::diag(StringRef Code, SourceLocation L, const Twine &Msg,
                    StringRef Confidence) {
  std::string Where = loc(L);
  for (const HintDiagnostic &D : H.Diagnostics)
    if (D.Code == Code && D.Location == Where)
      return;
  H.Diagnostics.push_back({"warning", Code.str(), Where, Msg.str()});
  lower(Confidence);
}

const OrreryPragma *Analyzer::pragmaBefore(SourceLocation L, StringRef Kind) {
  L = SM.getExpansionLoc(L);
  unsigned File = SM.getFileID(L).getHashValue();
  unsigned Line = SM.getExpansionLineNumber(L);
  for (unsigned Back = 1; Back <= 2 && Back < Line; ++Back) {
    auto It = Pragmas.find({File, Line - Back});
    if (It != Pragmas.end() && It->second.Kind == Kind)
      return &It->second;
  }
  return nullptr;
}

static std::string fileLine(const SourceManager &SM, SourceLocation L) {
  L = SM.getExpansionLoc(L);
  return formatv("{0}:{1}", sys::path::filename(SM.getFilename(L)),
                 SM.getExpansionLineNumber(L))
      .str();
}

std::optional<SymExpr> Analyzer::sideTrip(SourceLocation L) {
  if (!Override)
    return std::nullopt;
  auto It = Override->Loops.find(fileLine(SM, L));
  if (It == Override->Loops.end())
    return std::nullopt;
  return It->second;
}

std::optional<double> Analyzer::sideBranch(SourceLocation L) {
  if (!Override)
    return std::nullopt;
  auto It = Override->Branches.find(fileLine(SM, L));
  if (It == Override->Branches.end())
    return std::nullopt;
  return It->second;
}

bool Analyzer::overriddenTrip(SourceLocation L, SymExpr &Trip,
                              std::string &Note) {
  if (std::optional<SymExpr> T = sideTrip(L)) {
    Trip = *T;
    Note = "side file: " + fileLine(SM, L) + ": " + T->str();
    return true;
  }
  if (const OrreryPragma *P = pragmaBefore(L, "loop_count"))
    if (std::optional<SymExpr> T = parseSymExpr(P->Text)) {
      Trip = *T;
      Note = "#pragma orrery loop_count(" + P->Text + ")";
      return true;
    }
  return false;
}

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
    if (!isa<ParmVarDecl>(V) && initOf(V) && !LoopVars.count(V))
      return readsMemory(initOf(V));
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (readsMemory(CE))
        return true;
  return false;
}

bool Analyzer::mentionsThreadIdImpl(const Expr *E, unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  std::string B = builtinName(E);
  if (!B.empty())
    return StringRef(B).starts_with("threadIdx") ||
           StringRef(B).starts_with("blockIdx");
  if (const VarDecl *V = varOf(E)) {
    auto It = LoopVars.find(V);
    if (It != LoopVars.end())
      return mentionsThreadId(It->second.Init, Depth + 1);
    if (!isa<ParmVarDecl>(V) && initOf(V))
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
  if (!E || Depth > 12)
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
    // min(a, b) and max(a, b) in their CUDA and std spellings.
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || CE->getNumArgs() != 2 || !FD->getDeclName().isIdentifier())
      return std::nullopt;
    StringRef Name = FD->getName();
    bool Min = Name == "min" || Name == "umin" || Name == "fminf" ||
               Name == "fmin" || Name == "llmin";
    bool Max = Name == "max" || Name == "umax" || Name == "fmaxf" ||
               Name == "fmax" || Name == "llmax";
    if (!Min && !Max)
      return std::nullopt;
    std::optional<SymExpr> L = symbolic(CE->getArg(0), Depth + 1);
    std::optional<SymExpr> R = symbolic(CE->getArg(1), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    return Min ? SymExpr::min(*L, *R) : SymExpr::max(*L, *R);
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

/// The threadIdx.x coefficient of an index expression.
Coefficient Analyzer::coefficient(const Expr *E, unsigned Depth) {
  if (!E || Depth > 12)
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
    if (isa<ParmVarDecl>(V))
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
    case BO_Rem:
    case BO_Shr:
    case BO_And:
      if (L.C.isZero() && R.C.isZero())
        return Coefficient::known(0.0);
      return Coefficient::unknown();
    default:
      return Coefficient::unknown();
    }
  }
  if (!mentionsThreadId(E))
    return Coefficient::known(0.0);
  return Coefficient::unknown();
}

SymExpr Analyzer::elemSize(QualType Pointee) {
  if (Pointee->isDependentType())
    return SymExpr::sym("sizeof(" + Pointee.getUnqualifiedType().getAsString() +
                        ")");
  if (Pointee->isIncompleteType() || Pointee->isVoidType())
    return SymExpr(1.0);
  return SymExpr(
      static_cast<double>(Ctx.getTypeSizeInChars(Pointee).getQuantity()));
}

/// The precision class of a (non-dependent) arithmetic type, or null.
FpOps *Analyzer::fpClass(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    if (BT->getKind() == BuiltinType::Float ||
        BT->getKind() == BuiltinType::Half)
      return &H.Fp32;
    if (BT->getKind() == BuiltinType::Double ||
        BT->getKind() == BuiltinType::LongDouble)
      return &H.Fp64;
  }
  return nullptr;
}

/// The template parameter type an expression's value has, spelled as
/// written ("T"), searching operands when the expression's own type is the
/// opaque dependent type.
static std::string dependentTypeName(const Expr *E);

static std::string dependentTypeNameImpl(const Expr *E) {
  if (!E)
    return "";
  QualType T = E->getType();
  if (!T.isNull() && T->isDependentType() &&
      !T->isSpecificBuiltinType(BuiltinType::Dependent)) {
    if (const auto *P = T->getAs<PointerType>())
      T = P->getPointeeType();
    return T.getUnqualifiedType().getAsString();
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C)) {
      if (isa<ArraySubscriptExpr>(E) &&
          CE != cast<ArraySubscriptExpr>(E)->getBase())
        continue; // the index's type says nothing about the element
      std::string N = dependentTypeName(CE);
      if (!N.empty())
        return N;
    }
  return "";
}

static std::string dependentTypeName(const Expr *E) {
  return withStack([&] { return dependentTypeNameImpl(E); });
}

void Analyzer::countFp(FpKind K, QualType T, const Expr *E,
                       const SymExpr &Mult) {
  auto Slot = [K](FpOps &F) -> SymExpr & {
    switch (K) {
    case FpKind::Add:
      return F.Add;
    case FpKind::Mul:
      return F.Mul;
    case FpKind::Fma:
      return F.Fma;
    case FpKind::Div:
      return F.Div;
    case FpKind::Sqrt:
      return F.Sqrt;
    case FpKind::Transc:
      return F.Transc;
    }
    return F.Add;
  };
  if (T->isDependentType()) {
    // One generated function template serves every instantiation: split
    // the count by the instantiation's precision at compile time.
    std::string Ty = dependentTypeName(E);
    if (Ty.empty()) {
      diag("DEPENDENT_TYPE", E->getBeginLoc(),
           "operand type depends on a template parameter that could not be "
           "identified; operation not counted in the template's hint",
           "symbolic");
      return;
    }
    ++Work;
    Slot(H.Fp32) = Slot(H.Fp32) +
                   Mult * SymExpr::sym("orrery_precision<" + Ty + ">::fp32");
    Slot(H.Fp64) = Slot(H.Fp64) +
                   Mult * SymExpr::sym("orrery_precision<" + Ty + ">::fp64");
    if (K == FpKind::Add || K == FpKind::Mul || K == FpKind::Div)
      H.IntOps = H.IntOps +
                 Mult * SymExpr::sym("orrery_precision<" + Ty + ">::integer");
    return;
  }
  if (FpOps *Cls = fpClass(T))
    Slot(*Cls) = Slot(*Cls) + Mult, ++Work;
  else if (K == FpKind::Add || K == FpKind::Mul || K == FpKind::Div)
    H.IntOps = H.IntOps + Mult;
}

void Analyzer::arith(BinaryOperatorKind Op, QualType T, const SymExpr &Mult,
                     const Expr *At) {
  switch (Op) {
  case BO_Add:
  case BO_Sub:
  case BO_AddAssign:
  case BO_SubAssign:
    countFp(FpKind::Add, T, At, Mult);
    return;
  case BO_Mul:
  case BO_MulAssign:
    countFp(FpKind::Mul, T, At, Mult);
    return;
  case BO_Div:
  case BO_DivAssign:
    countFp(FpKind::Div, T, At, Mult);
    return;
  default:
    // Comparisons, shifts, bit operations: an integer issue slot.
    H.IntOps = H.IntOps + Mult;
    return;
  }
}

/// An fp multiply that an add or subtract of the same type contracts into an
/// fma (nvcc's default -fmad=true).
static const BinaryOperator *contractibleMul(const Expr *E, QualType T) {
  const auto *M = dyn_cast<BinaryOperator>(E->IgnoreParens());
  if (!M || M->getOpcode() != BO_Mul)
    return nullptr;
  QualType MT = M->getType().getCanonicalType().getUnqualifiedType();
  if (MT != T.getCanonicalType().getUnqualifiedType() ||
      !(MT->isRealFloatingType() || MT->isDependentType()))
    return nullptr;
  return M;
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
      Coefficient C = coefficient(AS->getIdx());
      if (C.K != Coefficient::Known || Acc.K != Coefficient::Known)
        Acc = C.K == Coefficient::Indirect || Acc.K == Coefficient::Indirect
                  ? Coefficient::indirect()
                  : Coefficient::unknown();
      else
        Acc = Coefficient::known(Acc.C + C.C * RowSize);
      Base = AS->getBase();
      B = Base->IgnoreParenImpCasts();
    }
    Linear = Acc;
  }
  const Expr *B = Base->IgnoreParenImpCasts();
  const VarDecl *V = varOf(B);
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
  if (V && V->isLocalVarDecl() && V->getType()->isPointerType() && V->getInit())
    // volatile float *w = sdata;
    if (const VarDecl *To = varOf(V->getInit()); To && SharedVars.count(To))
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
  A.Array = V ? V->getName().str() : "<expr>";
  A.Space = Space;
  A.Dir = Dir.str();
  // The element accessed (a[i] of float4* is 16 bytes; As[i][j] of
  // float[16][16] is 4).
  A.ElemSize =
      elemSize(E->getType()->isDependentType() || E->isGLValue() ? E->getType()
                                                                 : Pointee);
  A.ElemBytes =
      A.ElemSize.constant() ? static_cast<unsigned>(*A.ElemSize.constant()) : 0;
  A.Count = Mult;
  A.Location = loc(E->getBeginLoc());
  Coefficient C = Linear ? *Linear : Coefficient::known(0.0);
  if (C.K == Coefficient::Indirect)
    A.Pattern = AccessPattern::Indirect;
  else if (C.K == Coefficient::Unknown)
    A.Pattern = AccessPattern::Unknown;
  else if (C.C.isZero())
    A.Pattern = AccessPattern::Uniform;
  else if (C.C.constant() && std::fabs(*C.C.constant()) == 1)
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
    diag("UNKNOWN_PATTERN", E->getBeginLoc(),
         "index of '" + A.Array +
             "' is not affine in threadIdx.x; 32 sectors per warp assumed",
         "symbolic");
  ++Work;
  H.Accesses.push_back(std::move(A));
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
  // A local variable: no memory traffic.
}

void Analyzer::call(const CallExpr *CE, const SymExpr &Mult) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD) {
    diag("INDIRECT_CALL", CE->getBeginLoc(),
         "call through a function pointer; its cost is unknown", "unknown");
    return;
  }
  StringRef Name = FD->getName();
  // Math library and intrinsics.
  enum Kind { None, Fma, Sqrt, Transc, Div, Atomic, Sync, Fence, Shfl };
  Kind K = StringSwitch<Kind>(Name)
               .Cases({"fma", "fmaf", "__fma_rn", "__fmaf_rn", "__fmaf_rz",
                       "__fma_rz"},
                      Fma)
               .Cases({"sqrt", "sqrtf", "rsqrt", "rsqrtf", "__fsqrt_rn",
                       "__dsqrt_rn", "cbrt", "cbrtf", "hypot", "hypotf"},
                      Sqrt)
               .Cases({"__fdividef", "__fdiv_rn", "__ddiv_rn"}, Div)
               .Cases({"__syncthreads", "__syncwarp", "__syncthreads_count",
                       "__syncthreads_and", "__syncthreads_or"},
                      Sync)
               .Cases({"__threadfence", "__threadfence_block",
                       "__threadfence_system"},
                      Fence)
               .Default(None);
  if (K == None) {
    static const StringSet<> TranscNames = {
        "exp",    "expf",   "exp2",     "exp2f",   "exp10",    "exp10f",
        "expm1",  "expm1f", "log",      "logf",    "log2",     "log2f",
        "log10",  "log10f", "log1p",    "log1pf",  "sin",      "sinf",
        "cos",    "cosf",   "tan",      "tanf",    "sincos",   "sincosf",
        "asin",   "asinf",  "acos",     "acosf",   "atan",     "atanf",
        "atan2",  "atan2f", "sinh",     "sinhf",   "cosh",     "coshf",
        "tanh",   "tanhf",  "pow",      "powf",    "erf",      "erff",
        "erfc",   "erfcf",  "__expf",   "__logf",  "__sinf",   "__cosf",
        "__tanf", "__powf", "__exp10f", "__log2f", "__log10f", "__sincosf",
        "sinpi",  "sinpif", "cospi",    "cospif",  "lgamma",   "lgammaf",
        "tgamma", "tgammaf"};
    if (TranscNames.count(Name))
      K = Transc;
    else if (Name.starts_with("atomic"))
      K = Atomic;
    else if (Name.starts_with("__shfl"))
      K = Shfl;
  }
  auto ArgsAt = [&](unsigned From) {
    for (unsigned I = From; I < CE->getNumArgs(); ++I)
      expr(CE->getArg(I), Mult);
  };
  switch (K) {
  case Fma:
  case Sqrt:
  case Transc:
  case Div: {
    countFp(K == Fma    ? FpKind::Fma
            : K == Sqrt ? FpKind::Sqrt
            : K == Div  ? FpKind::Div
                        : FpKind::Transc,
            CE->getType(), CE, Mult);
    ArgsAt(0);
    return;
  }
  case Sync:
    H.SyncThreads = H.SyncThreads + Mult;
    ++Work;
    ArgsAt(0);
    return;
  case Fence:
    return;
  case Shfl:
    H.IntOps = H.IntOps + Mult;
    ArgsAt(0);
    return;
  case Atomic: {
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
    A.ElemBytes = A.ElemSize.constant()
                      ? static_cast<unsigned>(*A.ElemSize.constant())
                      : 0;
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
    ArgsAt(1);
    if (Index)
      expr(Index, Mult);
    return;
  }
  case None:
    break;
  }
  // A __device__ function: inline its body.
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def->hasAttr<CUDADeviceAttr>()) {
    ArgsAt(0);
    if (!FD->isInStdNamespace() && !FD->getBuiltinID() &&
        !SM.isInSystemHeader(FD->getLocation()))
      diag("UNKNOWN_CALL", CE->getBeginLoc(),
           "call to '" + Name + "' has no visible __device__ body; not counted",
           "symbolic");
    return;
  }
  if (is_contained(InlineStack, Def) || InlineStack.size() > 16) {
    diag("RECURSION", CE->getBeginLoc(),
         "recursive call to '" + Name + "'; its cost is unknown", "unknown");
    return;
  }
  ArgsAt(0);
  InlineStack.push_back(Def);
  stmt(Def->getBody(), Mult, false);
  InlineStack.pop_back();
}

void Analyzer::exprImpl(const Expr *E, const SymExpr &Mult) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_Assign) {
      assignTarget(BO->getLHS(), Mult, false);
      expr(BO->getRHS(), Mult);
      return;
    }
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(BO)) {
      assignTarget(CA->getLHS(), Mult, true);
      QualType T = CA->getComputationResultType();
      if ((Op == BO_AddAssign || Op == BO_SubAssign))
        if (const BinaryOperator *M = contractibleMul(CA->getRHS(), T)) {
          countFp(FpKind::Fma, T, E, Mult);
          expr(M->getLHS(), Mult);
          expr(M->getRHS(), Mult);
          return;
        }
      arith(Op, T, Mult, E);
      expr(CA->getRHS(), Mult);
      return;
    }
    if (Op == BO_Add || Op == BO_Sub) {
      // a*b + c, c + a*b, a*b - c: one fma.
      const BinaryOperator *M = contractibleMul(BO->getLHS(), BO->getType());
      const Expr *Other = BO->getRHS();
      if (!M && Op == BO_Add) {
        M = contractibleMul(BO->getRHS(), BO->getType());
        Other = BO->getLHS();
      }
      if (M) {
        countFp(FpKind::Fma, BO->getType(), E, Mult);
        expr(M->getLHS(), Mult);
        expr(M->getRHS(), Mult);
        expr(Other, Mult);
        return;
      }
    }
    if (Op == BO_LAnd || Op == BO_LOr || Op == BO_Comma) {
      expr(BO->getLHS(), Mult);
      expr(BO->getRHS(), Mult);
      return;
    }
    QualType T = BinaryOperator::isComparisonOp(Op) ? BO->getLHS()->getType()
                                                    : BO->getType();
    arith(Op, T, Mult, E);
    expr(BO->getLHS(), Mult);
    expr(BO->getRHS(), Mult);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Deref:
      memAccess(U, U->getSubExpr(), nullptr, "load", Mult);
      return;
    case UO_AddrOf:
      // &a[i]: address arithmetic, no access.
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
        expr(AS->getIdx(), Mult);
      return;
    case UO_PreInc:
    case UO_PostInc:
    case UO_PreDec:
    case UO_PostDec:
      arith(BO_Add, U->getType(), Mult, E);
      assignTarget(U->getSubExpr(), Mult, true);
      return;
    case UO_Minus:
    case UO_Not:
    case UO_LNot:
      expr(U->getSubExpr(), Mult);
      return;
    default:
      expr(U->getSubExpr(), Mult);
      return;
    }
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    memAccess(AS, AS->getBase(), AS->getIdx(), "load", Mult);
    expr(AS->getIdx(), Mult);
    return;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    // Assignment of a struct or vector type (float4 = float4).
    assignTarget(Op->getArg(0), Mult, false);
    expr(Op->getArg(1), Mult);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (isa<CUDAKernelCallExpr>(CE)) {
      diag("DYNAMIC_PARALLELISM", CE->getBeginLoc(),
           "device-side launch; the child kernel is not counted", "unknown");
      return;
    }
    call(CE, Mult);
    return;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    expr(C->getCond(), Mult);
    // On thread coordinates only (`i < n ? in[i] : 0`): the fraction of the
    // threads here that take it.
    SymExpr P(DefaultBranchProbability);
    std::vector<Compare> Cs;
    bool Other = false;
    if (threadCompares(C->getCond(), false, Cs, Other) && !Other) {
      ThreadSet Inner = current();
      for (const Compare &X : Cs)
        Inner.constrain(X.L, X.R, X.Bound);
      P = current().fractionIn(Inner);
    }
    expr(C->getTrueExpr(), Mult * P);
    expr(C->getFalseExpr(), Mult * (SymExpr(1.0) - P));
    return;
  }
  if (isa<PseudoObjectExpr>(E) || isa<DeclRefExpr>(E) ||
      isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<UnaryExprOrTypeTraitExpr>(E))
    return;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    expr(ICE->getSubExpr(), Mult);
    return;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      expr(CE, Mult);
}

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

static std::optional<Rel> relOf(BinaryOperatorKind Op) {
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
  if (!Cond || Depth > 8) {
    Other = true;
    return !Out.empty();
  }
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return threadCompares(U->getSubExpr(), !Negated, Out, Other, Depth + 1);
  if (const VarDecl *V = varOf(Cond); V && !isa<ParmVarDecl>(V) && initOf(V) &&
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

const Expr *Analyzer::initOf(const VarDecl *V) const {
  if (V->getInit())
    return V->getInit();
  auto It = Assigned.find(V);
  return It == Assigned.end() ? nullptr : It->second;
}

/// Local variables declared without a value and assigned exactly once.
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
    } else if (const auto *U = dyn_cast<UnaryOperator>(S);
               U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    if (const VarDecl *V = Target ? varOf(Target) : nullptr;
        V && V->isLocalVarDecl() && !V->getInit()) {
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
      diag("ROW_LENGTH", At,
           formatv("loop runs from {0}[r] to {0}[r+1]: trip is the symbol "
                   "'{1}' (average row length; bind it with --launch or "
                   "the side file's symbols; {2} in the generated hint)",
                   varOf(First->getBase())->getName(), Name,
                   static_cast<int>(DefaultDataDependentTrip)),
           "defaulted");
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
  if (L.Step && Lo && Hi) {
    SymExpr Span = L.Down ? *Lo - *Hi : *Hi - *Lo;
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
    diag("UNKNOWN_TRIP", At,
         formatv("{0} trip count is data-dependent; defaulted to {1} "
                 "(override with #pragma orrery loop_count(expr))",
                 What, static_cast<int>(DefaultDataDependentTrip)),
         "defaulted");
  else if (R.Kind != "constant" && R.Kind != "row_length")
    lower("symbolic");
  H.Loops.push_back({loc(At), R.Kind, R.Trip, R.Note, R.MaxTrip});
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
  if (L.Init)
    expr(L.Init, Mult);
  if (F->getCond())
    expr(F->getCond(), Inner);
  if (F->getInc())
    expr(F->getInc(), Inner);
  stmt(F->getBody(), Inner, false);
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
    if (V && V->isLocalVarDecl() && !isa<ParmVarDecl>(V) && V->getInit()) {
      L.IV = V;
      L.Init = V->getInit();
      break;
    }
  }
  // Exactly one statement of the body writes the variable, at its top.
  const Expr *Update = nullptr;
  unsigned Writes = 0;
  std::vector<const Stmt *> Work{Body};
  while (L.IV && !Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *E = dyn_cast<Expr>(S)) {
      LoopHeader Probe;
      Probe.IV = L.IV;
      const Expr *Target = nullptr;
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
        Target = B->getLHS();
      else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && U->isIncrementDecrementOp())
        Target = U->getSubExpr();
      if (Target && varOf(Target) == L.IV) {
        ++Writes;
        Update = E;
      }
    }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
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

static bool isEarlyReturn(const IfStmt *If) {
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
    diag("SWITCH", S->getBeginLoc(),
         "switch on a value that is not launch-uniform: every case counted "
         "once",
         "defaulted");
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
          diag("SWITCH", C->getBeginLoc(),
               "case label is not a constant: every case counted once",
               "defaulted");
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

void Analyzer::stmtImpl(const Stmt *S, const SymExpr &Mult, bool TopLevel) {
  if (!S)
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    // Statements after a guarded `if (gid < n) {...}` run in every launched
    // thread, not only the active ones: scale them by launched / active.
    // So do statements after a top-level grid-stride loop.
    SymExpr Scale(1.0);
    for (const Stmt *Child : CS->body()) {
      size_t Guards = GuardNotes.size();
      LastLoopGridStride = false;
      stmt(Child, Mult * Scale, TopLevel);
      const auto *If = dyn_cast<IfStmt>(Child);
      bool Guarded = If && !isEarlyReturn(If);
      bool Strided = isa<ForStmt>(Child) && LastLoopGridStride;
      if (TopLevel && InlineStack.empty() && GuardNotes.size() > Guards &&
          (Guarded || Strided))
        Scale = launchedThreads() / activeThreads();
    }
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (V->hasAttr<CUDASharedAttr>()) {
          SharedVars.insert(V);
          QualType T = V->getType();
          if (const auto *IA = Ctx.getAsIncompleteArrayType(T)) {
            (void)IA;
            H.DynamicShared = true;
          } else if (!T->isDependentType() && !T->isIncompleteType())
            H.SharedStaticBytes =
                H.SharedStaticBytes +
                static_cast<double>(Ctx.getTypeSizeInChars(T).getQuantity());
          else
            // A dependent type (often a typedef local to the kernel, like
            // cub::BlockReduce<...>::TempStorage) cannot be named in the
            // generated function: each instantiation's hint has the size.
            diag("DEPENDENT_SHARED", V->getLocation(),
                 "size of __shared__ '" + V->getName() +
                     "' depends on template parameters; counted per "
                     "instantiation only",
                 "symbolic");
          continue;
        }
        if (V->getInit())
          expr(V->getInit(), Mult);
      }
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
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
    std::optional<SymExpr> ThenMult;
    std::optional<ThreadSet> Inner;
    std::vector<Compare> Cs;
    bool Other = false;
    if (std::optional<double> Side = sideBranch(If->getBeginLoc())) {
      P = SymExpr(*Side);
    } else if (const OrreryPragma *Pr =
                   pragmaBefore(If->getBeginLoc(), "branch_prob")) {
      if (std::optional<SymExpr> V = parseSymExpr(Pr->Text))
        P = *V;
    } else if (std::optional<SymExpr> One = oneThreadPerBlock(If->getCond())) {
      P = *One; // if (threadIdx.x == 0): one thread of each block
    } else if (std::optional<SymExpr> Flag = flagParameter(If->getCond())) {
      P = *Flag;
    } else if (std::optional<SymExpr> Step =
                   reductionStep(If->getCond(), Mult)) {
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
        diag("BRANCH_PROB", If->getBeginLoc(),
             formatv("part of the condition is not on thread ids: "
                     "probability {0:F1} assumed for it (override with "
                     "#pragma orrery branch_prob(p))",
                     DefaultBranchProbability),
             "defaulted");
      }
    } else if (!EarlyReturn) {
      diag("BRANCH_PROB", If->getBeginLoc(),
           formatv("branch probability assumed {0:F1} (override with #pragma "
                   "orrery branch_prob(p))",
                   DefaultBranchProbability),
           "defaulted");
    }
    if (Inner)
      Nest.push_back(*Inner);
    stmt(Then, ThenMult ? *ThenMult : Mult * P, false);
    if (Inner)
      Nest.pop_back();
    if (If->getElse())
      stmt(If->getElse(),
           ThenMult ? Mult - *ThenMult : Mult * (SymExpr(1.0) - P), false);
    return;
  }
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    loop(F, Mult);
    return;
  }
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    LoopResult R =
        conditionLoop(W->getCond(), W->getBody(), W->getBeginLoc(), false);
    recordLoop(R, W->getBeginLoc(), "while-loop");
    expr(W->getCond(), Mult * R.Trip);
    stmt(W->getBody(), Mult * R.Trip, false);
    return;
  }
  if (const auto *D = dyn_cast<DoStmt>(S)) {
    LoopResult R =
        conditionLoop(D->getCond(), D->getBody(), D->getBeginLoc(), true);
    recordLoop(R, D->getBeginLoc(), "do-loop");
    stmt(D->getBody(), Mult * R.Trip, false);
    expr(D->getCond(), Mult * R.Trip);
    return;
  }
  if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    switchStmt(Sw, Mult);
    return;
  }
  if (isa<GCCAsmStmt>(S) || isa<MSAsmStmt>(S)) {
    diag("INLINE_ASM", S->getBeginLoc(),
         "inline PTX/assembly; its cost is unknown", "unknown");
    return;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    expr(R->getRetValue(), Mult);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    expr(E, Mult);
    return;
  }
  for (const Stmt *Child : S->children())
    stmt(Child, Mult, false);
}

SymExpr Analyzer::launchedThreads() const {
  SymExpr L(1.0);
  for (unsigned D = 0; D < 3; ++D) {
    std::string Dim(1, "xyz"[D]);
    L = L * SymExpr::sym("gridDim." + Dim) * SymExpr::sym("blockDim." + Dim);
  }
  return L;
}

SymExpr Analyzer::activeThreads() const { return Kernel.count(); }

KernelHint Analyzer::run(const FunctionDecl *K) {
  H.Name = K->getNameAsString();
  H.Location = loc(K->getLocation());
  for (const ParmVarDecl *P : K->parameters())
    H.Params.push_back(P->getNameAsString());
  H.IntOps = SymExpr(0.0);
  collectAssignments(K->getBody());
  stmt(K->getBody(), SymExpr(1.0), true);
  SymExpr Active = activeThreads();
  H.ActiveThreads = Active;
  for (FpOps *F : {&H.Fp32, &H.Fp64})
    for (SymExpr *E :
         {&F->Add, &F->Mul, &F->Fma, &F->Div, &F->Sqrt, &F->Transc})
      *E = E->normalize();
  H.IntOps = H.IntOps.normalize();
  H.SyncThreads = H.SyncThreads.normalize();
  for (Access &A : H.Accesses)
    A.Count = A.Count.normalize();
  for (const std::string &G : GuardNotes)
    H.ActiveNote += (H.ActiveNote.empty() ? "" : ", ") + G;
  if (H.ActiveNote.empty())
    H.ActiveNote = "no thread-id guard: every launched thread";
  // Footprint: arrays whose every access (in one direction) is coalesced
  // and outside loops touch one element per active thread.
  struct FootprintInfo {
    bool Ok = true;
    SymExpr Elem;
  };
  std::map<std::string, FootprintInfo> PerArray;
  for (const Access &A : H.Accesses) {
    if (A.Space != "global" || A.Dir == "atomic")
      continue;
    FootprintInfo &I = PerArray[A.Array + " (" + A.Dir + ")"];
    I.Elem = A.ElemSize;
    I.Ok &= A.Pattern == AccessPattern::Coalesced && A.Count.constant() == 1.0;
  }
  for (auto &[Key, I] : PerArray)
    if (I.Ok)
      H.Footprint.push_back({Key, Active * I.Elem});
  // Anything depending on parameters or geometry is at best symbolic.
  std::set<std::string> Syms;
  for (const FpOps *F : {&H.Fp32, &H.Fp64})
    for (const SymExpr *E :
         {&F->Add, &F->Mul, &F->Fma, &F->Div, &F->Sqrt, &F->Transc})
      E->symbols(Syms);
  for (const Access &A : H.Accesses)
    A.Count.symbols(Syms);
  if (!Syms.empty())
    lower("symbolic");
  return H;
}

} // namespace

KernelHint analyzeKernel(ASTContext &Ctx, const FunctionDecl *K,
                         const PragmaTable &Pragmas,
                         const KernelOverride *Override) {
  KernelHint H = Analyzer(Ctx, Pragmas, Override).run(K);
  if (Override && Override->DurationMicros) {
    H.Overridden = true;
    H.MeasuredMicros = *Override->DurationMicros;
  }
  return H;
}

} // namespace orrery
