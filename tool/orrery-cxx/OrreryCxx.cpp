//===- OrreryCxx.cpp - The orrery-cxx / orrery-cc build driver ------------===//
//
// orrery-cxx --orrery-mode=skeleton|twin|native [compiler flags] app.cu -o app
//
// Usable as CXX, CC (as orrery-cc) or CUDACXX: every source is instrumented
// by orrery-instrument into a private temporary directory, compiled there by
// clang 22 with the mode's flags, and the objects are linked as the mode needs.
// Outputs appear only when their command succeeded (temporary name, then
// rename). See docs/build-driver.md.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "NvccHostStub.h"
#include "Process.h"
#include "SignalCleanup.h"
#include "orrery/support/AtomicFile.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ORRERY_CXX_VERSION
#error "the build must define ORRERY_CXX_VERSION"
#endif

using namespace orrery::cxx;

namespace {

/// \p P made absolute against the working directory.
std::string absolute(const std::string &P) {
  if (!P.empty() && P[0] == '/')
    return P;
  char Buf[4096];
  if (!getcwd(Buf, sizeof Buf))
    return P;
  return std::string(Buf) + "/" + P;
}

/// The file name without directory and last extension.
std::string stem(const std::string &P) {
  std::string B = baseName(P);
  size_t Dot = B.rfind('.');
  return Dot == std::string::npos || Dot == 0 ? B : B.substr(0, Dot);
}

std::string replaceExtension(const std::string &P, const char *Ext) {
  size_t Slash = P.rfind('/');
  size_t Dot = P.rfind('.');
  if (Dot == std::string::npos || (Slash != std::string::npos && Dot < Slash))
    return P + Ext;
  return P.substr(0, Dot) + Ext;
}

void usage(FILE *To, const char *Tool) {
  std::fprintf(
      To,
      "usage: %s [--orrery-mode=skeleton|twin|native] [compiler flags] "
      "<inputs>...\n"
      "Instruments each source with orrery-instrument and compiles it with "
      "clang 22.\n"
      "  --orrery-mode=M       skeleton (default; simulated, no GPU), twin "
      "(simulated,\n"
      "                        real GPU) or native; also from ORRERY_MODE\n"
      "  --orrery-keep-temps   keep the instrumented sources (the directory "
      "is printed)\n"
      "  --orrery-quiet        no notes about dropped flags\n"
      "  --orrery-no-headers   instrument the sources only, not the "
      "project's headers\n"
      "                        (those in the source's and the -I "
      "directories)\n"
      "  --cuda-path=DIR       CUDA toolkit (default: CUDA_PATH, CUDA_HOME, "
      "/usr/local/cuda)\n"
      "  -v / -###             print the commands (and run / do not run "
      "them)\n"
      "Compiler flags are clang's or nvcc's (translated). See "
      "docs/build-driver.md.\n",
      Tool);
}

/// One build: the commands of every source, then the link.
class Build {
public:
  Build(const Invocation &Inv, const Toolchain &TC, const char *Tool)
      : Inv(Inv), TC(TC), Tool(Tool) {}
  ~Build() {
    if (TempDir.empty() || Inv.DryRun)
      return;
    clearRemoveOnSignal();
    if (Inv.KeepTemps)
      note("temporary files kept in " + TempDir);
    else
      removeTree(TempDir);
  }
  int run();

private:
  Invocation Inv; ///< a copy: inputs read from stdin get a file here
  const Toolchain &TC;
  const char *Tool;
  std::string TempDir;

  bool spoolStdin();

