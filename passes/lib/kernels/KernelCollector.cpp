//===- KernelCollector.cpp - Find __global__ kernels and analyse them -----===//

#include "KernelCollector.h"
#include "sites/DeviceReads.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Pragma.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <memory>

using namespace clang;
using namespace llvm;

namespace orrery {

namespace {
class OrreryPragmaHandler : public PragmaHandler {
public:
  OrreryPragmaHandler(StringRef Name, PragmaTable &Table)
      : PragmaHandler(Name), Table(Table) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &First) override {
    SourceManager &SM = PP.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(First.getLocation());
    Token Tok;
    PP.Lex(Tok);
    std::string Text;
    if (Tok.is(tok::l_paren)) {
      int Depth = 1;
      for (PP.Lex(Tok); Tok.isNot(tok::eod) && Tok.isNot(tok::eof);
           PP.Lex(Tok)) {
        if (Tok.is(tok::l_paren))
          ++Depth;
        if (Tok.is(tok::r_paren) && --Depth == 0)
          break;
        if (!Text.empty() && Tok.hasLeadingSpace())
          Text += ' ';
        Text += PP.getSpelling(Tok);
      }
    }
    // Discard the rest of the line.
    while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof))
      PP.Lex(Tok);
    std::string Where =
        formatv("{0}:{1}", sys::path::filename(SM.getFilename(Loc)),
                SM.getExpansionLineNumber(Loc))
            .str();
    Table[{SM.getFileID(Loc).getHashValue(), SM.getExpansionLineNumber(Loc)}] =
        {getName().str(), Text, Where};
  }

private:
  PragmaTable &Table;
};

class KernelFinder : public DynamicRecursiveASTVisitor {
public:
  std::vector<const FunctionDecl *> Kernels;
  KernelFinder() {
    ShouldVisitTemplateInstantiations = false;
    ShouldVisitImplicitCode = false;
  }
  // Kernels are declared at namespace or class scope, never inside a
  // function: statements are not walked (a deeply nested expression would
  // otherwise cost one stack frame per operator).
  bool TraverseStmt(Stmt *) override { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isTemplateInstantiation())
      Kernels.push_back(FD);
    return true;
  }
};

/// Offset of the start of the line holding Loc.
unsigned lineStart(const SourceManager &SM, SourceLocation Loc) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(Loc);
  StringRef Buf = SM.getBufferData(D.first);
  unsigned Off = D.second;
  while (Off > 0 && Buf[Off - 1] != '\n')
    --Off;
  return Off;
}
} // namespace

/// The kernel's symbol as the device compile names it (ptxas -v prints it).
static std::string symbolOf(MangleContext &MC, const FunctionDecl *FD) {
  if (!MC.shouldMangleDeclName(FD))
    return FD->getName().str();
  std::string Out;
  raw_string_ostream OS(Out);
  // The host side names the launch stub by default (__device_stub__).
  MC.mangleName(GlobalDecl(FD, KernelReferenceKind::Kernel), OS);
  return Out;
}

/// The mangled name of the kernel's host stub, the function a launch's
/// `(const void *)kernel` points to in a host compile.
static std::string stubOf(MangleContext &MC, const FunctionDecl *FD) {
  if (!MC.shouldMangleDeclName(FD))
    return ""; // extern "C": the stub has no name of its own to look up
  std::string Out;
  raw_string_ostream OS(Out);
  MC.mangleName(GlobalDecl(FD, KernelReferenceKind::Stub), OS);
  return Out;
}

/// `(const void *)&ns::k` for a kernel that is no template and the only
/// declaration of its name in its scope; empty when it cannot be named so
/// (an overload set, a local or unnamed scope).
static std::string addressOf(ASTContext &Ctx, const FunctionDecl *FD) {
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (!DC->isFileContext())
    return "";
  for (const NamedDecl *D : DC->lookup(FD->getDeclName()))
    if (D->getAsFunction() &&
        D->getAsFunction()->getCanonicalDecl() != FD->getCanonicalDecl())
      return ""; // overloaded: the name alone is ambiguous
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressUnwrittenScope = true;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->printQualifiedName(OS, PP);
  if (Name.find('(') != std::string::npos)
    return "";
  return "(const void *)&::" + Name;
}

/// The arithmetic type each parameter of a concrete kernel is read as from
/// a launch's argument array (enums as their integer type); empty for the
/// others.
static std::vector<std::string> scalarParamTypes(ASTContext &Ctx,
                                                 const FunctionDecl *FD) {
  std::vector<std::string> Out;
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.Bool = true;
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType().getCanonicalType().getUnqualifiedType();
    if (const auto *E = T->getAs<EnumType>())
      T = E->getDecl()->getIntegerType().getCanonicalType();
    Out.push_back(!T.isNull() && T->isArithmeticType() && !T->isDependentType()
                      ? T.getAsString(PP)
                      : std::string());
  }
  return Out;
}

/// Bit i set: parameter i of \p FD (of the first 64) is a pointer.
static std::uint64_t pointerParams(const FunctionDecl *FD) {
  std::uint64_t Mask = 0;
  for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I)
    if (FD->getParamDecl(I)->getType()->isPointerType())
      Mask |= std::uint64_t(1) << I;
  return Mask;
}

