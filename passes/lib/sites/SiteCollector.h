//===- SiteCollector.h - Find CUDA, MPI and RAMC call sites ----*- C++ -*-===//
//
// Walks one translation unit (templates as written, never their
// instantiations, so a launch in a function template is one site however
// often it is instantiated) and turns every call the API tables name, and
// every kernel launch, into a Site with its hook text.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_SITECOLLECTOR_H
#define ORRERY_PASSES_SITECOLLECTOR_H

#include "orrery/passes/Site.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace orrery {

/// The real (absolute) path of a file, or empty.
std::string realPathOf(const clang::SourceManager &SM, clang::FileID FID);

/// True if evaluating E a second time could change the program: definite side
/// effects, or a call the tool itself hooks.
bool unsafeToDuplicate(const clang::Expr *E, const clang::ASTContext &Ctx);

/// A `#pragma orrery device_value`'s value or schedule as the C string
/// literal generated code passes; none, with \p Why, when it does not parse.
std::optional<std::string> scheduleLiteral(llvm::StringRef V, std::string &Why);

/// True for the main file and files below one of HeaderDirs.
bool isRewritableFile(const clang::SourceManager &SM, clang::FileID FID,
                      const std::vector<std::string> &HeaderDirs);

/// Kernels with a generated hint function: the kernel (pattern) declaration
/// and the name of its hint function.
using HintedKernels = std::map<const clang::FunctionDecl *, std::string>;

/// What one translation unit holds.
struct SiteCollection {
  std::vector<Site> Sites;
  /// Files holding rewritable sites: absolute path -> FileID.
  std::map<std::string, clang::FileID> Files;
  unsigned OtherHeaderCalls = 0;
  /// Set when the file already calls Orrery hooks.
  clang::SourceLocation AlreadyInstrumented;
};

class SiteCollector {
public:
  SiteCollector(clang::ASTContext &Ctx,
                const std::vector<std::string> &HeaderDirs,
                const HintedKernels &Hinted);

  /// Traverses the translation unit.
  SiteCollection collect();

private:
  class Visitor;
  /// Where a call is, in the file that will be rewritten.
  struct Location {
    clang::FileID FID;
    std::string Path;
    unsigned Begin = 0, End = 0, Line = 0, Column = 0;
    clang::SourceLocation Loc; ///< file location of the call, for diagnostics
  };

  void handleCall(const clang::CallExpr *CE);
  /// A site at L (File, position, kind and API filled in).
  Site siteAt(const Location &L, SiteKind Kind, llvm::StringRef Api);

  bool locate(const clang::Expr *E, SiteKind Kind, llvm::StringRef Api,
              Location &L);
  std::string argText(const clang::CallExpr *CE, unsigned Index);
  std::string substitute(const clang::CallExpr *CE, llvm::StringRef Template);
  bool deviceContext(const clang::Expr *E, llvm::StringRef Api,
                     const Location &L);
  void handleTableCall(const clang::CallExpr *CE, const ApiSpec &Spec,
                       llvm::StringRef Name, const clang::FunctionDecl *FD);
  void handleLaunch(const clang::CUDAKernelCallExpr *K);
  /// For a launch of a hinted kernel: fills the site's hint function and
  /// arguments.
  void hintCall(const clang::CUDAKernelCallExpr *K, llvm::StringRef Callee,
                Site &S);
  std::string pragmaValue(clang::SourceLocation Loc);
  void launchPragma(clang::SourceLocation Loc, Site &S);
  bool mayReadDevice(const clang::CallExpr *CE, const ApiSpec &Spec);
  void addSkipped(const Location &L, SiteKind Kind, llvm::StringRef Api,
                  std::string Reason);
  void warn(clang::SourceLocation Loc, unsigned Code, llvm::StringRef Msg);
  std::string bufferArg(const clang::CallExpr *CE, const BufSpec &B,
                        llvm::StringRef Role, Site &S, bool &SideEffects);

  SiteCollection Out;
  /// Functions (and lambda call operators) enclosing the current node.
  std::vector<const clang::FunctionDecl *> Functions;
  std::set<unsigned> WarnedMacroCalls;
  std::set<const clang::Expr *> LaunchConfigs;
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const std::vector<std::string> &HeaderDirs;
  const HintedKernels &Hinted;
};

} // namespace orrery

#endif
