//===- SiteCollector.cpp - Find CUDA, MPI and RAMC call sites -------------===//

#include "SiteCollector.h"
#include "DeviceReads.h"
#include "Diagnostics.h"
#include "HookEmitter.h"
#include "orrery/support/ValueSchedule.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace clang;
using namespace llvm;

namespace orrery {

// A CRTP visitor rather than DynamicRecursiveASTVisitor: only the former
// traverses statements by data recursion (an explicit queue), so a 50,000-term
// expression does not take 50,000 stack frames.
class SiteCollector::Visitor : public RecursiveASTVisitor<Visitor> {
public:
  explicit Visitor(SiteCollector &C) : C(C) {}
  // Templates are visited as written: one site per source location.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitCallExpr(CallExpr *CE) {
    C.handleCall(CE);
    return true;
  }
  // The enclosing function of each call, kept on a stack (cheaper than the
  // AST parent map, which would walk every header). Declarations and lambdas
  // are traversed recursively, so the stack matches the statement queue.
  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      C.Functions.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      C.Functions.pop_back();
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    C.Functions.push_back(LE->getCallOperator());
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(LE);
    C.Functions.pop_back();
    return Result;
  }

private:
  SiteCollector &C;
};

SiteCollector::SiteCollector(ASTContext &Ctx,
                             const std::vector<std::string> &HeaderDirs,
                             const HintedKernels &Hinted)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), HeaderDirs(HeaderDirs),
      Hinted(Hinted) {}

SiteCollection SiteCollector::collect() {
  // Only declarations written in files the tool may rewrite or report on:
  // the CUDA, MPI and system headers are skipped whole (most of a TU).
  Visitor V(*this);
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
    if (Loc.isValid() && !isRewritableFile(SM, SM.getFileID(Loc), HeaderDirs)) {
      if (SM.isInSystemHeader(Loc))
        continue;
      std::string Path = realPathOf(SM, SM.getFileID(Loc));
      if (Cwd.empty() || !StringRef(Path).starts_with(Cwd.str().str() + "/"))
        continue; // a library header reached through -I
    }
    V.TraverseDecl(D);
  }
  return std::move(Out);
}

void SiteCollector::warn(SourceLocation Loc, unsigned Code, StringRef Msg) {
  reportWarning(Ctx.getDiagnostics(), Loc, Code, Msg);
}

std::string realPathOf(const SourceManager &SM, FileID FID) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE)
    return "";
  StringRef Real = FE->getFileEntry().tryGetRealPathName();
  if (!Real.empty())
    return Real.str();
  SmallString<256> Abs(FE->getName());
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

bool isRewritableFile(const SourceManager &SM, FileID FID,
                      const std::vector<std::string> &HeaderDirs) {
  if (FID == SM.getMainFileID())
    return true;
  std::string Path = realPathOf(SM, FID);
  for (const std::string &Dir : HeaderDirs)
    if (StringRef(Path).starts_with(Dir + "/"))
      return true;
  return false;
}

bool SiteCollector::locate(const Expr *E, SiteKind Kind, StringRef Api,
                           Location &L) {
  const LangOptions &LO = Ctx.getLangOpts();
  SourceRange R = E->getSourceRange();
  CharSourceRange CR =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
  SourceLocation At =
      CR.isValid() ? CR.getBegin() : SM.getExpansionLoc(R.getBegin());
  FileID FID = SM.getFileID(At);
  std::string Path = realPathOf(SM, FID);
  if (!isRewritableFile(SM, FID, HeaderDirs)) {
    // Count calls in the project's own headers (below the current
    // directory), which --headers would rewrite; library headers reached
    // through -I are not the user's to rewrite.
    SmallString<256> Cwd;
    if (!SM.isInSystemHeader(At) && !Path.empty() &&
        !sys::fs::current_path(Cwd) && StringRef(Path).starts_with(Cwd) &&
        StringRef(Path).substr(Cwd.size()).starts_with("/"))
      ++Out.OtherHeaderCalls;
    return false;
  }
  L.FID = FID;
  L.Path = Path;
  L.Loc = At;
  L.Line = SM.getExpansionLineNumber(At);
  L.Column = SM.getExpansionColumnNumber(At);
  if (CR.isInvalid()) {
    // The call is part of a macro's body: it cannot be wrapped where the
    // macro is used.
    StringRef Macro = Lexer::getImmediateMacroName(R.getBegin(), SM, LO);
    L.Begin = L.End = SM.getFileOffset(At);
    std::string Reason =
        formatv("call inside the body of macro '{0}'; rewrite the macro or "
                "call {1} outside it",
                Macro, Api)
            .str();
    // One warning per call written in the macro, not one per expansion.
    SourceLocation Spelled = SM.getSpellingLoc(R.getBegin());
    if (WarnedMacroCalls.insert(Spelled.getRawEncoding()).second)
      warn(At, DiagMacroBody,
           formatv("call to '{0}' inside the body of macro '{1}' cannot be "
                   "rewritten where the macro is used; left unchanged (every "
                   "expansion is listed in the manifest)",
                   Api, Macro)
               .str());
    addSkipped(L, Kind, Api, Reason);
    return false;
  }
  L.Begin = SM.getFileOffset(CR.getBegin());
  L.End = SM.getFileOffset(CR.getEnd());
  Out.Files.emplace(Path, FID);
  return true;
}

