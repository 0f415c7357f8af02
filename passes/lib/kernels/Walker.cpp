//===- Walker.cpp - The kernel walker: statements, expressions, the hint
//----===//

#include "Analyzer.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

std::string Analyzer::loc(SourceLocation L) {
  L = SM.getExpansionLoc(L);
  return formatv("{0}:{1}:{2}", sys::path::filename(SM.getFilename(L)),
                 SM.getExpansionLineNumber(L), SM.getExpansionColumnNumber(L))
      .str();
}

void Analyzer::lower(models::Confidence C) {
  // The enum is ordered from the best.
  H.Confidence = std::max(H.Confidence, C);
}

void Analyzer::diag(HintCode Code, SourceLocation L, const Twine &Msg) {
  const HintCodeInfo &Info = hintCodeInfo(Code);
  std::string Where = loc(L);
  for (const HintDiagnostic &D : H.Diagnostics)
    if (D.Code == Info.Name && D.Location == Where)
      return;
  H.Diagnostics.push_back({"warning", Info.Name, Where, Msg.str()});
  lower(Info.Confidence);
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
      diag(HintCode::DynamicParallelism, CE->getBeginLoc(),
           "device-side launch; the child kernel is not counted");
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
      if (TopLevel && InlineStack.empty())
        noteAssignment(Child);
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
            diag(HintCode::DependentShared, V->getLocation(),
                 "size of __shared__ '" + V->getName() +
                     "' depends on template parameters; counted per "
                     "instantiation only");
          continue;
        }
        if (V->getInit()) {
          StatementLoads.clear();
          expr(V->getInit(), Mult);
        }
      }
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    ifStmt(If, Mult, TopLevel);
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
    // `#pragma unroll k` before a loop: its control runs once per k trips.
    for (const Attr *A : AS->getAttrs())
      if (const auto *LH = dyn_cast<LoopHintAttr>(A);
          LH && (LH->getOption() == LoopHintAttr::Unroll ||
                 LH->getOption() == LoopHintAttr::UnrollCount)) {
        UnrollNext = 0; // full
        Expr::EvalResult R;
        if (LH->getOption() == LoopHintAttr::UnrollCount && LH->getValue() &&
            !LH->getValue()->isValueDependent() &&
            LH->getValue()->EvaluateAsInt(R, Ctx))
          UnrollNext = std::max<int64_t>(1, R.Val.getInt().getExtValue());
        else if (LH->getState() == LoopHintAttr::Disable)
          UnrollNext = 1;
      }
    stmt(AS->getSubStmt(), Mult, TopLevel);
    UnrollNext = -1;
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
    diag(HintCode::InlineAsm, S->getBeginLoc(),
         "inline PTX/assembly; its cost is unknown");
    return;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    StatementLoads.clear();
    // The accessor an assignment stores through returns its target.
    if (StoreReturnDepth && StoreReturnDepth == InlineStack.size() &&
        R->getRetValue()) {
      unsigned Depth = StoreReturnDepth;
      StoreReturnDepth = 0;
      assignTarget(R->getRetValue(), Mult, StoreReturnAlsoLoad);
      StoreReturnDepth = Depth;
      return;
    }
    expr(R->getRetValue(), Mult);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    StatementLoads.clear();
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
  KernelDecl = K;
  if (const auto *LB = K->getAttr<CUDALaunchBoundsAttr>()) {
    auto Value = [&](const Expr *E) -> unsigned {
      Expr::EvalResult R;
      if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().isStrictlyPositive())
        return static_cast<unsigned>(R.Val.getInt().getLimitedValue(1u << 30));
      return 0;
    };
    H.LaunchBoundsMaxThreads = Value(LB->getMaxThreads());
  }
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
  std::set<std::string> Flags;
  for (const ParmVarDecl *P : K->parameters())
    if (P->getType()->isBooleanType())
      Flags.insert(P->getNameAsString());
  footprints(Active, Flags);
  // Anything depending on parameters or geometry is at best symbolic.
  std::set<std::string> Syms;
  for (const FpOps *F : {&H.Fp32, &H.Fp64})
    for (const SymExpr *E :
         {&F->Add, &F->Mul, &F->Fma, &F->Div, &F->Sqrt, &F->Transc})
      E->symbols(Syms);
  for (const Access &A : H.Accesses)
    A.Count.symbols(Syms);
  if (!Syms.empty())
    lower(models::Confidence::Symbolic);
  return H;
}

} // namespace kernels

KernelHint analyzeKernel(ASTContext &Ctx, const FunctionDecl *K,
                         const PragmaTable &Pragmas,
                         const KernelOverride *Override) {
  KernelHint H = kernels::Analyzer(Ctx, Pragmas, Override).run(K);
  if (Override && Override->DurationMicros) {
    H.Overridden = true;
    H.MeasuredMicros = *Override->DurationMicros;
  }
  return H;
}

} // namespace orrery
