//===- Arguments.cpp - orrery-cxx: classifying the command line -----------===//
//
// A compiler driver must pass on flags it does not know, so argv is parsed by
// hand: nvcc flags are translated first (the shared table of NvccFlags.h),
// then each flag is sorted by where it goes (Use) and inputs by language.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "NvccHostStub.h"
#include "orrery/passes/NvccFlags.h"
#include "orrery/support/AtomicFile.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <sys/stat.h>

namespace orrery {
namespace cxx {

const char *modeName(Mode M) {
  switch (M) {
  case Mode::Skeleton:
    return "skeleton";
  case Mode::Twin:
    return "twin";
  case Mode::Native:
    return "native";
  }
  return "?";
}

namespace {

bool startsWith(const std::string &S, const char *P) {
  return S.compare(0, std::char_traits<char>::length(P), P) == 0;
}

bool isOneOf(const std::string &S, std::initializer_list<const char *> Set) {
  return std::any_of(Set.begin(), Set.end(),
                     [&](const char *E) { return S == E; });
}

bool parseMode(const std::string &Name, Mode &M) {
  if (Name == "skeleton")
    M = Mode::Skeleton;
  else if (Name == "twin")
    M = Mode::Twin;
  else if (Name == "native")
    M = Mode::Native;
  else
    return false;
  return true;
}

std::string extension(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  size_t Dot = Path.rfind('.');
  if (Dot == std::string::npos || (Slash != std::string::npos && Dot < Slash))
    return "";
  return Path.substr(Dot);
}

/// The language of an input from -x (if given) or its extension.
Input classifyInput(const std::string &Path, const std::string &XLang,
                    bool CMode) {
  Input In;
  In.Path = Path;
  if (!XLang.empty() && XLang != "none") {
    In.Language = languageOfX(XLang);
    In.XLang = XLang == "cu" ? "cuda" : XLang;
  } else {
    std::string Ext = extension(Path);
    if (Ext == ".cu")
      In.Language = Lang::CUDA;
    else if (isOneOf(Ext, {".cpp", ".cc", ".cxx", ".c++", ".cp", ".CPP", ".C"}))
      In.Language = Lang::CXX;
    else if (Ext == ".c")
      // As clang++ and g++ do, orrery-cxx compiles .c files as C++.
      In.Language = CMode ? Lang::C : Lang::CXX;
    else if (isOneOf(Ext, {".s", ".S", ".sx", ".i", ".ii"}))
      In.Language = Lang::Other;
    else if (Path == "-")
      In.Language = Lang::Other; // stdin; clang insists on -x
    else
      In.Language = Lang::Linker;
  }
  // The host side nvcc -cuda wrote through orrery-cxx: the .cu it names.
  if (In.Language == Lang::CXX || In.Language == Lang::Other) {
    std::string Cu = nvccHostStubSource(Path);
    if (!Cu.empty()) {
      In.Path = Cu;
      In.Language = Lang::CUDA;
      In.XLang.clear();
      return In;
    }
  }
  // Standard input and devices (-x c++ /dev/null, as build systems probe
  // compilers) are compiled as they are: there is nothing to instrument.
  struct stat St;
  if (In.isInstrumented() &&
      (Path == "-" || (stat(Path.c_str(), &St) == 0 && !S_ISREG(St.st_mode))))
    In.Language = Lang::Other;
  return In;
}

/// Flags whose value may be the next argument (clang's Separate and
/// JoinedOrSeparate options that build systems use).
bool takesSeparateValue(const std::string &A) {
  return isOneOf(A, {"-o",
                     "-x",
                     "-I",
                     "-D",
                     "-U",
                     "-L",
                     "-l",
                     "-include",
                     "-imacros",
                     "-isystem",
                     "-idirafter",
                     "-iquote",
                     "-iprefix",
                     "-iwithprefix",
                     "-iwithprefixbefore",
                     "-isysroot",
                     "-Xpreprocessor",
                     "-Xlinker",
                     "-Xclang",
                     "-Xassembler",
                     "-mllvm",
                     "-MF",
                     "-MT",
                     "-MQ",
                     "-T",
                     "-u",
                     "-z",
                     "-target",
                     "-B",
                     "-F",
                     "-framework",
                     "-Xcuda-ptxas",
                     "-Xcuda-fatbinary",
                     "-Xopenmp-target",
                     "-Xoffload-linker",
                     "--param",
                     "-ivfsoverlay",
                     "-working-directory",
                     "--cuda-path",
                     "--orrery-mode"});
}

/// Where a flag (with its value already attached, or not) goes.
Use classifyFlag(const std::string &A) {
  // Pass-throughs to other programs (the -m test below would catch -mllvm).
  if (isOneOf(A, {"-mllvm", "-Xclang", "-Xassembler", "-Xopenmp-target"}))
    return Use::Common;
  // The preprocessor: orrery-instrument must parse what the compiler parses.
  for (const char *P :
       {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter",
        "-iquote", "-iprefix", "-iwithprefix", "-isysroot", "-Wp,"})
    if (startsWith(A, P))
      return Use::Preprocess;
  if (isOneOf(A, {"-Xpreprocessor", "-nostdinc", "-nostdinc++", "-undef",
                  "-trigraphs", "-ffreestanding"}))
    return Use::Preprocess;
  // CUDA only: clang warns about them on C and C++ files.
  if (isOneOf(A, {"-Xcuda-ptxas", "-Xcuda-fatbinary"}))
    return Use::CudaCompile;
  for (const char *P : {"--cuda-", "--no-cuda-", "--offload-arch",
                        "--no-offload-arch", "-fgpu-", "-fno-gpu-", "-fcuda-",
                        "-fno-cuda-", "-nocudainc", "-nocudalib"})
    if (startsWith(A, P))
      return Use::Cuda;
  // The link only.
  if (isOneOf(A, {"-Xlinker", "-T", "-u", "-z", "-shared", "-static",
                  "-static-libgcc", "-static-libstdc++", "-rdynamic", "-pie",
                  "-no-pie", "-nostdlib", "-nodefaultlibs", "-nostartfiles",
                  "-s", "-Xoffload-linker"}))
    return Use::Link;
  for (const char *P : {"-l", "-L", "-Wl,", "-fuse-ld=", "--ld-path="})
    if (startsWith(A, P))
      return Use::Link;
  // Language and code generation: they change predefined macros, so
  // orrery-instrument sees them too.
  if (startsWith(A, "-std=") || startsWith(A, "-stdlib=") ||
      startsWith(A, "--sysroot") || startsWith(A, "--target=") ||
      isOneOf(A, {"-ansi", "-pthread", "-target"}) ||
      (A.size() > 2 && (startsWith(A, "-f") || startsWith(A, "-m"))) ||
      startsWith(A, "-O"))
    return Use::Language;
  return Use::Common;
}

/// Why a skeleton program must not link library \p Name (from -lNAME), or
/// nullptr when it may: liborrery-sim provides the CUDA runtime and the
/// driver calls skeleton mode answers (the real ones would win the symbol
/// lookup), SMPI is the MPI (a second MPI in the process crashes it), and
/// NVTX 3 is header-only (libnvToolsExt is gone from CUDA 13).
const char *skeletonDropReason(const std::string &Name, Mode M) {
  if (M == Mode::Skeleton &&
      isOneOf(Name, {"cudart", "cudart_static", "cudadevrt", "cuda"}))
    return "in skeleton mode liborrery-sim provides the CUDA runtime API";
  if (isOneOf(Name, {"mpi", "mpi_cxx", "mpi_mpifh", "mpi_usempif08",
                     "mpi_usempi_ignore_tkr", "open-rte", "open-pal", "mpich",
                     "mpichcxx", "mpicxx", "mpl", "opa", "pmpi"}))
    return "in skeleton mode SMPI is the MPI library";
  if (isOneOf(Name, {"nvToolsExt", "nvtx3interop"}))
    return "NVTX 3 is header-only (nvToolsExt.h resolves to nvtx3/)";
  if (M == Mode::Skeleton &&
      isOneOf(Name, {"cublas", "cublasLt", "cusparse", "cufft", "curand",
                     "cublas_static", "cublasLt_static", "cusparse_static",
                     "cufft_static", "curand_static", "culibos"}))
    return "in skeleton mode liborrery-sim-mathlibs answers cuBLAS, "
           "cuSPARSE, cuFFT and cuRAND calls "
           "(docs/kernel-cost.md#math-libraries)";
  if (M == Mode::Skeleton && isOneOf(Name, {"nccl", "nccl_static"}))
    return "in skeleton mode liborrery-sim-nccl answers NCCL calls "
           "(docs/nccl.md)";
  if (M == Mode::Skeleton &&
      isOneOf(Name, {"nvshmem", "nvshmem_host", "nvshmem_device"}))
    return "in skeleton mode liborrery-sim-nccl answers NVSHMEM's host calls "
           "(docs/nccl.md, \"NVSHMEM\")";
  // GPU management and profiling libraries of the machine with the GPU (a
  // program that calls them is told which function is missing when it is
  // loaded).
  if (M == Mode::Skeleton && isOneOf(Name, {"nvidia-ml", "cupti"}))
    return "in skeleton mode there is no GPU to manage or profile (NVML, "
           "CUPTI)";
  return nullptr;
}

/// NAME of a library file .../libNAME.a, libNAME.so or libNAME.so.N[.M...];
/// empty for other files.
std::string libraryName(const std::string &Path) {
  std::string Base = Path.substr(Path.rfind('/') + 1);
  if (Base.rfind("lib", 0) != 0)
    return "";
  Base.erase(0, 3);
  if (Base.size() > 2 && Base.compare(Base.size() - 2, 2, ".a") == 0)
    return Base.substr(0, Base.size() - 2);
  size_t So = Base.find(".so");
  if (So == std::string::npos || So == 0)
    return "";
  for (size_t I = So + 3; I < Base.size(); ++I)
    if (!(std::isdigit(static_cast<unsigned char>(Base[I])) ||
          (Base[I] == '.' && I + 1 < Base.size())))
      return "";
  return Base.substr(0, So);
}

/// True for a library directory of an MPI installation (-L$(MPI_HOME)/lib):
/// the libraries there are the real MPI's, which a skeleton must not link.
bool isMpiLibraryDir(const std::string &Dir) {
  for (const char *Lib : {"/libmpi.so", "/libmpich.so"}) {
    struct stat St;
    if (stat((Dir + Lib).c_str(), &St) == 0)
      return true;
  }
  return false;
}

/// A configure script's test program: configure runs what it links, which a
/// skeleton shared object cannot be. Autoconf names them conftest (and its
/// first probe links conftest.c to a.out); ORRERY_PRETEND_CC or SimGrid's
/// SMPI_PRETEND_CC ask for the same explicitly.
bool isConfigureProbe(const Invocation &Inv) {
  for (const char *Var : {"ORRERY_PRETEND_CC", "SMPI_PRETEND_CC"})
    if (const char *V = std::getenv(Var); V && *V)
      return true;
  std::string Out = baseName(Inv.Output);
  if (Out == "conftest" || Out == "conftest.exe")
    return true;
  return std::any_of(Inv.Inputs.begin(), Inv.Inputs.end(), [](const Input &In) {
    return baseName(In.Path).rfind("conftest.", 0) == 0;
  });
}

} // namespace

Lang languageOfX(const std::string &XLang) {
  if (XLang == "cuda" || XLang == "cu")
    return Lang::CUDA;
  if (XLang == "c++")
    return Lang::CXX;
  if (XLang == "c")
    return Lang::C;
  return Lang::Other;
}

std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

bool parseArguments(const std::vector<std::string> &Argv, bool CMode,
                    const char *EnvMode, Invocation &Inv, std::string &Error) {
  Inv.CMode = CMode;
  const char *Tool = CMode ? "orrery-cc" : "orrery-cxx";
  if (EnvMode && *EnvMode && !parseMode(EnvMode, Inv.M)) {
    Error = std::string("unknown mode '") + EnvMode +
            "' in the environment variable ORRERY_MODE; use skeleton, twin "
            "or native";
    return false;
  }
  // Our own options first; they never reach the compiler.
  std::vector<std::string> Rest;
  for (size_t I = 0; I < Argv.size(); ++I) {
    const std::string &A = Argv[I];
    if (!startsWith(A, "--orrery-")) {
      Rest.push_back(A);
      continue;
    }
    if (A == "--orrery-mode" || startsWith(A, "--orrery-mode=")) {
      std::string V;
      if (A.size() > 13)
        V = A.substr(14);
      else if (I + 1 < Argv.size())
        V = Argv[++I];
      if (!parseMode(V, Inv.M)) {
        Error = "unknown mode '" + V +
                "' in --orrery-mode; use skeleton, twin or native";
        return false;
      }
    } else if (A == "--orrery-keep-temps") {
      Inv.KeepTemps = true;
    } else if (A == "--orrery-quiet") {
      Inv.Quiet = true;
    } else if (A == "--orrery-no-headers") {
      Inv.InstrumentHeaders = false;
    } else {
      Error = "unknown option '" + A + "'; " + Tool +
              " knows --orrery-mode=skeleton|twin|native, "
              "--orrery-keep-temps, --orrery-quiet and --orrery-no-headers";
      return false;
    }
  }
  Inv.Raw = Rest;

  // nvcc flags become clang flags (or notes, or an error naming them).
  NvccTranslation T = translateNvccFlags(Rest);
  if (!T.Error.empty()) {
    Error = T.Error;
    return false;
  }
  for (const std::string &D : T.Dropped)
    Inv.Notes.push_back("nvcc flag '" + D +
                        "' dropped: it steers only nvcc's device code, host "
                        "compiler or diagnostics, which clang does not need");
  Inv.DeviceLink = T.DeviceLink;
  Inv.CudaFrontEnd = T.CudaFrontEnd;

  const std::vector<std::string> &Args = T.Args;
  std::string XLang;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A.empty())
      continue;
    if (A[0] != '-' || A == "-") {
      Input In = classifyInput(A, XLang, CMode);
      // A library named by its path (CMake's CUDA::cudart, CUDA::cublas)
      // is dropped as its -l would be.
      if (In.Language == Lang::Linker && isSimulated(Inv.M))
        if (const char *Why = skeletonDropReason(libraryName(A), Inv.M)) {
          Inv.Notes.push_back("'" + A + "' dropped: " + Why);
          continue;
        }
      Inv.Inputs.push_back(std::move(In));
      Item It;
      It.Where = Use::Link;
      It.InputIndex = int(Inv.Inputs.size() - 1);
      Inv.Items.push_back(It);
      continue;
    }
    // Gather the flag and its separate value, if it has one.
    std::vector<std::string> Flag{A};
    if (takesSeparateValue(A)) {
      if (I + 1 >= Args.size()) {
        Error = "flag '" + A + "' is missing its value";
        return false;
      }
      Flag.push_back(Args[++I]);
    }
    const std::string &Value = Flag.size() == 2 ? Flag[1] : std::string();

