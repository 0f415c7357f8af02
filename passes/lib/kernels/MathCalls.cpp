//===- MathCalls.cpp - Arithmetic by precision and calls
//--------------------===//

#include "Analyzer.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

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
      diag(HintCode::DependentType, E->getBeginLoc(),
           "operand type depends on a template parameter that could not be "
           "identified; operation not counted in the template's hint");
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
const BinaryOperator *contractibleMul(const Expr *E, QualType T) {
  const auto *M = dyn_cast<BinaryOperator>(E->IgnoreParens());
  if (!M || M->getOpcode() != BO_Mul)
    return nullptr;
  QualType MT = M->getType().getCanonicalType().getUnqualifiedType();
  if (MT != T.getCanonicalType().getUnqualifiedType() ||
      !(MT->isRealFloatingType() || MT->isDependentType()))
    return nullptr;
  return M;
}

namespace {
enum Kind { None, Fma, Sqrt, Transc, Div, Atomic, Sync, Fence, Shfl };

/// What each math function and intrinsic costs. Names starting with
/// `atomic` and `__shfl` are matched by prefix.
const struct {
  const char *Name;
  Kind K;
} CallTable[] = {
    // fma: 2 flops
    {"fma", Fma},
    {"fmaf", Fma},
    {"__fma_rn", Fma},
    {"__fmaf_rn", Fma},
    {"__fmaf_rz", Fma},
    {"__fma_rz", Fma},
    // sqrt class
    {"sqrt", Sqrt},
    {"sqrtf", Sqrt},
    {"rsqrt", Sqrt},
    {"rsqrtf", Sqrt},
    {"__fsqrt_rn", Sqrt},
    {"__dsqrt_rn", Sqrt},
    {"cbrt", Sqrt},
    {"cbrtf", Sqrt},
    {"hypot", Sqrt},
    {"hypotf", Sqrt},
    // divisions written as calls
    {"__fdividef", Div},
    {"__fdiv_rn", Div},
    {"__ddiv_rn", Div},
    // barriers and fences
    {"__syncthreads", Sync},
    {"__syncwarp", Sync},
    {"__syncthreads_count", Sync},
    {"__syncthreads_and", Sync},
    {"__syncthreads_or", Sync},
    {"__threadfence", Fence},
    {"__threadfence_block", Fence},
    {"__threadfence_system", Fence},
    // transcendentals
    {"exp", Transc},
    {"expf", Transc},
    {"exp2", Transc},
    {"exp2f", Transc},
    {"exp10", Transc},
    {"exp10f", Transc},
    {"expm1", Transc},
    {"expm1f", Transc},
    {"log", Transc},
    {"logf", Transc},
    {"log2", Transc},
    {"log2f", Transc},
    {"log10", Transc},
    {"log10f", Transc},
    {"log1p", Transc},
    {"log1pf", Transc},
    {"sin", Transc},
    {"sinf", Transc},
    {"cos", Transc},
    {"cosf", Transc},
    {"tan", Transc},
    {"tanf", Transc},
    {"sincos", Transc},
    {"sincosf", Transc},
    {"asin", Transc},
    {"asinf", Transc},
    {"acos", Transc},
    {"acosf", Transc},
    {"atan", Transc},
    {"atanf", Transc},
    {"atan2", Transc},
    {"atan2f", Transc},
    {"sinh", Transc},
    {"sinhf", Transc},
    {"cosh", Transc},
    {"coshf", Transc},
    {"tanh", Transc},
    {"tanhf", Transc},
    {"pow", Transc},
    {"powf", Transc},
    {"erf", Transc},
    {"erff", Transc},
    {"erfc", Transc},
    {"erfcf", Transc},
    {"__expf", Transc},
    {"__logf", Transc},
    {"__sinf", Transc},
    {"__cosf", Transc},
    {"__tanf", Transc},
    {"__powf", Transc},
    {"__exp10f", Transc},
    {"__log2f", Transc},
    {"__log10f", Transc},
    {"__sincosf", Transc},
    {"sinpi", Transc},
    {"sinpif", Transc},
    {"cospi", Transc},
    {"cospif", Transc},
    {"lgamma", Transc},
    {"lgammaf", Transc},
    {"tgamma", Transc},
    {"tgammaf", Transc},
};

Kind callKind(StringRef Name) {
  static const StringMap<Kind> ByName = [] {
    StringMap<Kind> M;
    for (const auto &Row : CallTable)
      M[Row.Name] = Row.K;
    return M;
  }();
  auto It = ByName.find(Name);
  return It == ByName.end() ? None : It->second;
}
} // namespace

