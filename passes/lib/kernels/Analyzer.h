//===- Analyzer.h - The kernel walker and its rules' shared state -*- C++ -*-//
//
// The walker (Walker.cpp) visits a kernel's statements and expressions with
// the number of executions per active thread so far; each concern it
// consults lives in its own file, one job each:
//
//   SourceValues.cpp    source expressions as SymExprs (symbolic
//                       expressions), thread-id dependence, local values
//   MathCalls.cpp       arithmetic by precision, fma contraction, and calls:
//                       math functions from a data table, barriers,
//                       shuffles, __device__ functions inlined
//   Atomics.cpp         atomic calls and their address classes
//   LibraryCollectives.cpp  CUB block/warp reduce and scan, cooperative
//                       groups' reduce, scans and shuffles, by known cost
//   AccessPatterns.cpp  memory accesses: threadIdx.x coefficient, pattern,
//                       space, element size, bank conflicts
//   ThreadGuards.cpp    thread-id guards and branch fractions (solved in
//                       ThreadRanges.cpp)
//   Branches.cpp        if and switch: guards, overrides, probabilities
//   LoopTrips.cpp       loop trips: affine, grid/block-stride, halving,
//                       CSR rows, while/do
//
// The rules of docs/kernel-cost.md; diagnostic codes in HintCodes.h.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_KERNELS_ANALYZER_H
#define ORRERY_PASSES_KERNELS_ANALYZER_H

