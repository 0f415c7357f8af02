//===- Instrumenter.cpp - Rewrite CUDA, MPI and RAMC call sites -----------===//

#include "orrery/passes/Instrumenter.h"
#include "Diagnostics.h"
#include "GeneratedText.h"
#include "HookEmitter.h"
#include "SiteCollector.h"
#include "ToolDiagnostics.h"
#include "kernels/KernelCollector.h"
#include "orrery/passes/DeviceResources.h"
#include "orrery/passes/EditSet.h"
#include "orrery/passes/NvccMacros.h"
#include "orrery/passes/SourceFixes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Stack.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

using namespace clang;
using namespace llvm;

namespace orrery {

/// Stack of the thread that runs clang: what is not moved to a fresh stack
/// (clang's Expr::HasSideEffects on an argument, say) still recurses once
/// per operator, so well above clang's 8 MiB. Reserved, not committed.
static constexpr unsigned WorkerStackSize = 256u << 20;

namespace {
class CollectorConsumer : public ASTConsumer {
public:
  using DoneFn = std::function<void(SiteCollection &, SourceManager &,
                                    std::vector<KernelInfo> &)>;
  CollectorConsumer(const InstrumentOptions &Opts, const PragmaTable &Pragmas,
                    DoneFn Done)
      : HeaderDirs(Opts.HeaderDirs), Overrides(Opts.Overrides),
        Resources(Opts.KernelResources), Pragmas(Pragmas),
        Done(std::move(Done)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return; // clang printed why; no output for this file
    HintedKernels Hinted;
    std::vector<KernelInfo> Kernels =
        collectKernels(Ctx, HeaderDirs, Pragmas, Overrides, Hinted);
    attachDeviceResources(Kernels, Resources);
    SiteCollection C = SiteCollector(Ctx, HeaderDirs, Hinted).collect();
    if (C.AlreadyInstrumented.isValid()) {
      reportError(Ctx.getDiagnostics(), C.AlreadyInstrumented,
                  DiagAlreadyInstrumented,
                  "this file already calls Orrery hooks; instrument the "
                  "original source instead");
      return;
    }
    Done(C, Ctx.getSourceManager(), Kernels);
  }

private:
  const std::vector<std::string> &HeaderDirs;
  const KernelOverrides &Overrides;
  const std::map<std::string, DeviceResources> &Resources;
  const PragmaTable &Pragmas;
  DoneFn Done;
};
} // namespace

namespace {
class CollectorAction : public ASTFrontendAction {
public:
  explicit CollectorAction(Instrumenter &Owner) : Owner(Owner) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    addOrreryPragmaHandlers(CI.getPreprocessor(), Pragmas);
    return std::make_unique<CollectorConsumer>(
        Owner.options(), Pragmas,
        [this](SiteCollection &C, SourceManager &SM,
               std::vector<KernelInfo> &Kernels) {
          TranslationUnitSites U = unitOf(C, SM);
          U.KernelRegistry = kernelRegistry(Kernels);
          Owner.record(std::move(U), Kernels);
        });
  }

private:
  /// The plain data of one translation unit: its sites and the text of every
  /// file holding one.
  static TranslationUnitSites unitOf(SiteCollection &C, SourceManager &SM) {
    TranslationUnitSites U;
    for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It)
      U.FilesRead.insert(pathOf(It->first));
    FileID Main = SM.getMainFileID();
    if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(Main)) {
      StringRef Real = FE->getFileEntry().tryGetRealPathName();
      U.MainFile = Real.empty() ? FE->getName().str() : Real.str();
    }
    C.Files.emplace(U.MainFile, Main);
    for (auto &[Path, FID] : C.Files)
      U.Buffers.emplace(Path, SM.getBufferData(FID).str());
    U.Sites = std::move(C.Sites);
    U.OtherHeaderCalls = C.OtherHeaderCalls;
    return U;
  }

  /// Absolute path of a file clang read; relative names are relative to the
  /// compile command's directory, the current one while clang runs.
  static std::string pathOf(FileEntryRef FE) {
    StringRef Real = FE.getFileEntry().tryGetRealPathName();
    SmallString<256> P(Real.empty() ? FE.getName() : Real);
    sys::fs::make_absolute(P);
    return std::string(P);
  }

  Instrumenter &Owner;
  PragmaTable Pragmas;
};
} // namespace

