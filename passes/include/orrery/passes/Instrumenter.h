//===- Instrumenter.h - Rewrite CUDA, MPI and RAMC call sites ---*- C++ -*-===//
//
// Runs the site collector over every translation unit, then turns the sites
// of each rewritten file into one EditSet: the original calls wrapped by
// hooks, plus a head with the hook ABI include and the site table.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_INSTRUMENTER_H
#define ORRERY_PASSES_INSTRUMENTER_H

#include "orrery/passes/CompilerFlags.h"
#include "orrery/passes/KernelHintCode.h"
#include "orrery/passes/KernelOverrides.h"
#include "orrery/passes/Site.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}

namespace orrery {

struct InstrumentOptions {
  /// Project header directories whose calls are rewritten too (absolute).
  std::vector<std::string> HeaderDirs;
  /// Per-kernel overrides from a side file.
  KernelOverrides Overrides;
  /// Registers and static shared memory from ptxas, by kernel symbol: the
  /// generated hints carry them to the runtime's occupancy.
  std::map<std::string, DeviceResources> KernelResources;
  /// Also output the files below HeaderDirs that a translation unit read
  /// and that have nothing to rewrite, and the main file when it has
  /// nothing: unchanged but for a first #line naming the original, so a
  /// tree of outputs holds every project file a source reads (orrery-cxx
  /// compiles from such a tree: docs/build-driver.md, "Project headers").
  bool MirrorUnchanged = false;
  /// Rename nvcc's macros in the preprocessor conditions of the sources and
  /// of the files below HeaderDirs before parsing (NvccMacros.h): the build
  /// defines the renamed ones.
  bool NvccMacros = false;
};

/// What one translation unit found: its sites and the text of every file
/// holding one (plain data, merged by Instrumenter::record).
struct TranslationUnitSites {
  std::vector<Site> Sites;
  std::map<std::string, std::string> Buffers; ///< absolute path -> text
  std::string MainFile;
  std::set<std::string> FilesRead;
  unsigned OtherHeaderCalls = 0;
  /// The kernel registry appended to the main file (kernelRegistry()).
  std::string KernelRegistry;
};

/// A rewritten file.
struct FileOutput {
  std::string File;       ///< absolute path of the original
  std::string Text;       ///< instrumented text
  bool Unchanged = false; ///< a MirrorUnchanged copy (a #line added only)
};

class Instrumenter {
public:
  explicit Instrumenter(InstrumentOptions Opts) : Opts(std::move(Opts)) {}

  /// Parses and instruments Files (absolute paths, each once); Texts[I] is
  /// the content of Files[I], read by the caller. Clang parses these buffers
  /// and never opens an input itself, so a pipe is read only once. Returns
  /// false if any file failed to parse or could not be instrumented, or clang
  /// reported an error about the command line; diagnostics went to stderr.
  bool run(const clang::tooling::CompilationDatabase &DB,
           const std::vector<std::string> &Files,
           const std::vector<std::string> &Texts);

  /// Every file a translation unit read (absolute paths): the inputs and
  /// the headers they include. No output may replace one of them.
  const std::set<std::string> &filesRead() const { return FilesRead; }

  /// Every site in file order, ids assigned.
  const std::vector<Site> &sites() const { return Sites; }
  const std::vector<FileOutput> &outputs() const { return Outputs; }
  /// Every kernel defined in the rewritten files, analysed.
  const std::vector<KernelInfo> &kernels() const { return Kernels; }

  /// Calls found in project headers that were not asked to be rewritten.
  unsigned callsInOtherHeaders() const { return OtherHeaderCalls; }

  /// The path shown to users for an absolute path: relative to the current
  /// directory when it lies below it.
  static std::string displayPath(llvm::StringRef Absolute);

  const InstrumentOptions &options() const { return Opts; }
  /// Merges one translation unit's sites and kernels (called by run() once
  /// per translation unit; a header's sites are kept once).
  void record(TranslationUnitSites Unit, std::vector<KernelInfo> &Kernels);

private:
  struct FileState {
    std::string Buffer; ///< the text clang parsed (source fixes applied)
    std::vector<Site> Sites;
    bool IsMain = false;
    std::string KernelRegistry; ///< main files: appended at the end
  };
  bool finalize();
  /// MirrorUnchanged: outputs the project headers read with nothing to
  /// rewrite. False if one could not be read again.
  bool mirrorUnchangedHeaders();
  /// `#line 1 "<Display>"`: the head of a file output unchanged.
  static std::string lineHead(llvm::StringRef Display);

  InstrumentOptions Opts;
  std::map<std::string, FileState> Files;
  std::vector<Site> Sites;
  std::vector<FileOutput> Outputs;
  std::vector<KernelInfo> Kernels;
  std::set<std::string> FilesRead;
  unsigned OtherHeaderCalls = 0;
};

} // namespace orrery

#endif