#include "HintCodes.h"
#include "KernelAnalysis.h"
#include "ThreadRanges.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Stack.h"
#include "llvm/ADT/Twine.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace orrery {
namespace kernels {

using clang::ASTContext;
using clang::BinaryOperator;
using clang::BinaryOperatorKind;
using clang::CallExpr;
using clang::Expr;
using clang::ForStmt;
using clang::FunctionDecl;
using clang::IfStmt;
using clang::QualType;
using clang::SourceLocation;
using clang::SourceManager;
using clang::Stmt;
using clang::SwitchStmt;
using clang::VarDecl;
using llvm::StringRef;
using llvm::Twine;

/// The threadIdx.x coefficient of an index, or why there is none.
struct Coefficient {
  enum Kind { Known, Indirect, Unknown } K = Known;
  SymExpr C; ///< elements per threadIdx.x step
  static Coefficient known(SymExpr C) { return {Known, std::move(C)}; }
  static Coefficient indirect() { return {Indirect, SymExpr(0.0)}; }
  static Coefficient unknown() { return {Unknown, SymExpr(0.0)}; }
};

/// \p A + \p B x \p Scale: known when both are; indirect when either is;
/// unknown otherwise.
inline Coefficient addCoefficients(const Coefficient &A, const Coefficient &B,
                                   const SymExpr &Scale = SymExpr(1.0)) {
  if (A.K == Coefficient::Known && B.K == Coefficient::Known)
    return Coefficient::known(A.C + B.C * Scale);
  return A.K == Coefficient::Indirect || B.K == Coefficient::Indirect
             ? Coefficient::indirect()
             : Coefficient::unknown();
}

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

/// Calls F on \p Root and every statement below it (an explicit worklist:
/// no recursion however deep the code nests).
template <typename FnT> void forEachStmt(const clang::Stmt *Root, FnT F) {
  std::vector<const clang::Stmt *> Work{Root};
  while (!Work.empty()) {
    const clang::Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    F(S);
    for (const clang::Stmt *C : S->children())
      Work.push_back(C);
  }
}

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

/// For a call of min(a, b) or max(a, b) in their CUDA and std spellings
/// (umin, fminf, llmax, ...): true for a minimum, false for a maximum.
std::optional<bool> minOrMax(const CallExpr *CE);

/// A cooperative-groups shuffle method (tile.shfl_down, ...).
bool isGroupShuffle(const FunctionDecl *FD);

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
  const FunctionDecl *pointedFunction(const Expr *E, unsigned Depth = 0);
  /// A name for the object or array \p E denotes (`b`, `b.data` inside an
  /// accessor called on b).
  std::string objectName(const Expr *E) const;
  /// The objects of the member functions being inlined, by name.
  std::vector<std::string> ThisNames;
  void atomicCall(const CallExpr *CE, const SymExpr &Mult);
  bool libraryCollective(const CallExpr *CE, const FunctionDecl *FD,
                         const SymExpr &Mult);
  bool groupCollective(const CallExpr *CE, const FunctionDecl *FD,
                       const SymExpr &Mult);
  /// A device-initiated NVSHMEM call (NvshmemCalls.cpp): its bytes counted
  /// as remote; false if \p Name is not one.
  bool nvshmemCall(const CallExpr *CE, StringRef Name, const SymExpr &Mult);
  void ifStmt(const IfStmt *If, const SymExpr &Mult, bool TopLevel);
  void arith(BinaryOperatorKind Op, QualType T, const SymExpr &Mult,
             const Expr *At);
  enum class FpKind { Add, Mul, Fma, Div, Sqrt, Transc };
  void countFp(FpKind K, QualType T, const Expr *E, const SymExpr &Mult);
  void loop(const ForStmt *F, const SymExpr &Mult);
  bool loopStep(const Expr *Inc, const VarDecl *IV, LoopHeader &L);
  /// The variable \p E itself (not a subexpression) assigns,
  /// compound-assigns, increments or decrements (null: none).
  const VarDecl *writtenVar(const Expr *E);
  /// A local's value where a loop over it starts: the last top-level
  /// assignment before the loop, else its initializer (null: unknown).
  const Expr *valueBeforeLoop(const VarDecl *V) const;
  bool loopCond(const Expr *Cond, LoopHeader &L);
  LoopResult loopTrip(const LoopHeader &L, SourceLocation At);
  std::optional<SymExpr> spanBetween(const Expr *From, const Expr *To);
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
  /// initializer, or its one assignment (`int i; i = ...;`); for a parameter
  /// of an inlined function, the caller's argument.
  const Expr *initOf(const VarDecl *V) const;
  void collectAssignments(const Stmt *S);
  // Footprints (Footprints.cpp).
  std::string bufferOf(const VarDecl *V) const;
  bool dependsOnBlock(const Expr *E, std::set<const VarDecl *> &Seen,
                      unsigned Depth = 0);
  /// The threadIdx.x coefficient of where a pointer variable points, and of
  /// a pointer expression (`a + threadIdx.x`, `&a[i]`), in elements.
  Coefficient pointerCoefficient(const VarDecl *V, unsigned Depth = 0);
  Coefficient offsetCoefficient(const Expr *P, unsigned Depth = 0);
  bool chases(const VarDecl *Pointer, const Expr *Index);
  void footprints(const SymExpr &Active,
                  const std::set<std::string> &LaunchFlags);
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
  /// Records a diagnostic; the hint's confidence drops to the code's.
  void diag(HintCode Code, SourceLocation L, const Twine &Msg);
  void lower(models::Confidence C);
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
  /// Every value each local is assigned anywhere in the kernel (null for a
  /// compound assignment or increment).
  std::map<const VarDecl *, std::vector<const Expr *>> Values;
  /// The right-hand sides of each variable's compound assignments (p += k).
  std::map<const VarDecl *, std::vector<const Expr *>> Steps;
  /// The kernel being analysed.
  const FunctionDecl *KernelDecl = nullptr;
  /// Inlining an accessor assigned through (`a(i, j) = v`): the inline
  /// depth whose return statements are the store's target (0: none), and
  /// whether the target is also read (`+=`).
  size_t StoreReturnDepth = 0;
  bool StoreReturnAlsoLoad = false;
  /// Inlined functions whose locals collectAssignments has seen.
  std::set<const FunctionDecl *> Collected;
  /// Parameters of the __device__ functions being inlined (a functor's or
  /// closure's operator() included), bound to the caller's arguments: an
  /// index passed in keeps its thread-dependence and its value.
  std::map<const VarDecl *, const Expr *> ParamArgs;
  /// Inside a branch one lane of each warp takes (threadIdx.x == 0, the
  /// first lane): its accesses are one lane's bytes, not a warp's.
  unsigned SingleLane = 0;
  /// Loads of the statement being walked, by source text and count: the
  /// same element read twice in one statement (x[i] * x[i]) is one load.
  std::set<std::string> StatementLoads;
  /// Locals reassigned in the kernel's top-level straight-line code: the
  /// value of the assignment seen last (null: one that reads the variable
  /// itself, no longer known), which statements after it see.
  std::map<const VarDecl *, const Expr *> Current;
  /// Records `x = E;` (a top-level statement) for the statements after it.
  void noteAssignment(const Stmt *S);
  bool LastLoopGridStride = false;
  /// The unroll factor a `#pragma unroll` sets for the next loop: -1 none,
  /// 0 full, else k.
  int64_t UnrollNext = -1;
  /// The unrolling the compiler picks for an innermost loop without a
  /// pragma: 0 full, else the factor (1: none).
  int64_t defaultUnroll(const SymExpr &Trip, const Stmt *Body);
  /// Operations, accesses and barriers counted so far.
  unsigned Work = 0;
  std::vector<std::string> GuardNotes;
  const Expr *ConsumedMul = nullptr; ///< a `*` already counted as part of fma
};

/// The array a pointer value points into: `a`, `&a[i]`, `&a[i][j]`.
const VarDecl *arrayOf(const Expr *E);

/// An fp multiply that an add or subtract of the same type contracts into
/// an fma (nvcc's default -fmad=true).
const BinaryOperator *contractibleMul(const Expr *E, QualType T);
/// The relation of a comparison operator.
std::optional<Rel> relOf(BinaryOperatorKind Op);
/// `if (...) return;`
bool isEarlyReturn(const IfStmt *If);

} // namespace kernels
} // namespace orrery

#endif