Site SiteCollector::siteAt(const Location &L, SiteKind Kind, StringRef Api) {
  Site S;
  S.File = L.Path;
  S.Line = L.Line;
  S.Column = L.Column;
  S.Begin = L.Begin;
  S.End = L.End;
  S.Kind = Kind;
  S.Api = Api.str();
  S.CPlusPlus = Ctx.getLangOpts().CPlusPlus;
  return S;
}

void SiteCollector::addSkipped(const Location &L, SiteKind Kind, StringRef Api,
                               std::string Reason) {
  Site S = siteAt(L, Kind, Api);
  S.Reason = std::move(Reason);
  Out.Files.emplace(L.Path, L.FID);
  Out.Sites.push_back(std::move(S));
}

std::string SiteCollector::argText(const CallExpr *CE, unsigned Index) {
  const Expr *Arg = CE->getArg(Index);
  std::string Text;
  raw_string_ostream OS(Text);
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Arg)) {
    DA->getExpr()->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
    return Text;
  }
  CharSourceRange CR = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Arg->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (CR.isValid())
    return Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
  // Written inside a macro body: print the expanded expression.
  Arg->IgnoreImplicit()->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  return Text;
}

/// True if evaluating E a second time could change the program: definite side
/// effects, or a call the tool itself hooks (duplicating it would run it once
/// unhooked).
bool unsafeToDuplicate(const Expr *E, const ASTContext &Ctx) {
  if (E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return true;
  SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isa<CUDAKernelCallExpr>(S))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->getDeclName().isIdentifier() && lookupApi(FD->getName()))
          return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

/// Replaces `$N` and `$L` in Template with the parenthesized argument text.
/// Returns empty if an argument is unsafe to evaluate twice.
std::string SiteCollector::substitute(const CallExpr *CE, StringRef Template) {
  std::string Out;
  for (size_t I = 0; I < Template.size(); ++I) {
    if (Template[I] != '$') {
      Out += Template[I];
      continue;
    }
    unsigned Index = ~0u; // "$" without a number: no argument
    if (I + 1 < Template.size() && Template[I + 1] == 'L') {
      Index = CE->getNumArgs() ? CE->getNumArgs() - 1 : 0;
      ++I;
    } else {
      size_t J = I + 1;
      while (J < Template.size() && isDigit(Template[J]))
        ++J;
      Template.substr(I + 1, J - I - 1).getAsInteger(10, Index);
      I = J - 1;
    }
    if (Index >= CE->getNumArgs()) {
      Out += "0";
      continue;
    }
    if (unsafeToDuplicate(CE->getArg(Index), Ctx))
      return "";
    Out += "(" + argText(CE, Index) + ")";
  }
  return Out;
}

/// True if Template is exactly one argument reference (`$2`, `$L`), which
/// substitute() already parenthesizes.
static bool isSingleReference(StringRef Template) {
  if (!Template.consume_front("$"))
    return false;
  return Template == "L" || (!Template.empty() && all_of(Template, [](char C) {
           return isDigit(C);
         }));
}

/// The argument a one-reference template (`$2`, `$L`) names, or null.
static const Expr *referencedArg(const CallExpr *CE, StringRef Template) {
  if (!isSingleReference(Template) || CE->getNumArgs() == 0)
    return nullptr;
  StringRef Ref = Template.drop_front();
  unsigned Index = CE->getNumArgs() - 1;
  if (Ref != "L" && Ref.getAsInteger(10, Index))
    return nullptr;
  return Index < CE->getNumArgs() ? CE->getArg(Index) : nullptr;
}

