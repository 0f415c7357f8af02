//===- Commands.cpp - orrery-cxx: the toolchain and its command lines -----===//
//
// Which flags each mode adds (docs/build-driver.md, and the contract with
// liborrery-sim):
//
//   skeleton  -fPIC -gline-tables-only (a read's callers, DeviceValues.h)
//             -I<skeleton-include> -I<smpi>, libc calls wrapped at link time
//             (LinkWraps.def); CUDA host-only with -nocudalib; linked as the
//             shared object smpirun loads, against liborrery-sim
//   twin      as skeleton, but device code is compiled (kernels really run)
//             and libcudart is linked ahead of liborrery-sim
//   native    Open MPI's headers; device code compiled; an executable linked
//             against liborrery-native, libcudart and libmpi
//
// Mode flags come before the user's, so SMPI's mpi.h wins over an MPI
// include directory a Makefile adds, and the user's -std or -O still win.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ORRERY_CXX_LLVM_BINDIR
#error "the build must define the ORRERY_CXX_* paths"
#endif

namespace orrery {
namespace cxx {

namespace {

bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

std::string dirName(const std::string &P) {
  size_t Slash = P.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : P.substr(0, Slash);
}

std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  size_t B = 0;
  while (B <= S.size()) {
    size_t E = S.find('|', B); // CMake's ';' lists, baked with '|'

    if (E == std::string::npos)
      E = S.size();
    if (E > B)
      Out.push_back(S.substr(B, E - B));
    B = E + 1;
  }
  return Out;
}

const char *langName(Lang L) {
  switch (L) {
  case Lang::C:
    return "c";
  case Lang::CXX:
    return "c++";
  case Lang::CUDA:
    return "cuda";
  default:
    return nullptr;
  }
}

bool hasItem(const Invocation &Inv, const char *Prefix) {
  for (const Item &It : Inv.Items)
    if (!It.Args.empty() && It.Args[0].rfind(Prefix, 0) == 0)
      return true;
  return false;
}

void append(Command &C, std::initializer_list<std::string> L) {
  C.insert(C.end(), L.begin(), L.end());
}

/// The user's flags for one use, in command-line order.
void appendItems(Command &C, const Invocation &Inv,
                 std::initializer_list<Use> Uses) {
  for (const Item &It : Inv.Items) {
    if (It.InputIndex >= 0)
      continue;
    for (Use U : Uses)
      if (It.Where == U)
        C.insert(C.end(), It.Args.begin(), It.Args.end());
  }
}

/// Include paths and macros the mode needs to parse and compile a source.
void appendModePreprocessorFlags(Command &C, const Invocation &Inv,
                                 const Toolchain &TC, Lang L) {
  // RAMC programs build unchanged in every mode.
  if (!TC.RamcInclude.empty())
    append(C, {"-I" + TC.RamcInclude});
  if (isSimulated(Inv.M)) {
    // No -include smpi/smpi_helpers.h: its macros (malloc, free, exit, ...)
    // break libcu++ and any member of those names; the link wraps the same
    // functions instead (linkCommand). mpi-ext.h and nvToolsExt.h come
    // from here; the CUDA headers resolve even without the user's -I.
    if (!TC.SkeletonInclude.empty())
      append(C, {"-I" + TC.SkeletonInclude});
    if (TC.CudaFound)
      append(C, {"-idirafter", TC.CudaPath + "/include"});
    // -I/usr/include would demote the system directory and break the
    // #include_next chains of libstdc++.
    if (!TC.SimgridInclude.empty() && TC.SimgridInclude != "/usr/include")
      append(C, {"-I" + TC.SimgridInclude});
    append(C, {"-I" + TC.SmpiInclude});
    return;
  }
  // Open MPI's (and MPICH's) deprecated C++ bindings need libmpi_cxx;
  // Orrery instruments the C API only.
  if (L != Lang::C)
    append(C, {"-DOMPI_SKIP_MPICXX=1", "-DMPICH_SKIP_MPICXX=1"});
  for (const std::string &D : TC.MpiIncludes)
    append(C, {"-I" + D});
}

/// CUDA_VERSION as <Cuda>/include/cuda.h defines it; 0 if it cannot tell.
int cudaVersion(const std::string &Cuda) {
  std::ifstream In(Cuda + "/include/cuda.h");
  for (std::string Line; std::getline(In, Line);) {
    std::istringstream IS(Line);
    std::string Define, Name;
    int Version = 0;
    if (IS >> Define >> Name >> Version && Define == "#define" &&
        Name == "CUDA_VERSION")
      return Version;
  }
  return 0;
}

/// nvcc's macros under the names the user's files test once
/// orrery-instrument --nvcc-macros renamed them (NvccMacros.h): the nvcc
/// branches of code written for nvcc, with the toolkit's version.
void appendNvccMacros(Command &C, const Toolchain &TC) {
  append(C, {"-D__ORRERY_NVCC__=1"});
  if (int V = TC.CudaVersion) // unknown: left undefined, as #if reads 0
    append(C, {"-D__ORRERY_CUDACC_VER_MAJOR__=" + std::to_string(V / 1000),
               "-D__ORRERY_CUDACC_VER_MINOR__=" + std::to_string(V % 1000 / 10),
               "-D__ORRERY_CUDACC_VER_BUILD__=0"});
}

/// Whether \p In sees nvcc's macros: every CUDA source but CMake's compiler
/// identification, which takes a compiler defining __NVCC__ for nvcc and
/// then looks for nvcc's verbose output ("#$ LIBRARIES=..."); identified as
/// the Clang it is, orrery-cxx gets clang's conventions, which it follows.
bool seesNvccMacros(const Input &In) {
  return In.Language == Lang::CUDA &&
         baseName(In.Path).rfind("CMakeCUDACompilerId", 0) != 0;
}

/// CUDA compile flags of the mode (a host-only parse for skeleton mode).
void appendModeCudaFlags(Command &C, const Invocation &Inv,
                         const Toolchain &TC) {
  if (Inv.M == Mode::Skeleton)
    append(C, {"--cuda-host-only", "-nocudalib"});
  append(C, {"--cuda-path=" + TC.CudaPath, "-Wno-unknown-cuda-version"});
  // CUDA 13 moved thrust, CUB and libcu++ here; nvcc finds them, clang not.
  std::string Cccl = TC.CudaPath + "/include/cccl";
  if (exists(Cccl))
    append(C, {"-isystem", Cccl});
  // clang's default GPU (sm_52) is unknown to CUDA 13's ptxas; in a
  // host-only compile the GPU list still sets __CUDA_ARCH_LIST__, which CUB
  // matches against cudaFuncGetAttributes' answer (the simulated GPU's).
  if (!hasItem(Inv, "--cuda-gpu-arch") && !hasItem(Inv, "--offload-arch"))
    append(C, {"--cuda-gpu-arch=" + TC.DefaultGpuArch});
  if (Inv.M == Mode::Skeleton)
    return;
  // Relocatable device code needs the new offloading driver to be linked.
  if (hasItem(Inv, "-fgpu-rdc") && !hasItem(Inv, "--offload-new-driver"))
    append(C, {"--offload-new-driver"});
}

std::string cudaLibDir(const Toolchain &TC) {
  std::string L = TC.CudaPath + "/lib64";
  return exists(L) ? L : TC.CudaPath + "/lib";
}

} // namespace

bool clangHasLibomp() {
  return exists(std::string(ORRERY_CXX_LLVM_BINDIR) + "/../lib/libomp.so");
}

bool findToolchain(const Invocation &Inv, const char *Argv0, Toolchain &TC,
                   std::string &Error) {
  std::string Llvm = ORRERY_CXX_LLVM_BINDIR;
  TC.Clang = Llvm + "/clang";
  TC.ClangXX = Llvm + "/clang++";
  TC.DefaultGpuArch = ORRERY_CXX_GPU_ARCH;

  // An installed orrery-cxx finds its headers and libraries next to it;
  // one in the build tree uses the paths baked in at configure time.
  std::string Self = realPath("/proc/self/exe");
  if (!exists(Self))
    Self = realPath(Argv0);
  std::string ExeDir = dirName(Self);
  std::string Prefix = dirName(ExeDir);
  if (exists(Prefix + "/include/orrery/hooks.h")) {
    TC.HooksInclude = Prefix + "/include";
    TC.LibDir = Prefix + "/lib";
    if (exists(Prefix + "/include/ramc_api.h"))
      TC.RamcInclude = Prefix + "/include";
  } else {
    TC.HooksInclude = ORRERY_CXX_HOOKS_INCLUDEDIR;
    TC.LibDir = ORRERY_CXX_LIBDIR;
    TC.RamcInclude = ORRERY_CXX_RAMC_INCLUDEDIR;
  }
  TC.SkeletonInclude = exists(Prefix + "/include/orrery/skeleton/mpi-ext.h")
                           ? Prefix + "/include/orrery/skeleton"
                           : ORRERY_CXX_SKELETON_INCLUDEDIR;

  if (const char *E = std::getenv("ORRERY_INSTRUMENT"); E && *E)
    TC.Instrument = E;
  else if (exists(ExeDir + "/orrery-instrument"))
    TC.Instrument = ExeDir + "/orrery-instrument";
  else
    TC.Instrument = std::string(ORRERY_CXX_BINDIR) + "/orrery-instrument";

  TC.SimgridInclude = ORRERY_CXX_SIMGRID_INCLUDEDIR;
  if (!TC.SimgridInclude.empty())
    TC.SmpiInclude = TC.SimgridInclude + "/smpi";
  TC.SimgridLibDir = ORRERY_CXX_SIMGRID_LIBDIR;
  TC.MpiIncludes = splitList(ORRERY_CXX_MPI_INCLUDEDIRS);
  TC.MpiLibraries = splitList(ORRERY_CXX_MPI_LIBRARIES);

  // CUDA: --cuda-path, then CUDA_PATH, CUDA_HOME, then the configured one.
  if (!Inv.CudaPath.empty()) {
    TC.CudaPath = Inv.CudaPath;
    TC.CudaPathSource = "--cuda-path";
  } else if (const char *E = std::getenv("CUDA_PATH"); E && *E) {
    TC.CudaPath = E;
    TC.CudaPathSource = "CUDA_PATH";
  } else if (const char *E = std::getenv("CUDA_HOME"); E && *E) {
    TC.CudaPath = E;
    TC.CudaPathSource = "CUDA_HOME";
  } else {
    TC.CudaPath = ORRERY_CXX_CUDA_PATH;
    TC.CudaPathSource = "the default";
  }
  while (TC.CudaPath.size() > 1 && TC.CudaPath.back() == '/')
    TC.CudaPath.pop_back();
  TC.CudaFound = exists(TC.CudaPath + "/include/cuda_runtime.h");
  TC.CudaVersion = cudaVersion(TC.CudaPath);

  if (Inv.DryRun)
    return true;

  bool AnyCuda = false, AnyInstrumented = false;
  for (const Input &In : Inv.Inputs) {
    AnyCuda |= In.Language == Lang::CUDA;
    AnyInstrumented |= In.isInstrumented();
  }
  if (!exists(TC.ClangXX)) {
    Error = "clang 22 not found at " + TC.ClangXX +
            "; install clang-22 (or reconfigure Orrery with "
            "ORRERY_LLVM_ROOT pointing at LLVM 22)";
    return false;
  }
  if (isSimulated(Inv.M) && TC.SmpiInclude.empty()) {
    Error = std::string(modeName(Inv.M)) +
            " mode needs SimGrid, which this Orrery build lacks (install "
            "libsimgrid-dev and reconfigure), or use --orrery-mode=native";
    return false;
  }
  bool NeedsCuda = AnyCuda || (Inv.M == Mode::Twin && Inv.S == Stage::Link &&
                               !Inv.DeviceLink);
  if (NeedsCuda && !TC.CudaFound) {
    Error = "no CUDA toolkit at '" + TC.CudaPath + "' (taken from " +
            TC.CudaPathSource +
            "): include/cuda_runtime.h is missing; pass --cuda-path=<dir> "
            "or set CUDA_PATH or CUDA_HOME to the toolkit's root (default "
            "/usr/local/cuda)";
    return false;
  }
  if (Inv.M == Mode::Twin && Inv.S == Stage::Link && !Inv.DeviceLink &&
      !exists(TC.LibDir + "/liborrery-twin.so")) {
    Error = "twin mode needs liborrery-twin, which is not in " + TC.LibDir +
            " (Orrery builds it when its CUDA toolkit has libcudart.so.N; "
            "reconfigure with ORRERY_CUDA_PATH pointing at one), or use "
            "--orrery-mode=skeleton";
    return false;
  }
  if (AnyInstrumented && access(TC.Instrument.c_str(), X_OK) != 0) {
    Error = "orrery-instrument not found at " + TC.Instrument +
            "; build it (it needs ORRERY_ENABLE_CLANG=ON) or set "
            "ORRERY_INSTRUMENT to its path";
    return false;
  }
  return true;
}

std::string realPath(const std::string &P) {
  char Buf[PATH_MAX];
  return realpath(P.c_str(), Buf) ? std::string(Buf) : P;
}

namespace {

/// The user's include directories, each with its flag (-I or -iquote), in
/// command-line order.
std::vector<std::pair<std::string, std::string>>
userIncludeDirs(const Invocation &Inv) {
  std::vector<std::pair<std::string, std::string>> Dirs;
  for (const Item &It : Inv.Items) {
    if (It.InputIndex >= 0 || It.Where != Use::Preprocess || It.Args.empty())
      continue;
    const std::string &A = It.Args[0];
    for (std::string Flag : {"-I", "-iquote"}) {
      if (A == Flag && It.Args.size() > 1)
        Dirs.emplace_back(Flag, It.Args[1]);
      else if (A.size() > Flag.size() && A.compare(0, Flag.size(), Flag) == 0)
        Dirs.emplace_back(Flag, A.substr(Flag.size()));
    }
  }
  return Dirs;
}

bool isDirectory(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

} // namespace

std::vector<std::string>
projectHeaderDirs(const Invocation &Inv, const Toolchain &TC, const Input &In) {
  std::vector<std::string> Out;
  if (!Inv.InstrumentHeaders || !In.isInstrumented() || In.Path == "-")
    return Out;
  // Installed software is not the project's: its calls stay unhooked.
  std::vector<std::string> Installed = {"/usr/", "/opt/"};
  for (const std::string &D : {TC.CudaPath, TC.HooksInclude, TC.RamcInclude,
                               TC.SkeletonInclude, TC.SimgridInclude})
    if (!D.empty())
      Installed.push_back(realPath(D) + "/");
  auto Add = [&](const std::string &Dir) {
    std::string R = realPath(Dir);
    if (R.empty() || R == "/" || R[0] != '/' || !isDirectory(R))
      return;
    for (const std::string &I : Installed)
      if ((R + "/").compare(0, I.size(), I) == 0)
        return;
    if (std::find(Out.begin(), Out.end(), R) == Out.end())
      Out.push_back(R);
  };
  Add(dirName(In.Path));
  for (const auto &[Flag, Dir] : userIncludeDirs(Inv))
    Add(Dir);
  // Headers the source reaches above its directory (`#include
  // "../common.h"`, as benchmark suites share one): the project's too.
  std::ifstream Src(In.Path);
  for (std::string Line; std::getline(Src, Line);) {
    std::istringstream IS(Line);
    std::string Hash, Name;
    IS >> std::ws;
    if (IS.peek() != '#')
      continue;
    IS.get();
    IS >> Hash >> Name;
    if (Hash != "include" || Name.size() < 5 || Name.front() != '"' ||
        Name.compare(1, 3, "../") != 0)
      continue;
    std::string Rel = Name.substr(1, Name.find('"', 1) - 1);
    Add(dirName(dirName(In.Path) + "/" + Rel));
  }
  return Out;
}

Command instrumentCommand(const Invocation &Inv, const Toolchain &TC,
                          const Input &In, const SourceFiles &F) {
  Command C{TC.Instrument};
  if (!Inv.Verbose)
    C.push_back("--quiet");
  if (In.Language == Lang::CUDA)
    append(C, {"--cuda-path", TC.CudaPath});
  if (seesNvccMacros(In))
    C.push_back("--nvcc-macros");
  if (F.Tree.empty()) {
    append(C, {"-o", F.Instrumented});
  } else {
    // Every rewritten file lands below the tree at its absolute path.
    append(C, {"--out-dir", F.Tree, "--source-root", "/", "--mirror-headers"});
    for (const std::string &D : F.HeaderDirs)
      append(C, {"--headers", D});
  }
  append(C, {In.Path, "--", "-x", langName(In.Language)});
  appendModePreprocessorFlags(C, Inv, TC, In.Language);
  if (seesNvccMacros(In))
    appendNvccMacros(C, TC);
  if (In.Language == Lang::CUDA)
    appendItems(C, Inv, {Use::Preprocess, Use::Language, Use::Cuda});
  else
    appendItems(C, Inv, {Use::Preprocess, Use::Language});
  return C;
}

Command compileCommand(const Invocation &Inv, const Toolchain &TC,
                       const Input &In, const SourceFiles &F) {
  bool UseC =
      In.Language == Lang::C || (In.Language == Lang::Other && Inv.CMode);
  Command C{UseC ? TC.Clang : TC.ClangXX};
  if (isSimulated(Inv.M)) // smpirun loads the program as a shared object
    append(C, {"-fPIC", "-gline-tables-only"});
  appendModePreprocessorFlags(C, Inv, TC, In.Language);
  append(C, {"-I" + TC.HooksInclude});
  bool Copy = In.isInstrumented() && F.Instrumented != In.Path;
  if (In.Language == Lang::CUDA) {
    appendModeCudaFlags(C, Inv, TC);
    if (Copy && seesNvccMacros(In)) // renamed by orrery-instrument
      appendNvccMacros(C, TC);
  }
  if (Copy) {
    // The instrumented copy lives in a temporary directory: quoted includes
    // must still find the original's neighbours, and debug info should name
    // the original directory.
    std::string SrcDir = realPath(dirName(In.Path));
    if (F.Tree.empty()) {
      append(C,
             {"-iquote", SrcDir,
              "-fdebug-prefix-map=" + dirName(F.Instrumented) + "=" + SrcDir});
    } else {
      // Every project header the source reads is mirrored below the tree
      // (rewritten or not), and each directory's mirror is searched before
      // it: a header found in the tree finds its neighbours there too, so
      // no original of a rewritten header is ever included beside it.
      // (Only mirrors that exist: -Wmissing-include-dirs stays quiet.)
      if (isDirectory(F.Tree + SrcDir))
        append(C, {"-iquote", F.Tree + SrcDir});
      append(C, {"-iquote", SrcDir, "-fdebug-prefix-map=" + F.Tree + "="});
      for (const auto &[Flag, Dir] : userIncludeDirs(Inv))
        if (isDirectory(F.Tree + realPath(Dir)))
          append(C, {Flag, F.Tree + realPath(Dir)});
    }
  }
  if (In.Language == Lang::CUDA)
    appendItems(C, Inv,
                {Use::Preprocess, Use::Language, Use::Common, Use::Cuda,
                 Use::CudaCompile});
  else
    appendItems(C, Inv, {Use::Preprocess, Use::Language, Use::Common});
  if (Inv.Verbose)
    C.push_back("-v");

  // Dependencies: written for the instrumented file under a temporary name;
  // the driver then names the original source in them.
  if (!Inv.DepKind.empty()) {
    C.push_back(Inv.DepKind);
    if (!F.DepFile.empty())
      append(C, {"-MF", F.DepFile});
    if (!Inv.DepTargets.empty())
      C.insert(C.end(), Inv.DepTargets.begin(), Inv.DepTargets.end());
    else if (!F.DepTarget.empty())
      append(C, {"-MT", F.DepTarget});
    if (Inv.DepPhony)
      C.push_back("-MP");
  }
  switch (Inv.S) {
  case Stage::Link:
  case Stage::Compile:
    C.push_back("-c");
    break;
  case Stage::Assemble:
    C.push_back("-S");
    break;
  case Stage::Preprocess:
    if (!Inv.DepsOnly)
      C.push_back("-E");
    break;
  case Stage::SyntaxOnly:
    C.push_back("-fsyntax-only");
    break;
  }
  if (In.isInstrumented())
    append(C, {"-x", langName(In.Language), Copy ? F.Instrumented : In.Path});
  else if (!In.XLang.empty())
    append(C, {"-x", In.XLang, In.Path});
  else
    C.push_back(In.Path);
  if (Inv.S != Stage::SyntaxOnly)
    append(C, {"-o", F.Object});
  return C;
}

Command linkCommand(const Invocation &Inv, const Toolchain &TC,
                    const std::vector<std::string> &Objects,
                    const std::string &Output) {
  Command C{Inv.CMode ? TC.Clang : TC.ClangXX};
  if (isSimulated(Inv.M) && !Inv.Pretend) {
    // smpirun loads the program once per rank as a shared object; -z defs
    // reports what liborrery-sim lacks now instead of at load time.
    append(C, {"-shared", "-Wl,-z,defs"});
    // Every rank maps its own copy of the program, and a process may hold
    // vm.max_map_count mappings: one read-execute and one writable segment
    // (no separate read-only ones, no RELRO split) take 2 per copy instead
    // of 5 (docs/orrery-run.md, "Memory mappings per rank").
    C.push_back("-Wl,-z,noseparate-code,-z,norelro");
    // The program's calls of these reach liborrery-sim's __wrap_ versions.
    std::string Wraps = "-Wl";
#define ORRERY_WRAP(Name) Wraps += ",--wrap=" #Name;
#include "orrery/sim/LinkWraps.def"
#undef ORRERY_WRAP
    C.push_back(Wraps);
    // Executed directly, the program says how to run it (SkeletonEntry.c).
    std::string Entry = TC.LibDir + "/liborrery-skeleton-entry.a";
    if (exists(Entry))
      append(C,
             {"-Wl,-u,orrery_skeleton_entry,-e,orrery_skeleton_entry", Entry});
  }
  bool Rdc = Inv.M != Mode::Skeleton && hasItem(Inv, "-fgpu-rdc");
  if (Rdc) // the user's -fgpu-rdc and GPU flags follow (Use::Cuda)
    append(C, {"--offload-new-driver", "--cuda-path=" + TC.CudaPath});
  for (const Item &It : Inv.Items) {
    if (It.InputIndex >= 0) {
      const std::string &Obj = Objects[It.InputIndex];
      C.push_back(Obj.empty() ? Inv.Inputs[It.InputIndex].Path : Obj);
    } else if (It.Where == Use::Language || It.Where == Use::Common ||
               It.Where == Use::Link || (Rdc && It.Where == Use::Cuda)) {
      C.insert(C.end(), It.Args.begin(), It.Args.end());
    }
  }
  if (Inv.Verbose)
    C.push_back("-v");
  std::string Lib = TC.LibDir;
  std::string Cuda = cudaLibDir(TC);
  switch (Inv.M) {
  case Mode::Twin:
    // liborrery-twin installs the executor that runs device work on the
    // real GPU; nothing of it is called by name, so keep it linked.
    append(C, {"-L" + Lib, "-Wl,--push-state,--no-as-needed", "-lorrery-twin",
               "-Wl,--pop-state"});
    [[fallthrough]];
  case Mode::Skeleton:
    // RAMC programs get the simulated transport (only if they use RAMC).
    if (exists(Lib + "/libramc-sim.so"))
      append(C, {"-L" + Lib, "-Wl,--push-state,--as-needed", "-lramc-sim",
                 "-Wl,--pop-state"});
    // cuBLAS and cuSPARSE, answered by models, for skeleton programs that
    // call them (twin programs run the real libraries on the GPU).
    if (Inv.M == Mode::Skeleton && exists(Lib + "/liborrery-sim-mathlibs.so"))
      append(C, {"-L" + Lib, "-Wl,--push-state,--as-needed",
                 "-lorrery-sim-mathlibs", "-Wl,--pop-state"});
    // NCCL, simulated, for skeleton programs that call it.
    if (Inv.M == Mode::Skeleton && exists(Lib + "/liborrery-sim-nccl.so"))
      append(C, {"-L" + Lib, "-Wl,--push-state,--as-needed",
                 "-lorrery-sim-nccl", "-Wl,--pop-state"});
    append(C, {"-L" + Lib, "-lorrery-sim"});
    if (!TC.SimgridLibDir.empty() && TC.SimgridLibDir.rfind("/usr/lib", 0) &&
        TC.SimgridLibDir.rfind("/lib", 0))
      C.push_back("-L" + TC.SimgridLibDir);
    append(C, {"-lsimgrid", "-lm", "-Wl,-rpath," + Lib});
    // After liborrery-sim: the program's CUDA calls reach the simulated
    // runtime, and only what libcudart alone defines (the registration of
    // device code) reaches libcudart.
    if (Inv.M == Mode::Twin)
      append(C, {"-L" + Cuda, "-lcudart", "-Wl,-rpath," + Cuda});
    break;
  case Mode::Native:
    if (exists(Lib + "/libramc.so"))
      append(C, {"-L" + Lib, "-Wl,--push-state,--as-needed", "-lramc",
                 "-Wl,--pop-state"});
    append(C, {"-L" + Lib, "-lorrery-native", "-Wl,-rpath," + Lib});
    if (TC.CudaFound)
      append(C, {"-L" + Cuda, "-Wl,--push-state,--as-needed", "-lcudart",
                 "-Wl,--pop-state", "-Wl,-rpath," + Cuda});
    if (!TC.MpiLibraries.empty()) {
      C.push_back("-Wl,--push-state,--as-needed");
      C.insert(C.end(), TC.MpiLibraries.begin(), TC.MpiLibraries.end());
      C.push_back("-Wl,--pop-state");
    }
    break;
  }
  append(C, {"-o", Output});
  return C;
}

Command emptyObjectCommand(const Invocation &Inv, const Toolchain &TC,
                           const std::string &Output) {
  Command C{TC.Clang, "-c", "-x", "c", "/dev/null", "-o", Output};
  if (isSimulated(Inv.M))
    C.insert(C.begin() + 1, "-fPIC");
  return C;
}

} // namespace cxx
} // namespace orrery