/// The pointer parameters of \p FD as the kernel registry lists them
/// ("INDEX:NAME:TYPE" separated by spaces; orrery_kernel_entry::pointees).
static std::string pointees(ASTContext &Ctx, const FunctionDecl *FD) {
  std::string Out;
  for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    QualType T = P->getType();
    if (!T->isPointerType())
      continue;
    if (!Out.empty())
      Out += ' ';
    Out += std::to_string(I) + ":" + P->getNameAsString() + ":" +
           valueTypeOf(T->getPointeeType(), Ctx);
  }
  return Out;
}

void addOrreryPragmaHandlers(Preprocessor &PP, PragmaTable &Table) {
  PP.AddPragmaHandler("orrery", new OrreryPragmaHandler("loop_count", Table));
  PP.AddPragmaHandler("orrery", new OrreryPragmaHandler("branch_prob", Table));
}

std::vector<KernelInfo>
collectKernels(ASTContext &Ctx, const std::vector<std::string> &HeaderDirs,
               const PragmaTable &Pragmas, const KernelOverrides &Overrides,
               HintedKernels &Hinted) {
  auto OverrideFor = [&](const std::string &Name,
                         const std::string &Pattern) -> const KernelOverride * {
    auto It = Overrides.find(Name);
    if (It == Overrides.end())
      It = Overrides.find(Pattern);
    return It == Overrides.end() ? nullptr : &It->second;
  };
  SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  KernelFinder Finder;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceLocation Loc = SM.getExpansionLoc(D->getBeginLoc());
    if (Loc.isValid() && isRewritableFile(SM, SM.getFileID(Loc), HeaderDirs))
      Finder.TraverseDecl(D);
  }
  std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
  std::vector<KernelInfo> Out;
  for (const FunctionDecl *FD : Finder.Kernels) {
    SourceLocation Begin = FD->getBeginLoc();
    const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate();
    if (T)
      Begin = T->getBeginLoc();
    SourceLocation End = FD->getBody()->getEndLoc();
    // `__global__` is itself a macro: the declaration starts where it is
    // expanded. A body written by a macro has nowhere to put a hint.
    if (End.isMacroID() || FD->getBody()->getBeginLoc().isMacroID())
      continue;
    Begin = SM.getExpansionLoc(Begin);
    FileID FID = SM.getFileID(Begin);
    if (!isRewritableFile(SM, FID, HeaderDirs) || SM.getFileID(End) != FID)
      continue;
    KernelInfo K;
    K.File = realPathOf(SM, FID);
    std::string Name = FD->getNameAsString();
    K.Pattern = analyzeKernel(Ctx, FD, Pragmas, OverrideFor(Name, Name));
    if (T) {
      for (const FunctionDecl *Spec : T->specializations())
        if (Spec->hasBody()) {
          std::string Args;
          raw_string_ostream OS(Args);
          Spec->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), false);
          KernelHint H =
              analyzeKernel(Ctx, Spec, Pragmas, OverrideFor(Args, Name));
          H.Name = Args;
          H.Symbol = symbolOf(*MC, Spec);
          H.Stub = stubOf(*MC, Spec);
          H.ParamTypes = scalarParamTypes(Ctx, Spec);
          H.PointerParams = pointerParams(Spec);
          H.Pointees = pointees(Ctx, Spec);
          K.Instances.push_back(std::move(H));
        }
      SourceRange R = T->getTemplateParameters()->getSourceRange();
      K.TemplateHead =
          Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO).str();
    } else {
      K.Pattern.Symbol = symbolOf(*MC, FD);
      K.Pattern.Stub = stubOf(*MC, FD);
      K.Pattern.AddressExpr = addressOf(Ctx, FD);
      K.Pattern.ParamTypes = scalarParamTypes(Ctx, FD);
      K.Pattern.PointerParams = pointerParams(FD);
      K.Pattern.Pointees = pointees(Ctx, FD);
      K.Instances.push_back(K.Pattern);
    }
    for (const ParmVarDecl *P : FD->parameters()) {
      std::string Text =
          Lexer::getSourceText(
              CharSourceRange::getTokenRange(P->getSourceRange()), SM, LO)
              .str();
      if (Text.empty())
        Text = P->getType().getAsString(Ctx.getPrintingPolicy()) + " " +
               P->getNameAsString();
      K.ParamTexts.push_back(Text);
    }
    K.DeclLineStart = lineStart(SM, Begin);
    K.DeclLine = SM.getExpansionLineNumber(Begin);
    // After the closing brace: the start of the next line.
    std::pair<FileID, unsigned> D = SM.getDecomposedLoc(End);
    StringRef Buf = SM.getBufferData(FID);
    unsigned Off = D.second;
    while (Off < Buf.size() && Buf[Off] != '\n')
      ++Off;
    if (Off >= Buf.size())
      continue; // no newline after the kernel: nowhere to put the function
    K.AfterBody = Off + 1;
    K.AfterLine = SM.getExpansionLineNumber(End) + 1;
    // A template whose pattern the analysis cannot count (a functor's
    // operator(), a dependent call) is costed per instantiation: its launch
    // sites call no hint, and the runtime evaluates the instantiation's
    // hint from the kernel registry.
    bool PerInstance = T && K.Pattern.Confidence == models::Confidence::Unknown;
    if (!PerInstance)
      Hinted[FD] = hintFunctionName(FD->getName());
    Out.push_back(std::move(K));
  }
  return Out;
}

} // namespace orrery