/// Which begin-hook arguments of a site of kind K some backend reads
/// (docs/hook-abi.md, "What the backends read"): liborrery-sim charges MPI
/// calls from all of theirs; liborrery-native records the byte counts of
/// CUDA and RAMC calls. Nothing else is read: such an argument is passed when
/// it can be evaluated a second time, else as 0, and never draws W005.
struct HookReads {
  bool BufferPtr, BufferCount, Scalars;
};
static HookReads hookReads(SiteKind K) {
  if (K == SiteKind::Mpi)
    return {true, true, true};
  return {false, K != SiteKind::Launch, false};
}

std::string SiteCollector::bufferArg(const CallExpr *CE, const BufSpec &B,
                                     StringRef Role, Site &S,
                                     bool &SideEffects) {
  if (B.Form == BufForm::None)
    return bufferAnnotation(BufForm::None, "", "", "");
  HookReads Reads = hookReads(S.Kind);
  std::string Ptr = substitute(CE, B.Ptr);
  if (Ptr.empty() && !Reads.BufferPtr)
    Ptr = "0";
  std::string Count = *B.Count ? substitute(CE, B.Count) : "0";
  if (Count.empty() && !Reads.BufferCount)
    Count = "0";
  if (!Count.empty() && !isSingleReference(B.Count))
    Count = "(" + Count + ")";
  std::string Type = *B.Type ? substitute(CE, B.Type) : "";
  if (Ptr.empty() || Count.empty() || (*B.Type && Type.empty())) {
    SideEffects = true;
    return bufferAnnotation(BufForm::None, "", "", "");
  }
  S.Buffers.push_back(
      {Role.str(), bufFormName(B.Form).str(), Ptr, Count, Type});
  // An out-parameter `&x` (cudaMalloc(&p, n), cudaStreamCreate(&s)) names a
  // variable the call initialises: passed on through a non-const parameter
  // (orrery_out_ptr), or clang's -Wuninitialized-const-pointer takes the
  // annotation for a read of it.
  if (const Expr *Arg = referencedArg(CE, B.Ptr))
    if (const auto *U = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts()))
      if (U->getOpcode() == UO_AddrOf)
        Ptr = "orrery_out_ptr((void *)" + Ptr + ")";
  return bufferAnnotation(B.Form, Ptr, Count, Type);
}

bool SiteCollector::deviceContext(const Expr *E, StringRef Api,
                                  const Location &L) {
  if (Functions.empty())
    return false;
  const FunctionDecl *FD = Functions.back();
  auto Explicit = [](const Attr *A) { return A && !A->isImplicit(); };
  bool Global = Explicit(FD->getAttr<CUDAGlobalAttr>());
  bool Device = Explicit(FD->getAttr<CUDADeviceAttr>());
  bool Host = Explicit(FD->getAttr<CUDAHostAttr>());
  if (!Global && !Device)
    return false;
  bool HostDevice = Device && Host && !Global;
  warn(L.Loc, HostDevice ? DiagHostDevice : DiagDeviceCode,
       formatv(HostDevice
                   ? "call to '{0}' in a __host__ __device__ function is "
                     "not instrumented; hooks are host functions"
                   : "call to '{0}' in device code is not instrumented "
                     "(dynamic parallelism is not modeled)",
               Api)
           .str());
  addSkipped(L, isa<CUDAKernelCallExpr>(E) ? SiteKind::Launch : SiteKind::Cuda,
             Api,
             HostDevice ? "__host__ __device__ function"
                        : "device code (dynamic parallelism is not modeled)");
  return true;
}

/// True if FD comes from a CUDA, MPI or RAMC header rather than the project.
static bool declaredByApiHeader(const FunctionDecl *FD,
                                const SourceManager &SM) {
  SourceLocation Loc = SM.getExpansionLoc(FD->getLocation());
  if (SM.isInSystemHeader(Loc))
    return true;
  StringRef File = sys::path::filename(SM.getFilename(Loc));
  return File.starts_with("mpi") || File.starts_with("cuda") ||
         File.starts_with("smpi") || File.starts_with("ramc");
}