    // The driver's own business.
    if (A == "-o" || (startsWith(A, "-o") && A.size() > 2)) {
      Inv.Output = Flag.size() == 2 ? Value : A.substr(2);
    } else if (A == "-c") {
      Inv.S = Stage::Compile;
    } else if (A == "-S") {
      Inv.S = Stage::Assemble;
    } else if (A == "-E") {
      Inv.S = Stage::Preprocess;
    } else if (A == "-fsyntax-only") {
      Inv.S = Stage::SyntaxOnly;
    } else if (A == "-x" || (startsWith(A, "-x") && A.size() > 2)) {
      XLang = Flag.size() == 2 ? Value : A.substr(2);
    } else if (A == "-v") {
      Inv.Verbose = true;
    } else if (A == "-###") {
      Inv.DryRun = true;
    } else if (A == "--version") {
      Inv.PrintVersion = true;
    } else if (A == "--help" || A == "-help") {
      Inv.PrintHelp = true;
    } else if (A == "--cuda-path") {
      Inv.CudaPath = Value;
    } else if (startsWith(A, "--cuda-path=")) {
      Inv.CudaPath = A.substr(12);
    } else if (isOneOf(A, {"-M", "-MM"})) {
      Inv.DepKind = A;
      Inv.DepsOnly = true;
    } else if (isOneOf(A, {"-MD", "-MMD"})) {
      if (!Inv.DepsOnly)
        Inv.DepKind = A;
    } else if (A == "-MF" || (startsWith(A, "-MF") && A.size() > 3)) {
      Inv.DepFile = Flag.size() == 2 ? Value : A.substr(3);
    } else if (A == "-MT" || A == "-MQ") {
      Inv.DepTargets.push_back(A);
      Inv.DepTargets.push_back(Value);
    } else if (startsWith(A, "-MT") || startsWith(A, "-MQ")) {
      Inv.DepTargets.push_back(A.substr(0, 3));
      Inv.DepTargets.push_back(A.substr(3));
    } else if (A == "-MP") {
      Inv.DepPhony = true;
    } else if ((A == "-fopenmp" || A == "-fopenmp=libomp") &&
               !clangHasLibomp()) {
      // Makefiles pass -fopenmp (often through nvcc's -Xcompiler) for gcc's
      // libgomp; clang's -fopenmp needs libomp, and without it fails to
      // find omp.h or -lomp. Clang with libgomp links it but ignores the
      // pragmas, which is what a build without libomp can offer.
      Inv.Notes.push_back(
          "'" + A +
          "' became '-fopenmp=libgomp': clang's OpenMP runtime libomp (Debian "
          "package libomp-22-dev) is not installed, so OpenMP pragmas are "
          "ignored and the host code runs on one thread (skeleton mode "
          "charges host code only with orrery-run --host-compute); install "
          "libomp-22-dev to keep them");
      Item It;
      It.Where = Use::Language;
      It.Args = {"-fopenmp=libgomp"};
      Inv.Items.push_back(std::move(It));
    } else {
      Item It;
      It.Where = classifyFlag(A);
      if (It.Where == Use::Link && isSimulated(Inv.M)) {
        std::string Written = A + (Flag.size() == 2 ? " " + Value : "");
        std::string Name = Flag.size() == 2 ? Value : A.substr(2);
        const char *Why = nullptr;
        if (startsWith(A, "-l"))
          Why = skeletonDropReason(Name, Inv.M);
        else if (startsWith(A, "-L") && isMpiLibraryDir(Name))
          Why = "it holds a real MPI, and in skeleton mode SMPI is the MPI";
        if (Why) {
          Inv.Notes.push_back("'" + Written + "' dropped: " + Why);
          continue;
        }
      }
      It.Args = std::move(Flag);
      Inv.Items.push_back(std::move(It));
    }
  }
  if (Inv.DepsOnly)
    Inv.S = Stage::Preprocess;
  Inv.Pretend = isSimulated(Inv.M) && isConfigureProbe(Inv);