void Instrumenter::record(TranslationUnitSites U,
                          std::vector<KernelInfo> &UnitKernels) {
  for (KernelInfo &K : UnitKernels) {
    bool Seen =
        std::any_of(Kernels.begin(), Kernels.end(), [&](const KernelInfo &O) {
          return O.File == K.File && O.DeclLineStart == K.DeclLineStart;
        });
    if (!Seen)
      Kernels.push_back(std::move(K));
  }
  FilesRead.insert(U.FilesRead.begin(), U.FilesRead.end());
  for (auto &[Path, Buffer] : U.Buffers) {
    FileState &F = Files[Path];
    if (F.Buffer.empty())
      F.Buffer = std::move(Buffer);
    F.IsMain |= Path == U.MainFile;
    if (Path == U.MainFile && F.KernelRegistry.empty())
      F.KernelRegistry = U.KernelRegistry;
  }
  for (Site &S : U.Sites) {
    auto &Known = Files[S.File].Sites;
    bool Seen = std::any_of(Known.begin(), Known.end(), [&](const Site &K) {
      return K.Begin == S.Begin && K.End == S.End && K.Api == S.Api;
    });
    if (!Seen)
      Known.push_back(std::move(S));
  }
  OtherHeaderCalls += U.OtherHeaderCalls;
}

namespace {
class CollectorFactory : public tooling::FrontendActionFactory {
public:
  explicit CollectorFactory(Instrumenter &Owner) : Owner(Owner) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CollectorAction>(Owner);
  }

private:
  Instrumenter &Owner;
};

} // namespace

std::string Instrumenter::displayPath(StringRef Absolute) {
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd)) {
    StringRef Rel = Absolute;
    if (Rel.consume_front(Cwd) && Rel.consume_front("/"))
      return Rel.str();
  }
  return Absolute.str();
}

/// \p Text as clang parses it: bare braced launch geometry spelled
/// `dim3{...}`, and with \p Nvcc nvcc's macros renamed (NvccMacros.h).
/// False if nothing changed.
static bool fixSource(StringRef Text, bool Nvcc, std::string &Out) {
  unsigned Renamed = 0;
  std::string Renaming = Nvcc ? renameNvccMacros(Text, Renamed) : "";
  StringRef From = Renamed ? StringRef(Renaming) : Text;
  std::vector<SourceFix> Fixes;
  Out = fixBracedLaunchGeometry(From, Fixes);
  return Renamed || !Fixes.empty();
}

/// Header files below Dirs that need a fix (fixSource).
static void overlayHeaderFixes(const std::vector<std::string> &Dirs, bool Nvcc,
                               tooling::ClangTool &Tool,
                               std::deque<std::string> &Keep) {
  for (const std::string &Dir : Dirs) {
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
         It != End && !EC; It.increment(EC)) {
      StringRef Ext = sys::path::extension(It->path());
      if (Ext != ".h" && Ext != ".cuh" && Ext != ".hpp" && Ext != ".hh" &&
          Ext != ".inl")
        continue;
      // Only regular files (a FIFO would block); clang reports any other
      // header it cannot read when it is included.
      sys::fs::file_status St;
      if (sys::fs::status(It->path(), St) ||
          St.type() != sys::fs::file_type::regular_file)
        continue;
      auto Buf = MemoryBuffer::getFile(It->path());
      if (!Buf)
        continue;
      std::string Fixed;
      if (!fixSource((*Buf)->getBuffer(), Nvcc, Fixed))
        continue;
      // mapVirtualFile keeps references: the path too must outlive the
      // iterator, whose entry changes as it moves on.
      Keep.push_back(It->path());
      StringRef Path = Keep.back();
      Keep.push_back(std::move(Fixed));
      Tool.mapVirtualFile(Path, Keep.back());
    }
  }
}

bool Instrumenter::run(const tooling::CompilationDatabase &DB,
                       const std::vector<std::string> &Sources,
                       const std::vector<std::string> &Texts) {
  tooling::ClangTool Tool(DB, Sources);
  // Every input is parsed from the text the caller read. Bare braced launch
  // geometry: parse (and emit) `dim3{...}` instead.
  std::deque<std::string> Keep; // mapped buffers; must outlive Tool.run
  for (size_t I = 0; I < Sources.size(); ++I) {
    std::string Fixed;
    Keep.push_back(fixSource(Texts[I], Opts.NvccMacros, Fixed)
                       ? std::move(Fixed)
                       : Texts[I]);
    Tool.mapVirtualFile(Sources[I], Keep.back());
  }
  overlayHeaderFixes(Opts.HeaderDirs, Opts.NvccMacros, Tool, Keep);

  ToolDiagnostics Diags;
  Tool.setDiagnosticConsumer(&Diags);
  CollectorFactory Factory(*this);
  int Status = 1;
  // Deeply nested code (a 50,000-term sum) recurses deeply, in clang and in
  // the analyses. As clang does, parse on a thread with clang's stack size
  // and note its bottom, so that clang's recursions (and ours, see
  // withStack) continue on a fresh stack when this one runs low.
  llvm::thread Worker(std::optional<unsigned>(WorkerStackSize), [&] {
    clang::noteBottomOfStack();
    Status = Tool.run(&Factory);
  });
  Worker.join();
  if (Status != 0 || Diags.errors() != 0)
    return false;
  return finalize();
}