void SiteCollector::handleCall(const CallExpr *CE) {
  if (const auto *K = dyn_cast<CUDAKernelCallExpr>(CE)) {
    handleLaunch(K);
    return;
  }
  if (LaunchConfigs.count(CE))
    return;
  const FunctionDecl *FD = CE->getDirectCallee();
  StringRef Name;
  if (FD) {
    if (isa<CXXMethodDecl>(FD) || !FD->getDeclName().isIdentifier())
      return;
    Name = FD->getName();
  } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
                 CE->getCallee()->IgnoreParenImpCasts())) {
    // A call with dependent arguments inside a template.
    if (!ULE->getName().isIdentifier())
      return;
    Name = ULE->getName().getAsIdentifierInfo()->getName();
    for (const NamedDecl *D : ULE->decls())
      if ((FD = D->getAsFunction()))
        break;
    if (!FD)
      return;
  } else {
    return;
  }
  if (isBeginHook(Name)) {
    SourceLocation Loc = SM.getExpansionLoc(CE->getBeginLoc());
    if (SM.isWrittenInMainFile(Loc) && Out.AlreadyInstrumented.isInvalid())
      Out.AlreadyInstrumented = Loc;
    return;
  }
  if (isIgnoredApi(Name) || !declaredByApiHeader(FD, SM))
    return;
  if (const ApiSpec *Spec = lookupApi(Name)) {
    handleTableCall(CE, *Spec, Name, FD);
    return;
  }
  SiteKind Kind;
  if (!classifyUnknownApi(Name, Kind))
    return;
  Location L;
  if (!locate(CE, Kind, Name, L))
    return;
  warn(L.Loc, DiagNotModeled,
       formatv("call to '{0}' is not modeled; left unchanged", Name).str());
  addSkipped(L, Kind, Name, "not modeled");
}

/// How a call's result travels through the end hook; none for results the
/// hook ABI cannot carry.
static std::optional<ResultForm> resultForm(QualType T, const ASTContext &Ctx) {
  if (T->isVoidType())
    return ResultForm::Void;
  // Status codes: int-sized integers and enums (cudaError_t, MPI's int).
  if (T->isIntegralOrEnumerationType() && Ctx.getTypeSize(T) <= 32)
    return ResultForm::Value;
  if (T->isPointerType())
    return ResultForm::Pointer;
  return std::nullopt;
}