/// The function a callee expression points to, where the source says: a
/// function's name, a local or an inlined function's parameter holding one
/// (followed to its value), or a lambda converted to a function pointer
/// (its call operator; for a generic lambda, the instantiation the call's
/// argument types select).
const FunctionDecl *Analyzer::pointedFunction(const Expr *E, unsigned Depth) {
  if (!E || Depth > 40)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    return pointedFunction(U->getSubExpr(), Depth + 1);
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return pointedFunction(M->getSubExpr(), Depth + 1);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return pointedFunction(B->getSubExpr(), Depth + 1);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
    return pointedFunction(MC->getImplicitObjectArgument(), Depth + 1);
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *F = dyn_cast<FunctionDecl>(D->getDecl()))
      return F;
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return pointedFunction(initOf(V), Depth + 1);
    return nullptr;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(E))
    return L->getCallOperator();
  return nullptr;
}

/// The instantiation of a generic lambda's call operator \p Op that a call
/// with \p CE's argument types uses, or \p Op itself.
static const FunctionDecl *forArguments(const FunctionDecl *Op,
                                        const CallExpr *CE) {
  const FunctionTemplateDecl *T = Op->getDescribedFunctionTemplate();
  if (!T)
    return Op;
  for (const FunctionDecl *S : T->specializations()) {
    if (S->getNumParams() != CE->getNumArgs())
      continue;
    bool Same = true;
    for (unsigned I = 0; I < S->getNumParams() && Same; ++I)
      Same = S->getParamDecl(I)
                 ->getType()
                 .getCanonicalType()
                 .getUnqualifiedType()
                 .getNonReferenceType() ==
             CE->getArg(I)->getType().getCanonicalType().getUnqualifiedType();
    if (Same)
      return S;
  }
  return Op;
}

void Analyzer::call(const CallExpr *CE, const SymExpr &Mult) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    if ((FD = pointedFunction(CE->getCallee())))
      FD = forArguments(FD, CE);
  if (!FD) {
    diag(HintCode::IndirectCall, CE->getBeginLoc(),
         "call through a function pointer; its cost is unknown");
    return;
  }
  // A lambda converted to a function pointer: no work of its own.
  if (const auto *Conv = dyn_cast<CXXConversionDecl>(FD);
      Conv && Conv->getParent()->isLambda())
    return;
  // Operators and conversions have no identifier (CUB's functors do this).
  StringRef Name =
      FD->getDeclName().isIdentifier() ? FD->getName() : StringRef();
  // Math library and intrinsics: one table row per name.
  Kind K = callKind(Name);
  if (K == None && Name.starts_with("atomic"))
    K = Atomic;
  else if (K == None && (Name.starts_with("__shfl") || isGroupShuffle(FD)))
    K = Shfl;
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
  case Atomic:
    atomicCall(CE, Mult);
    return;
  case None:
    break;
  }
  if (libraryCollective(CE, FD, Mult) || nvshmemCall(CE, Name, Mult))
    return;
  // A __device__ function: inline its body.
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def->hasAttr<CUDADeviceAttr>()) {
    ArgsAt(0);
    if (!FD->isInStdNamespace() && !FD->getBuiltinID() &&
        !SM.isInSystemHeader(FD->getLocation()))
      diag(HintCode::UnknownCall, CE->getBeginLoc(),
           "call to '" + Name +
               "' has no visible __device__ body; not counted");
    return;
  }
  if (is_contained(InlineStack, Def) || InlineStack.size() > 16) {
    diag(HintCode::Recursion, CE->getBeginLoc(),
         "recursive call to '" + Name + "'; its cost is unknown");
    return;
  }
  ArgsAt(0);
  // The callee's parameters stand for the caller's arguments (an operator()
  // call lists the object first).
  std::map<const VarDecl *, const Expr *> Saved = ParamArgs;
  unsigned Skip = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) &&
                          !cast<CXXMethodDecl>(Def)->isStatic()
                      ? 1
                      : 0;
  // Its locals' (and parameters') values, as the kernel's own (once per
  // function); a parameter the callee writes (or takes a non-const
  // reference or the address of) no longer stands for its argument.
  if (Collected.insert(Def).second)
    collectAssignments(Def->getBody());
  for (unsigned I = 0; I < Def->getNumParams() && I + Skip < CE->getNumArgs();
       ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    QualType T = P->getType();
    if (!Values.count(P) &&
        (!T->isReferenceType() || T.getNonReferenceType().isConstQualified()))
      ParamArgs[P] = CE->getArg(I + Skip);
  }
  // The object a member function is called on names what `this` reaches.
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Object = MC->getImplicitObjectArgument();
  else if (Skip)
    Object = CE->getArg(0);
  ThisNames.push_back(Object ? objectName(Object) : std::string("<expr>"));
  InlineStack.push_back(Def);
  stmt(Def->getBody(), Mult, false);
  InlineStack.pop_back();
  ThisNames.pop_back();
  ParamArgs = std::move(Saved);
}

} // namespace kernels
} // namespace orrery