  // Checks that need the whole command line. An output that is one of the
  // inputs would destroy it (gcc refuses too); a device such as /dev/null
  // is left to the compiler, which writes into it.
  std::vector<std::string> InputPaths;
  for (const Input &In : Inv.Inputs)
    InputPaths.push_back(In.Path);
  for (auto [Option, Path] :
       {std::pair<const char *, const std::string *>{"-o", &Inv.Output},
        {"-MF", &Inv.DepFile}}) {
    struct stat S;
    if (!Path->empty() && stat(Path->c_str(), &S) == 0 && S_ISREG(S.st_mode) &&
        !support::checkOutputPath(Option, *Path, InputPaths, Error))
      return false;
  }
  size_t Sources = std::count_if(Inv.Inputs.begin(), Inv.Inputs.end(),
                                 [](const Input &In) { return In.isSource(); });
  if (Inv.S != Stage::Link && Inv.S != Stage::SyntaxOnly &&
      !Inv.Output.empty() && Sources > 1) {
    Error = "'-o " + Inv.Output + "' names one output but there are " +
            std::to_string(Sources) +
            " sources to compile; compile them one by one or drop -o";
    return false;
  }
  if (Inv.CudaFrontEnd) {
    if (Sources != 1 || Inv.Inputs.front().Language != Lang::CUDA) {
      Error = "nvcc -cuda takes one .cu source";
      return false;
    }
    return true;
  }
  if (Inv.S != Stage::Link && Sources == 0 && !Inv.Inputs.empty() &&
      !Inv.DeviceLink) {
    Error = "no source file to compile among the inputs (sources end in .cu, "
            ".cpp, .cc, .cxx or .c; use -x <language> for others)";
    return false;
  }
  return true;
}

} // namespace cxx
} // namespace orrery