bool Instrumenter::finalize() {
  // Ids in file order, so they do not depend on the order of translation
  // units.
  std::vector<Site *> All;
  for (auto &[Path, F] : Files) {
    std::sort(F.Sites.begin(), F.Sites.end(), [](const Site &A, const Site &B) {
      return std::tie(A.Begin, B.End) < std::tie(B.Begin, A.End);
    });
    for (Site &S : F.Sites)
      All.push_back(&S);
  }
  unsigned Id = 0;
  for (Site *S : All)
    S->Id = ++Id;

  bool Ok = true;
  for (auto &[Path, F] : Files) {
    std::vector<const Site *> Rewritten;
    EditSet Edits;
    for (const Site &S : F.Sites) {
      if (!S.Instrumented)
        continue;
      CallWrap W = wrapCall(S);
      if (Error E = Edits.wrap(S.Begin, S.End, std::move(W.Prefix),
                               std::move(W.Suffix))) {
        errs() << displayPath(Path) << ":" << S.Line << ":" << S.Column
               << ": error: [orrery-E002] conflicting rewrites: "
               << toString(std::move(E)) << "\n";
        Ok = false;
        continue;
      }
      Rewritten.push_back(&S);
    }
    std::string Display = displayPath(Path);
    // Kernel cost hints: a comment block before each kernel and the
    // generated hint function after it, each followed by a #line that
    // restores the original numbering.
    unsigned NumKernels = 0;
    for (const KernelInfo &K : Kernels) {
      if (K.File != Path)
        continue;
      ++NumKernels;
      Edits.insert(K.DeclLineStart, hintComment(K.Pattern) +
                                        formatv("#line {0} {1}\n", K.DeclLine,
                                                cStringLiteral(Display))
                                            .str());
      Edits.insert(K.AfterBody,
                   hintFunction(K) + formatv("#line {0} {1}\n", K.AfterLine,
                                             cStringLiteral(Display))
                                         .str());
    }
    if (F.IsMain && !F.KernelRegistry.empty())
      Edits.insert(F.Buffer.size(),
                   (F.Buffer.empty() || F.Buffer.back() == '\n' ? "" : "\n") +
                       F.KernelRegistry);
    bool Unchanged =
        Rewritten.empty() && !NumKernels && F.KernelRegistry.empty();
    if (!F.IsMain && Unchanged && !Opts.MirrorUnchanged)
      continue; // headers are written only when something changed
    if (!Unchanged)
      Edits.setHead(fileHead(Display, Rewritten, !F.IsMain));
    else if (Opts.MirrorUnchanged)
      Edits.setHead(lineHead(Display));
    Expected<std::string> Text = Edits.apply(F.Buffer);
    if (!Text) {
      errs() << Display << ": error: [orrery-E002] "
             << toString(Text.takeError()) << "\n";
      Ok = false;
      continue;
    }
    Outputs.push_back({Path, std::move(*Text), Unchanged});
  }
  if (Opts.MirrorUnchanged)
    Ok &= mirrorUnchangedHeaders();
  for (Site *S : All)
    Sites.push_back(*S);
  return Ok;
}

std::string Instrumenter::lineHead(StringRef Display) {
  return formatv("#line 1 {0}\n", cStringLiteral(Display)).str();
}

bool Instrumenter::mirrorUnchangedHeaders() {
  std::set<std::string> Written;
  for (const FileOutput &Out : Outputs)
    Written.insert(Out.File);
  bool Ok = true;
  for (const std::string &Path : FilesRead) {
    bool Project = any_of(Opts.HeaderDirs, [&Path](const std::string &D) {
      return StringRef(Path).starts_with(D + "/");
    });
    if (!Project || Written.count(Path))
      continue;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
    if (!Buf) {
      errs() << displayPath(Path) << ": error: cannot read it again to mirror "
             << "it: " << Buf.getError().message() << "\n";
      Ok = false;
      continue;
    }
    // As clang parsed it (nvcc's macros renamed, braced geometry fixed).
    std::string Fixed;
    StringRef Parsed = fixSource((*Buf)->getBuffer(), Opts.NvccMacros, Fixed)
                           ? StringRef(Fixed)
                           : (*Buf)->getBuffer();
    EditSet Edits;
    Edits.setHead(lineHead(displayPath(Path)));
    Expected<std::string> Text = Edits.apply(Parsed);
    if (!Text) {
      errs() << displayPath(Path) << ": error: " << toString(Text.takeError())
             << "\n";
      Ok = false;
      continue;
    }
    Outputs.push_back({Path, std::move(*Text), /*Unchanged=*/true});
  }
  return Ok;
}

} // namespace orrery