  void error(const std::string &Msg) const {
    std::fprintf(stderr, "%s: error: %s\n", Tool, Msg.c_str());
  }
  void note(const std::string &Msg) const {
    std::fprintf(stderr, "%s: note: %s\n", Tool, Msg.c_str());
  }
  /// Prints (with -v or -###) and runs (without -###) one command.
  /// With Stderr, the command's standard error is also captured there (and
  /// still shown) for hints.
  bool exec(const Command &C, std::string *Stderr = nullptr) const;
  void unknownFlagHint(const std::string &Stderr) const;
  bool buildSource(size_t Index, std::vector<std::string> &Objects);
  bool link(const std::vector<std::string> &Objects);
  bool deviceLink();
  void linkHints(const std::string &Stderr) const;
  bool commit(const std::string &Temp, const std::string &Final) const;
  /// Where a command writes Final's content before the rename. Outputs that
  /// are not regular files (/dev/null, a pipe) are written directly: a
  /// rename would replace the device with a file.
  std::string tempName(const std::string &Final) const {
    struct stat St;
    if (stat(Final.c_str(), &St) == 0 && !S_ISREG(St.st_mode))
      return Final;
    return Final + ".orrery-tmp-" + std::to_string(getpid());
  }
};

bool Build::exec(const Command &C, std::string *Stderr) const {
  if (Inv.Verbose || Inv.DryRun)
    std::fprintf(stderr, " %s\n", shellQuote(C).c_str());
  if (Inv.DryRun)
    return true;
  Command Run = C;
  std::string ErrFile;
  if (Stderr) {
    ErrFile = TempDir + "/stderr";
    // Captured diagnostics lose clang's terminal detection: keep colours.
    bool UserColor = false;
    for (const std::string &A : C)
      UserColor |= A.find("color-diagnostics") != std::string::npos;
    if (isatty(STDERR_FILENO) && !UserColor && C[0] != TC.Instrument)
      Run.insert(Run.begin() + 1, "-fcolor-diagnostics");
  }
  std::string Err;
  int RC = runCommand(Run, ErrFile, Err);
  if (Stderr) {
    readFile(ErrFile, *Stderr);
    std::fwrite(Stderr->data(), 1, Stderr->size(), stderr);
  }
  if (RC < 0) {
    error(Err);
    return false;
  }
  return RC == 0;
}

/// clang rejects flags it does not know; nvcc flags are the usual culprits.
void Build::unknownFlagHint(const std::string &Stderr) const {
  const char *Marker = "unknown argument: '";
  size_t P = Stderr.find(Marker);
  if (P == std::string::npos)
    return;
  P += std::strlen(Marker);
  std::string Flag = Stderr.substr(P, Stderr.find('\'', P) - P);
  note("clang does not know '" + Flag +
       "'; if it is an nvcc flag, orrery-cxx has no translation for it "
       "(docs/build-driver.md lists those it has): use the clang "
       "equivalent or drop it");
}

/// Moves a finished output into place; the final name never holds a partial
/// file.
bool Build::commit(const std::string &Temp, const std::string &Final) const {
  if (Inv.DryRun || Temp == Final)
    return true;
  // -M/-MM with -MF writes the dependencies only.
  if (Inv.DepsOnly && access(Temp.c_str(), F_OK) != 0)
    return true;
  // Standard output, /dev/null, a pipe: copy, never rename onto them.
  struct stat St;
  if (Final == "-" || (stat(Final.c_str(), &St) == 0 && !S_ISREG(St.st_mode))) {
    std::string Data;
    bool Ok = readFile(Temp, Data);
    if (Final == "-")
      Ok =
          Ok && std::fwrite(Data.data(), 1, Data.size(), stdout) == Data.size();
    else if (Ok)
      Ok = writeFile(Final, Data);
    std::remove(Temp.c_str());
    if (!Ok)
      error("cannot write '" + Final + "'");
    return Ok;
  }
  std::string Error;
  if (!orrery::support::replaceFile(Temp, Final, Error)) {
    error(Error);
    return false;
  }
  return true;
}

bool Build::buildSource(size_t Index, std::vector<std::string> &Objects) {
  const Input &In = Inv.Inputs[Index];
  std::string Sub = TempDir + "/" + std::to_string(Index);
  if (!Inv.DryRun && mkdir(Sub.c_str(), 0700) != 0) {
    error("cannot create " + Sub + ": " + std::strerror(errno));
    return false;
  }
  SourceFiles F;
  // Same file name as the original: linker messages and `-M` targets read
  // as they would without Orrery.
  F.Instrumented = Sub + "/" + (In.Path == "-" ? "stdin" : baseName(In.Path));
  F.HeaderDirs = projectHeaderDirs(Inv, TC, In);
  if (!F.HeaderDirs.empty()) {
    F.Tree = Sub + "/tree";
    // orrery-instrument writes each file below the tree at its real path.
    F.Instrumented = F.Tree + realPath(In.Path);
  }

  // Where the result goes, and the temporary name the compiler writes.
  std::string Final;
  switch (Inv.S) {
  case Stage::Link:
    F.Object = Sub + "/" + stem(In.Path) + ".o";
    Objects[Index] = F.Object;
    break;
  case Stage::Compile:
    Final = Inv.Output.empty() ? stem(In.Path) + ".o" : Inv.Output;
    break;
  case Stage::Assemble:
    Final = Inv.Output.empty() ? stem(In.Path) + ".s" : Inv.Output;
    break;
  case Stage::Preprocess:
    Final = Inv.Output.empty() ? "-" : Inv.Output;
    break;
  case Stage::SyntaxOnly:
    break;
  }
  if (!Final.empty())
    F.Object = Final == "-" ? Sub + "/stdout" : tempName(Final);

  // Dependency files name the instrumented copy; they are rewritten to name
  // the original, then moved where the user (or clang's default) put them.
  std::string DepFinal;
  if (Inv.DepKind == "-MD" || Inv.DepKind == "-MMD") {
    if (!Inv.DepFile.empty())
      DepFinal = Inv.DepFile;
    else if (Inv.S == Stage::Compile && !Inv.Output.empty())
      DepFinal = replaceExtension(Inv.Output, ".d");
    else
      DepFinal = stem(In.Path) + ".d";
    F.DepFile = Sub + "/deps.d";
    F.DepTarget = Final.empty() ? stem(In.Path) + ".o" : Final;
  } else if (Inv.DepsOnly && !Inv.DepFile.empty()) {
    DepFinal = Inv.DepFile;
    F.DepFile = Sub + "/deps.d";
  }

  if (In.isInstrumented()) {
    if (!exec(instrumentCommand(Inv, TC, In, F))) {
      error("orrery-instrument failed on '" + In.Path +
            "' (its messages are above); fix the source or the flags, or "
            "add --orrery-keep-temps -v to see the command");
      return false;
    }
    // No site: orrery-instrument copies the file unchanged (without a #line
    // directive). Compiling the original keeps diagnostics and debug info
    // naming it.
    // (With project headers, an unchanged source is still written with a
    // #line, and compiled from the tree that holds the rewritten headers.)
    std::string Orig, Copy;
    if (!Inv.DryRun && readFile(In.Path, Orig) &&
        readFile(F.Instrumented, Copy) && Orig == Copy)
      F.Instrumented = In.Path;
  } else {
    F.Instrumented = In.Path;
  }
  std::string Diagnostics;
  if (!exec(compileCommand(Inv, TC, In, F), &Diagnostics)) {
    unknownFlagHint(Diagnostics);
    if (!Inv.DryRun && F.Object != Final)
      std::remove(F.Object.c_str());
    error("compiling '" + In.Path + "' failed" +
          (In.Path != F.Instrumented
               ? " (the instrumented copy; diagnostics point "
                 "at the original's lines)"
               : "") +
          (!F.Tree.empty()
               ? "; if it builds without Orrery and the error is in one of "
                 "the project's headers, --orrery-no-headers instruments "
                 "the sources only"
               : ""));
    return false;
  }
  if (Inv.DryRun)
    return true;
  if (In.isInstrumented() && In.Path != F.Instrumented) {
    // Then rewritten headers: their mirror paths name the originals.
    if (!F.DepFile.empty()) {
      replaceInFile(F.DepFile, F.Instrumented, In.Path);
      if (!F.Tree.empty())
        replaceInFile(F.DepFile, F.Tree, "");
    }
    if (Inv.S == Stage::Preprocess) {
      replaceInFile(F.Object, F.Instrumented, In.Path);
      if (!F.Tree.empty())
        replaceInFile(F.Object, F.Tree, "");
    }
  }
  if (!F.DepFile.empty() && !commit(F.DepFile, DepFinal))
    return false;
  return Final.empty() || commit(F.Object, Final);
}

/// The undefined symbols the linker reported that explain themselves.
void Build::linkHints(const std::string &Stderr) const {
  std::set<std::string> Cuda, Hooks;
  for (const char *Marker :
       {"undefined reference to `", "undefined symbol: "}) {
    size_t Len = std::strlen(Marker);
    for (size_t P = Stderr.find(Marker); P != std::string::npos;
         P = Stderr.find(Marker, P + Len)) {
      size_t B = P + Len;
      size_t E = Stderr.find_first_of("'\n (", B);
      std::string Sym = Stderr.substr(B, E == std::string::npos ? E : E - B);
      if (Sym.rfind("orrery_", 0) == 0)
        Hooks.insert(Sym);
      else if (Sym.rfind("cu", 0) == 0 || Sym.rfind("__cuda", 0) == 0 ||
               Sym.rfind("nccl", 0) == 0)
        Cuda.insert(Sym);
    }
  }
  if (!Cuda.empty() && Inv.M == Mode::Skeleton) {
    std::string List;
    for (const std::string &S : Cuda)
      List += (List.empty() ? "" : ", ") + S;
    note("skeleton mode does not implement " + List +
         ": liborrery-sim simulates only the CUDA runtime calls Orrery "
         "models (docs/instrument.md lists them); remove these calls, "
         "guard them, or build with --orrery-mode=twin or native");
  } else if (!Cuda.empty()) {
    note("CUDA symbols are undefined: is the toolkit at '" + TC.CudaPath +
         "' the right one (--cuda-path, CUDA_PATH, CUDA_HOME)?");
  }
  if (!Hooks.empty())
    note("Orrery hooks are undefined (" + *Hooks.begin() +
         ", ...): the runtime library in " + TC.LibDir +
         " is older than orrery-instrument; rebuild Orrery");
}

bool Build::link(const std::vector<std::string> &Objects) {
  std::string Final = Inv.Output.empty() ? "a.out" : Inv.Output;
  std::string Temp = tempName(Final);
  std::string Lib =
      Inv.M == Mode::Native ? "liborrery-native.so" : "liborrery-sim.so";
  if (!Inv.DryRun && access((TC.LibDir + "/" + Lib).c_str(), R_OK) != 0) {
    error(std::string(modeName(Inv.M)) + " programs link against " + TC.LibDir +
          "/" + Lib + ", which does not exist; build Orrery's " +
          (Inv.M == Mode::Native ? "orrery_native" : "orrery_sim") +
          " target first");
    return false;
  }
  std::string Err;
  bool Ok = exec(linkCommand(Inv, TC, Objects, Temp), &Err);
  if (Inv.DryRun)
    return true;
  if (!Ok) {
    unknownFlagHint(Err);
    if (Temp != Final)
      std::remove(Temp.c_str());
    linkHints(Err);
    error("linking '" + Final + "' failed");
    return false;
  }
  return commit(Temp, Final);
}

/// nvcc -dlink: clang embeds device code at the final link (or there is none,
/// in skeleton mode), so the device-link object is empty.
bool Build::deviceLink() {
  if (Inv.Output.empty()) {
    error("nvcc's -dlink needs -o <object>");
    return false;
  }
  note("'-dlink' writes an empty object: device code is linked in the final "
       "link");
  std::string Temp = tempName(Inv.Output);
  return exec(emptyObjectCommand(Inv, TC, Temp)) && commit(Temp, Inv.Output);
}

int Build::run() {
  if (Inv.DryRun) {
    const char *Tmp = std::getenv("TMPDIR");
    TempDir = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/orrery-cxx-XXXXXX";
  } else {
    std::string Err;
    if (!makeTempDir("orrery-cxx", TempDir, Err)) {
      error(Err);
      return 1;
    }
    if (!Inv.KeepTemps)
      removeOnSignal(TempDir);
  }
  if (Inv.Verbose)
    note(std::string("mode ") + modeName(Inv.M) + ", temporary directory " +
         TempDir);
  if (!spoolStdin())
    return 1;
  if (Inv.DeviceLink)
    return deviceLink() ? 0 : 1;
  if (Inv.CudaFrontEnd) {
    // nvcc -cuda k.cu [-o out]: nvcc names the output k.cu.cpp.ii.
    const Input &In = Inv.Inputs.front();
    std::string Out =
        Inv.Output.empty() ? baseName(In.Path) + ".cpp.ii" : Inv.Output;
    std::string Err;
    if (!writeNvccHostStub(absolute(In.Path), Out, Err)) {
      error(Err);
      return 1;
    }
    return 0;
  }
  std::vector<std::string> Objects(Inv.Inputs.size());
  for (size_t I = 0; I < Inv.Inputs.size(); ++I)
    if (Inv.Inputs[I].isSource() && !buildSource(I, Objects))
      return 1;
  if (Inv.S == Stage::Link && !link(Objects))
    return 1;
  return 0;
}

/// A CUDA, C++ or C source read from standard input (`-x cuda -`) is kept
/// in a file of the temporary directory and built like any other:
/// instrumented, and in skeleton mode compiled for the host only (as it is,
/// its device code would need ptxas and a GPU architecture). Probes that
/// only preprocess or check syntax (build systems' `-x c++ -E -`) read it
/// as it is.
bool Build::spoolStdin() {
  if (Inv.DryRun || Inv.S == Stage::Preprocess || Inv.S == Stage::SyntaxOnly)
    return true;
  for (Input &In : Inv.Inputs) {
    if (In.Path != "-" || In.Language != Lang::Other ||
        languageOfX(In.XLang) == Lang::Other)
      continue;
    std::string Text;
    char Buf[65536];
    ssize_t N;
    while ((N = read(0, Buf, sizeof Buf)) > 0 || (N < 0 && errno == EINTR))
      if (N > 0)
        Text.append(Buf, static_cast<size_t>(N));
    if (N < 0) {
      error(std::string("cannot read the source on standard input: ") +
            std::strerror(errno));
      return false;
    }
    std::string Ext = In.XLang == "cuda" ? ".cu"
                      : In.XLang == "c"  ? ".c"
                                         : ".cpp";
    std::string Path = TempDir + "/stdin" + Ext, Err;
    if (!orrery::support::writeFileAtomically(Path, Text, Err)) {
      error(Err);
      return false;
    }
    In.Path = Path;
    // clang looks for the quoted includes of standard input in the current
    // directory; the file's own directory is the temporary one.
    char Cwd[4096];
    if (getcwd(Cwd, sizeof Cwd))
      Inv.Items.insert(Inv.Items.begin(),
                       Item{Use::Preprocess, {"-iquote", Cwd}, -1});
    In.Language = languageOfX(In.XLang);
  }
  return true;
}

/// Runs clang with the command line as given (version and other queries
/// build systems make); 0 or 1.
int runClangRaw(const Invocation &Inv, const char *Argv0, bool CMode,
                const char *Tool) {
  Toolchain TC;
  std::string Err;
  findToolchain(Inv, Argv0, TC, Err);
  Command C{CMode ? TC.Clang : TC.ClangXX};
  C.insert(C.end(), Inv.Raw.begin(), Inv.Raw.end());
  std::string RunErr;
  int RC = runCommand(C, "", RunErr);
  if (RC < 0)
    std::fprintf(stderr, "%s: error: %s\n", Tool, RunErr.c_str());
  return RC == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string Name = baseName(argv[0]);
  // orrery-cc, or any name ending in -cc (a versioned or renamed link).
  bool CMode =
      Name == "orrery-cc" ||
      (Name.size() > 3 && Name.compare(Name.size() - 3, 3, "-cc") == 0);
  const char *Tool = CMode ? "orrery-cc" : "orrery-cxx";

  Invocation Inv;
  std::string Err;
  std::vector<std::string> Args(argv + 1, argv + argc);
  if (!parseArguments(Args, CMode, std::getenv("ORRERY_MODE"), Inv, Err)) {
    std::fprintf(stderr, "%s: error: %s\n", Tool, Err.c_str());
    return 1;
  }
  if (Inv.PrintHelp) {
    usage(stdout, Tool);
    return 0;
  }
  if (!Inv.Quiet)
    for (const std::string &N : Inv.Notes)
      std::fprintf(stderr, "%s: note: %s\n", Tool, N.c_str());

  Toolchain TC;
  if (Inv.PrintVersion || (Inv.Inputs.empty() && Inv.Verbose)) {
    // Build systems probe compilers this way; answer for both.
    std::printf("%s (Orrery %s), mode %s, compiling with:\n", Tool,
                ORRERY_CXX_VERSION, modeName(Inv.M));
    std::fflush(stdout);
    return runClangRaw(Inv, argv[0], CMode, Tool);
  }
  bool Query = false; // libtool asks -print-search-dirs and the like
  for (const std::string &A : Inv.Raw)
    Query |= A.rfind("-print-", 0) == 0 || A.rfind("-dump", 0) == 0;
  if (Inv.Inputs.empty() && Query)
    return runClangRaw(Inv, argv[0], CMode, Tool);
  if (Inv.Inputs.empty()) {
    std::fprintf(stderr, "%s: error: no input files\n", Tool);
    usage(stderr, Tool);
    return 1;
  }
  for (const Input &In : Inv.Inputs)
    if (In.Path != "-" && access(In.Path.c_str(), F_OK) != 0) {
      std::fprintf(stderr, "%s: error: no such file: '%s'\n", Tool,
                   In.Path.c_str());
      return 1;
    }
  if (!findToolchain(Inv, argv[0], TC, Err)) {
    std::fprintf(stderr, "%s: error: %s\n", Tool, Err.c_str());
    return 1;
  }
  return Build(Inv, TC, Tool).run();
}
