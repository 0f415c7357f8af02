//===- LaunchSites.cpp - Kernel launches as call sites --------------------===//
//
// SiteCollector's launch half: `k<<<g, b, s, st>>>(...)` becomes a launch
// site, with the kernel's generated hint call when it has one and the value
// a `#pragma orrery device_value(ARG=VALUE)` before it says the kernel
// leaves for the host.
//
//===----------------------------------------------------------------------===//

#include "DeviceReads.h"
#include "Diagnostics.h"
#include "HookEmitter.h"
#include "SiteCollector.h"
#include "orrery/support/DeviceValueSpec.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace llvm;

namespace orrery {

void SiteCollector::handleLaunch(const CUDAKernelCallExpr *K) {
  // The configuration call clang builds for `<<<...>>>` (visited next, as a
  // child) is part of this launch, not a site of its own.
  LaunchConfigs.insert(K->getConfig());
  const Expr *CalleeE = K->getCallee();
  std::string Callee;
  {
    CharSourceRange CR = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(CalleeE->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (CR.isValid())
      Callee = Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
    else if (const FunctionDecl *FD = K->getDirectCallee())
      Callee = FD->getNameAsString();
  }
  Location L;
  if (!locate(K, SiteKind::Launch, "<<<>>>", L) ||
      deviceContext(K, "<<<>>>", L))
    return;
  const CallExpr *Config = K->getConfig();
  if (!Config || Config->getNumArgs() < 2)
    return;
  std::string Geometry[4];
  for (unsigned I = 0; I < 4; ++I) {
    if (I >= Config->getNumArgs()) {
      Geometry[I] = "0";
      continue;
    }
    if (unsafeToDuplicate(Config->getArg(I), Ctx)) {
      warn(L.Loc, DiagLaunchSideEffects,
           formatv("launch geometry of '{0}' has side effects; the launch is "
                   "not instrumented",
                   Callee)
               .str());
      addSkipped(L, SiteKind::Launch, "<<<>>>",
                 "launch geometry has side effects");
      return;
    }
    Geometry[I] = argText(Config, I);
  }
  Site S = siteAt(L, SiteKind::Launch, "<<<>>>");
  S.Callee = Callee;
  S.Instrumented = true;
  S.Result = ResultForm::Void;
  S.Launch = {Geometry[0], Geometry[1], Geometry[2], Geometry[3]};
  launchPragma(L.Loc, S);
  hintCall(K, Callee, S);
  S.Hinted = !S.HintFunction.empty();
  Out.Sites.push_back(std::move(S));
}

/// The kernel declaration a launch calls, as written (the template pattern
/// for instantiations and dependent calls).
static const FunctionDecl *launchedKernel(const CUDAKernelCallExpr *K) {
  const FunctionDecl *FD = K->getDirectCallee();
  if (!FD) {
    const Expr *C = K->getCallee()->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(C))
      C = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(C))
      for (const NamedDecl *D : ULE->decls())
        if ((FD = D->getAsFunction()))
          break;
  }
  if (!FD)
    return nullptr;
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
    FD = T->getTemplatedDecl();
  return FD;
}

void SiteCollector::hintCall(const CUDAKernelCallExpr *K, StringRef Callee,
                             Site &S) {
  const FunctionDecl *FD = launchedKernel(K);
  auto It = FD ? Hinted.find(FD) : Hinted.end();
  if (It == Hinted.end())
    return;
  // The hint function is generated after the kernel's definition: the launch
  // must come later in the same file.
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) ||
      SM.getFileID(SM.getExpansionLoc(Def->getEndLoc())) !=
          SM.getFileID(SM.getExpansionLoc(K->getBeginLoc())) ||
      !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Def->getEndLoc()),
                                    SM.getExpansionLoc(K->getBeginLoc())))
    return;
  std::vector<std::string> Args;
  for (unsigned I = 0; I < K->getNumArgs(); ++I) {
    if (unsafeToDuplicate(K->getArg(I), Ctx))
      return;
    Args.push_back(argText(K, I));
  }
  size_t Angle = Callee.find('<');
  S.HintFunction =
      It->second +
      (Angle == StringRef::npos ? std::string() : Callee.substr(Angle).str());
  S.HintArgs = std::move(Args);
}

/// A `#pragma orrery device_value(ARG=VALUE)` before a launch: what the
/// kernel leaves where its pointer argument ARG points (hooks.h,
/// orrery_launch_value).
void SiteCollector::launchPragma(SourceLocation Loc, Site &S) {
  std::optional<std::string> V = devicePragmaValue(Loc, SM);
  if (!V)
    return;
  auto [Arg, Value] = StringRef(*V).split('=');
  Arg = Arg.trim();
  Value = Value.trim();
  std::string Why = "before a kernel launch it reads ARG=VALUE, ARG the "
                    "kernel's pointer parameter the host reads after it";
  if (support::isParameterName(Arg.str()) && !Value.empty())
    if (std::optional<std::string> Literal = scheduleLiteral(Value, Why)) {
      S.OutputArg = "\"" + Arg.str() + "\"";
      S.OutputValue = *Literal;
      return;
    }
  warn(Loc, DiagDeviceValue,
       formatv("'#pragma orrery device_value({0})': {1}; ignored", *V, Why)
           .str());
}

} // namespace orrery