void SiteCollector::handleTableCall(const CallExpr *CE, const ApiSpec &Spec,
                                    StringRef Name, const FunctionDecl *FD) {
  StringRef Api = canonicalApiName(Name);
  Location L;
  if (!locate(CE, Spec.Kind, Api, L) || deviceContext(CE, Api, L))
    return;
  QualType RT = FD->getReturnType();
  std::optional<ResultForm> Form = resultForm(RT, Ctx);
  if (!Form) {
    warn(L.Loc, DiagResultType,
         formatv("'{0}' returns '{1}', which the hook ABI cannot carry; left "
                 "unchanged",
                 Api, RT.getAsString())
             .str());
    addSkipped(L, Spec.Kind, Api, "result type not supported by the hook ABI");
    return;
  }
  Site S = siteAt(L, Spec.Kind, Api);
  S.Instrumented = true;
  S.Result = *Form;
  S.ResultType = RT.getAsString(Ctx.getPrintingPolicy());

  bool SideEffects = false;
  // Unknown: what the hook receives for a slot the row leaves empty or
  // whose argument has side effects.
  auto Scalar = [&](const char *Template, StringRef Cast,
                    StringRef Unknown = "0") -> std::string {
    if (!*Template)
      return Unknown.str();
    std::string T = substitute(CE, Template);
    if (T.empty()) {
      SideEffects |= hookReads(Spec.Kind).Scalars;
      return Unknown.str();
    }
    return (Cast + T).str();
  };
  // The manifest has always listed the second buffer slot first.
  auto Buffers = [&](StringRef FirstRole, StringRef SecondRole) {
    std::string Second = bufferArg(CE, Spec.B, SecondRole, S, SideEffects);
    std::string First = bufferArg(CE, Spec.A, FirstRole, S, SideEffects);
    S.HookArgs = {First, Second};
  };
  // A peer that cannot be evaluated twice is unknown (-1), never rank 0.
  auto Peer = [&] { return Scalar(Spec.Aux, "(int)", "-1"); };
  switch (Spec.Kind) {
  case SiteKind::Cuda:
    Buffers("dst", "src");
    S.HookArgs.push_back(Scalar(Spec.Aux, "(long long)"));
    S.HookArgs.push_back(Scalar(Spec.Handle, "(const void *)"));
    break;
  case SiteKind::Mpi:
    Buffers("send", "recv");
    S.HookArgs.push_back(Peer());
    S.HookArgs.push_back(Scalar(Spec.Handle, "(orrery_intptr_t)"));
    // Tags and source: -1 where unknown (no MPI tag or rank is -1 in SMPI).
    for (const char *M :
         {Spec.Match.SendTag, Spec.Match.Source, Spec.Match.RecvTag})
      S.HookArgs.push_back(Scalar(M, "(int)", "-1"));
    S.HookArgs.push_back(Scalar(Spec.Match.Request, "(const void *)"));
    break;
  case SiteKind::Ramc:
    Buffers("src", "dst");
    S.HookArgs.push_back(Peer());
    S.HookArgs.push_back(Scalar(Spec.Handle, "(const void *)"));
    S.HookArgs.push_back(Scalar(Spec.Extra, "(unsigned long long)"));
    break;
  case SiteKind::Launch: {
    // cudaLaunchKernel(func, grid, block, args, shmem, stream).
    if (CE->getNumArgs() < 3)
      return;
    std::string Grid = substitute(CE, "$1"), Block = substitute(CE, "$2");
    if (Grid.empty() || Block.empty()) {
      warn(L.Loc, DiagLaunchSideEffects,
           formatv("launch geometry of '{0}' has side effects; the launch is "
                   "not instrumented",
                   Api)
               .str());
      addSkipped(L, SiteKind::Launch, Api, "launch geometry has side effects");
      return;
    }
    S.Callee = argText(CE, 0);
    S.Launch = {Grid, Block, Scalar("$4", ""), Scalar("$5", "")};
    break;
  }
  }
  if (SideEffects) {
    S.Reason = "an argument has side effects; its annotation was omitted";
    warn(L.Loc, DiagArgSideEffects,
         formatv("an argument of '{0}' has side effects or calls a hooked "
                 "API; its cost annotation is omitted (the hook would "
                 "evaluate it a second time)",
                 Api)
             .str());
  }
  if (Spec.DeviceRead && CE->getNumArgs() > 0 && mayReadDevice(CE, Spec)) {
    // The type the destination points to: the row's Dst argument (the
    // first for copies, the result pointer for a cuBLAS DOT).
    const Expr *Dst = referencedArg(CE, Spec.A.Ptr);
    S.ReadType = deviceReadType(Dst ? Dst : CE->getArg(0), Ctx);
    S.ReadValue = pragmaValue(L.Loc);
  }
  Out.Sites.push_back(std::move(S));
}

/// False when the copy's cudaMemcpyKind is a constant other than
/// device-to-host or default (the direction is then known not to be a read).
bool SiteCollector::mayReadDevice(const CallExpr *CE, const ApiSpec &Spec) {
  const Expr *KindArg = referencedArg(CE, Spec.Aux);
  Expr::EvalResult R;
  if (!KindArg || !KindArg->EvaluateAsInt(R, Ctx))
    return true;
  int64_t Kind = R.Val.getInt().getExtValue();
  return Kind == 2 || Kind == 4; // cudaMemcpyDeviceToHost, cudaMemcpyDefault
}

/// \p V (a value or a schedule, 1.0*59,1e-12, as --device-value takes) as
/// the C string literal the generated code passes; none, with \p Why, when
/// it does not parse (no quote or backslash gets through either).
std::optional<std::string> scheduleLiteral(StringRef V, std::string &Why) {
  support::ValueSchedule S;
  if (V.find_first_of("\"\\") != StringRef::npos) {
    Why = "quotes and backslashes are not part of a value";
    return std::nullopt;
  }
  if (!support::parseValueSchedule(V.str(), S, Why))
    return std::nullopt;
  return "\"" + V.str() + "\"";
}

/// The `#pragma orrery device_value(V)` before a device read, as a C string
/// literal, or "0" when there is none (or it is unusable, with a warning).
std::string SiteCollector::pragmaValue(SourceLocation Loc) {
  std::optional<std::string> V = devicePragmaValue(Loc, SM);
  if (!V)
    return "0";
  std::string Why;
  if (std::optional<std::string> Literal = scheduleLiteral(*V, Why))
    return *Literal;
  warn(Loc, DiagDeviceValue,
       formatv("'#pragma orrery device_value({0})': {1} (a number: "
               "decimal, floating point or 0x hex; or a schedule such as "
               "1.0*59,1e-12); ignored",
               *V, Why)
           .str());
  return "0";
}

} // namespace orrery
