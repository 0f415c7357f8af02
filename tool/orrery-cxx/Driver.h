//===- Driver.h - orrery-cxx: what an invocation asks for ------*- C++ -*-===//
//
// orrery-cxx (and orrery-cc) is a compiler driver: each source is run through
// orrery-instrument, then compiled with clang 22 for one Orrery mode, and the
// objects are linked the way that mode needs (docs/build-driver.md).
//
// The three parts: Arguments.cpp turns argv into an Invocation, Commands.cpp
// turns an Invocation and a Toolchain into command lines, OrreryCxx.cpp runs
// them (Process.cpp holds the POSIX plumbing).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_TOOL_CXX_DRIVER_H
#define ORRERY_TOOL_CXX_DRIVER_H

#include <string>
#include <vector>

namespace orrery {
namespace cxx {

enum class Mode { Skeleton, Twin, Native };
const char *modeName(Mode M);

/// How far the compilation goes, as -c, -S, -E or -fsyntax-only say.
enum class Stage { Link, Compile, Assemble, Preprocess, SyntaxOnly };

/// The language an input is compiled as.
enum class Lang {
  C,
  CXX,
  CUDA,
  Other,  ///< compiled by clang as it is, not instrumented (.s, .i, stdin)
  Linker, ///< objects, archives, shared libraries, anything unknown
};

struct Input {
  std::string Path;
  Lang Language = Lang::Linker;
  std::string XLang; ///< the -x value in force for Lang::Other, if any
  bool isSource() const { return Language != Lang::Linker; }
  bool isInstrumented() const {
    return Language == Lang::C || Language == Lang::CXX ||
           Language == Lang::CUDA;
  }
};

/// Where a user flag goes. Every flag keeps its position relative to the
/// others of the same command.
enum class Use {
  Preprocess,  ///< orrery-instrument and compiles (-I, -D, -include, ...)
  Language,    ///< orrery-instrument, compiles and the link (-std, -f, -m, -O)
  Common,      ///< compiles and the link (-W, -g, unknown flags)
  Cuda,        ///< compiles of CUDA sources, and orrery-instrument on them
  CudaCompile, ///< compiles of CUDA sources only (-Xcuda-ptxas x)
  Link,        ///< the link only (-l, -L, -Wl, -shared, objects)
};

/// One element of the compile or link command: a flag (with its value, if
/// separate, in Args) or an input (Index into Invocation::Inputs).
struct Item {
  Use Where = Use::Common;
  std::vector<std::string> Args;
  int InputIndex = -1;
};

/// Everything argv asks for, classified.
struct Invocation {
  bool CMode = false; ///< invoked as orrery-cc: C driver, .c files are C
  Mode M = Mode::Skeleton;
  Stage S = Stage::Link;
  bool DepsOnly = false; ///< -M or -MM: print dependencies, do not compile
  bool Verbose = false;  ///< -v
  bool DryRun = false;   ///< -###
  bool KeepTemps = false;
  bool Quiet = false; ///< --orrery-quiet: no notes
  /// Calls and kernels in the project's headers are instrumented too
  /// (--orrery-no-headers: only the sources are).
  bool InstrumentHeaders = true;
  bool PrintVersion = false;
  bool PrintHelp = false;
  bool DeviceLink = false; ///< nvcc -dlink: an empty object is written
  /// nvcc -cuda: the "host side" written for a later C++ compile is a stub
  /// that names the .cu (NvccHostStub.h); orrery-cxx compiles it as CUDA.
  bool CudaFrontEnd = false;
  /// Skeleton or twin link of a build system's test program (autoconf's
  /// conftest, ORRERY_PRETEND_CC, SMPI_PRETEND_CC): a plain executable that
  /// runs, as smpicc's pretend mode makes.
  bool Pretend = false;
  std::string Output;   ///< -o, or empty
  std::string CudaPath; ///< --cuda-path, or empty
  std::vector<Input> Inputs;
  std::vector<Item> Items; ///< flags and inputs in command-line order
  /// -MD/-MMD and their -MF, -MT, -MQ, -MP (re-targeted per output).
  std::string DepKind;                 ///< "-MD", "-MMD", "-M", "-MM" or empty
  std::string DepFile;                 ///< -MF
  std::vector<std::string> DepTargets; ///< -MT x / -MQ x, as flag pairs
  bool DepPhony = false;               ///< -MP
  /// Notes for the user (nvcc flags dropped, ...).
  std::vector<std::string> Notes;
  /// Raw flags for a pass-through to clang when there is no input.
  std::vector<std::string> Raw;
};

/// Skeleton and twin programs run under SMPI (native ones do not).
inline bool isSimulated(Mode M) { return M != Mode::Native; }

/// The last component of a path.
std::string baseName(const std::string &Path);
/// \p P with links and dots resolved (\p P itself if that fails).
std::string realPath(const std::string &P);

/// Classifies argv (argv[0] excluded). Returns false with Error set (naming
/// the flag and what to do) when argv cannot be used.
/// The language `-x X` names (cuda and cu, c++, c; anything else: compiled
/// as it is).
Lang languageOfX(const std::string &XLang);

bool parseArguments(const std::vector<std::string> &Args, bool CMode,
                    const char *EnvMode, Invocation &Inv, std::string &Error);

/// Paths of the tools, headers and libraries a build uses.
struct Toolchain {
  std::string Clang, ClangXX;  ///< clang-22 and clang++-22
  std::string Instrument;      ///< orrery-instrument
  std::string HooksInclude;    ///< holds orrery/hooks.h
  std::string RamcInclude;     ///< holds ramc.h, ramc_api.h (may be empty)
  std::string LibDir;          ///< holds liborrery-sim and liborrery-native
  std::string SmpiInclude;     ///< SimGrid's smpi/ include dir (mpi.h)
  std::string SkeletonInclude; ///< mpi-ext.h, nvToolsExt.h of skeleton mode
  std::string SimgridInclude;  ///< parent of smpi/ (smpi/smpi_helpers.h)
  std::string SimgridLibDir;   ///< directory of libsimgrid
  std::vector<std::string> MpiIncludes;  ///< native MPI include dirs
  std::vector<std::string> MpiLibraries; ///< native MPI libraries (paths)
  std::string CudaPath;   ///< CUDA toolkit root (may lack headers)
  bool CudaFound = false; ///< CudaPath/include/cuda_runtime.h exists
  /// CUDA_VERSION of CudaPath/include/cuda.h (13000 for 13.0), 0 unknown:
  /// the version nvcc's macros give code written for it.
  int CudaVersion = 0;
  std::string CudaPathSource; ///< which setting named CudaPath
  std::string DefaultGpuArch; ///< for native and twin device code
};

/// True when clang's own OpenMP runtime (libomp, Debian's libomp-22-dev) is
/// installed next to the clang the driver runs; -fopenmp needs it.
bool clangHasLibomp();

/// Finds the toolchain for Inv. Returns false with Error set when something
/// the invocation needs is missing (never in a dry run, which prints paths).
bool findToolchain(const Invocation &Inv, const char *Argv0, Toolchain &TC,
                   std::string &Error);

/// Paths of one source's intermediate files.
struct SourceFiles {
  std::string Instrumented; ///< TempDir/<n>/<same file name>, or Tree/<path>
  /// With project headers instrumented: where orrery-instrument mirrors
  /// every file it rewrites, by absolute path (TempDir/<n>/tree), and the
  /// header directories it rewrites below; both empty otherwise.
  std::string Tree;
  std::vector<std::string> HeaderDirs;
  std::string Object;    ///< what the compile writes (a temp name)
  std::string DepFile;   ///< what the compile writes for -MD (temp), or ""
  std::string DepTarget; ///< the default -MT for -MD
};

using Command = std::vector<std::string>;
/// The directories whose headers are instrumented with \p In: its own
/// directory and the user's -I and -iquote directories, by real path, less
/// installed software (/usr, /opt, the CUDA toolkit, Orrery's headers).
/// Empty when --orrery-no-headers or \p In is not instrumented.
std::vector<std::string>
projectHeaderDirs(const Invocation &Inv, const Toolchain &TC, const Input &In);

/// orrery-instrument on one source.
Command instrumentCommand(const Invocation &Inv, const Toolchain &TC,
                          const Input &In, const SourceFiles &F);
/// clang on one source: the instrumented file, or the input itself when it
/// is not instrumented.
Command compileCommand(const Invocation &Inv, const Toolchain &TC,
                       const Input &In, const SourceFiles &F);
/// The link: Objects[i] replaces source input i (empty for linker inputs).
Command linkCommand(const Invocation &Inv, const Toolchain &TC,
                    const std::vector<std::string> &Objects,
                    const std::string &Output);
/// An empty object (for nvcc's -dlink step, which has nothing to do here).
Command emptyObjectCommand(const Invocation &Inv, const Toolchain &TC,
                           const std::string &Output);

} // namespace cxx
} // namespace orrery

#endif
