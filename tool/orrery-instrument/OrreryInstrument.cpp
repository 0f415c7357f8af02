//===- OrreryInstrument.cpp - The orrery-instrument command ---------------===//
//
// orrery-instrument [options] <source>... [-- <compiler flags>]
//
// Rewrites every CUDA runtime call, kernel launch and MPI call of the given
// sources into a site hook of the Orrery hook ABI (abi/include/orrery/
// hooks.h). See docs/instrument.md.
//
//===----------------------------------------------------------------------===//

#include "AssumedFlags.h"
#include "DeviceSide.h"
#include "InputFiles.h"
#include "OutputFiles.h"
#include "orrery/models/MachineFile.h"
#include "orrery/passes/ApiListing.h"
#include "orrery/passes/CompilerFlags.h"
#include "orrery/passes/DeviceResources.h"
#include "orrery/passes/Instrumenter.h"
#include "orrery/passes/KernelReport.h"
#include "orrery/passes/Manifest.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>

using namespace llvm;
using namespace orrery;

static cl::OptionCategory Category("orrery-instrument options");

static cl::opt<std::string>
    OutputFile("o",
               cl::desc("Write the instrumented source to <file> (one input)"),
               cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> OutDir(
    "out-dir",
    cl::desc("Write instrumented files below <dir>, mirroring their paths "
             "relative to --source-root"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("Root that --out-dir mirrors (default: the current directory)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> InPlace("in-place",
                             cl::desc("Overwrite the inputs (and headers)"),
                             cl::cat(Category));
static cl::opt<std::string>
    ManifestFile("manifest", cl::desc("Write a JSON record of every site"),
                 cl::value_desc("file.json"), cl::cat(Category));
static cl::list<std::string> HeaderDirs(
    "headers",
    cl::desc("Also rewrite calls in project headers below <dir> (repeatable)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> MirrorHeaders(
    "mirror-headers",
    cl::desc("With --out-dir and --headers: also write the project headers "
             "and the source that had nothing to rewrite (unchanged, after a "
             "#line naming the original), so every project file the "
             "translation unit reads is found below the out dir"),
    cl::cat(Category));
static cl::opt<std::string> ResourceDirOpt(
    "resource-dir",
    cl::desc("Clang resource directory (default: the one of clang 22 found at "
             "build time)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> CudaPathOpt(
    "cuda-path",
    cl::desc("CUDA toolkit whose headers are parsed (default: " ORRERY_CUDA_PATH
             " if present)"),
    cl::value_desc("dir"), cl::cat(Category));
enum class ReportFormat { None, Text, Json };
static cl::opt<ReportFormat> Report(
    "report",
    cl::desc("Print the kernel cost hints (no instrumented output "
             "unless -o, --out-dir or --in-place is given)"),
    cl::ValueOptional, cl::init(ReportFormat::None),
    cl::values(clEnumValN(ReportFormat::Text, "text", "readable (default)"),
               clEnumValN(ReportFormat::Text, "", ""),
               clEnumValN(ReportFormat::Json, "json", "JSON")),
    cl::cat(Category));
static cl::list<std::string>
    Launches("launch",
             cl::desc("With --report: evaluate a launch, 'KERNEL grid=X[,Y,Z] "
                      "block=X[,Y,Z] [shmem=B] NAME=VALUE...' (repeatable)"),
             cl::value_desc("spec"), cl::cat(Category));
static cl::opt<std::string> MachineFile(
    "machine",
    cl::desc("With --report: a machine file (models/machines/*.yaml); each "
             "--launch gets its roofline bound and predicted time"),
    cl::value_desc("file.yaml"), cl::cat(Category));
static cl::opt<bool> NoPtxas(
    "no-ptxas",
    cl::desc("Do not compile the device code and run ptxas -v for registers "
             "per thread (--report), nor read its cache (instrumenting): "
             "occupancy then assumes 32"),
    cl::cat(Category));
static cl::opt<std::string> PtxasCacheDir(
    "ptxas-cache-dir",
    cl::desc("Where ptxas outputs are cached; --report fills it, "
             "instrumenting reads it (default: "
             "$XDG_CACHE_HOME/orrery/ptxas or ~/.cache/orrery/ptxas)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> OverridesFile(
    "kernel-overrides",
    cl::desc("YAML side file of per-kernel loop trips, branch probabilities "
             "and measured durations (docs/kernel-cost.md)"),
    cl::value_desc("file.yaml"), cl::cat(Category));
static cl::opt<ApiListFormat> ListApis(
    "list-apis",
    cl::desc("Print the CUDA, MPI and RAMC calls the tool rewrites, with "
             "their hook arguments and what skeleton mode does (no input "
             "files)"),
    cl::ValueOptional, cl::init(ApiListFormat::Markdown),
    cl::values(clEnumValN(ApiListFormat::Markdown, "md", "Markdown (default)"),
               clEnumValN(ApiListFormat::Json, "json", "JSON")),
    cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Do not print the summary line"),
                           cl::cat(Category));
static cl::opt<bool> NvccMacros(
    "nvcc-macros",
    cl::desc("Rename __NVCC__ and __CUDACC_VER_MAJOR__/MINOR__/BUILD__ in "
             "the sources and --headers files (code and directives, not "
             "comments or strings) to __ORRERY_NVCC__ and the like (define "
             "those to take code's nvcc branches; orrery-cxx does)"),
    cl::cat(Category));

static int fail(const Twine &Msg) {
  WithColor::error(errs(), "orrery-instrument") << Msg << "\n";
  return 1;
}

static std::string absolute(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  SmallString<256> Real;
  if (!sys::fs::real_path(P, Real))
    return std::string(Real);
  return std::string(P);
}

namespace {
/// Compile commands after nvcc translation and Orrery's parse flags.
class AdjustedDatabase : public clang::tooling::CompilationDatabase {
public:
  std::map<std::string, std::vector<clang::tooling::CompileCommand>> Commands;

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(StringRef File) const override {
    auto It = Commands.find(absolute(File));
    return It == Commands.end() ? std::vector<clang::tooling::CompileCommand>()
                                : It->second;
  }
};
} // namespace

/// Fills DB with the adjusted commands of every source; false on a flag error.
static bool adjustCommands(const clang::tooling::CompilationDatabase &In,
                           const std::vector<std::string> &Sources,
                           const ParseSettings &Settings, StringRef DbFile,
                           AdjustedDatabase &Out) {
  bool Ok = true;
  for (const std::string &Src : Sources) {
    std::vector<clang::tooling::CompileCommand> Cmds =
        In.getCompileCommands(Src);
    if (Cmds.empty()) {
      fail(formatv("{0}: no compile command in the compilation database; add "
                   "the file to compile_commands.json or give flags after '--'",
                   Src));
      Ok = false;
      continue;
    }
    for (clang::tooling::CompileCommand &Cmd : Cmds) {
      // ClangTool would abort ("LLVM ERROR: Cannot chdir") on a directory
      // that is gone, typically a moved or deleted build tree.
      if (!sys::fs::is_directory(Cmd.Directory)) {
        fail(formatv("{0}: the entry for {1} has \"directory\": \"{2}\", "
                     "which does not exist; regenerate the database (re-run "
                     "cmake) or fix the entry",
                     DbFile, Cmd.Filename, Cmd.Directory));
        Ok = false;
        continue;
      }
      if (isNvccCommand(Cmd.CommandLine)) {
        Expected<std::vector<std::string>> T =
            translateNvccCommand(Cmd.CommandLine);
        if (!T) {
          fail(formatv("{0}: {1}", Src, toString(T.takeError())));
          Ok = false;
          continue;
        }
        Cmd.CommandLine = std::move(*T);
      }
      Cmd.CommandLine =
          addParseFlags(std::move(Cmd.CommandLine), Src, Settings);
      if (Error E = checkClangKnowsFlags(Cmd.CommandLine)) {
        fail(formatv("{0}: {1}", Src, toString(std::move(E))));
        Ok = false;
        continue;
      }
      Out.Commands[absolute(Src)].push_back(std::move(Cmd));
    }
  }
  return Ok;
}

/// Where the instrumented version of File goes ("-" for stdout).
static Expected<std::string> outputPathFor(StringRef File) {
  if (InPlace)
    return File.str();
  if (!OutputFile.empty())
    return OutputFile.getValue();
  if (OutDir.empty())
    return std::string("-");
  std::string Root = absolute(SourceRoot.empty() ? "." : SourceRoot.getValue());
  StringRef Rel = File;
  // A root of "/" (orrery-cxx mirrors every file below its out dir) ends
  // with the separator the other roots are followed by.
  if (!Rel.consume_front(Root) ||
      (!StringRef(Root).ends_with("/") && !Rel.consume_front("/")))
    return createStringError(
        inconvertibleErrorCode(),
        formatv("{0} is not below the source root {1}; pass --source-root",
                File, Root));
  SmallString<256> Out(OutDir.getValue());
  sys::path::append(Out, Rel);
  return std::string(Out);
}

/// The build directory given with -p, if any (before a `--`).
static std::optional<std::string> buildPathArg(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < argc)
      return std::string(argv[I + 1]);
    if (A.consume_front("-p=") || A.consume_front("--p="))
      return A.str();
  }
  return std::nullopt;
}

static bool hasFlagSeparator(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I)
    if (StringRef(argv[I]) == "--")
      return true;
  return false;
}

/// --help and --version (before a `--`) need no compile flags.
/// True if the command line (before `--`) asks for --list-apis, which takes
/// no input files and no compile flags.
static bool asksForApiList(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--")
      break;
    A.consume_front("-");
    A.consume_front("-");
    if (A == "list-apis" || A.starts_with("list-apis="))
      return true;
  }
  return false;
}

static bool asksForHelp(int argc, const char **argv) {
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--")
      break;
    if (A == "-h" || A == "-help" || A == "--help" || A == "--help-hidden" ||
        A == "-help-hidden" || A == "--help-list" || A == "--version" ||
        A == "-version")
      return true;
  }
  return false;
}

/// The compile_commands.json that -p Dir reads: Dir's or a parent's, as
/// clang's autodetection finds it.
static std::string databaseFile(StringRef Dir) {
  std::string F = compileDatabaseAbove(Dir);
  return F.empty() ? std::string("compile_commands.json") : F;
}

int main(int argc, const char **argv) {
  cl::HideUnrelatedOptions(Category);
  if (asksForApiList(argc, argv)) {
    if (!cl::ParseCommandLineOptions(argc, argv, "", &errs()))
      return 1;
    printApiTables(outs(), ListApis);
    return 0;
  }
  // A -p directory must hold a compile database (clang's tools would parse
  // "without flags" instead: for CUDA, another configuration).
  std::optional<std::string> BuildPath = buildPathArg(argc, argv);
  if (BuildPath) {
    std::string Err;
    if (!clang::tooling::CompilationDatabase::autoDetectFromDirectory(
            *BuildPath, Err))
      return fail(formatv("-p {0}: no compile_commands.json found ({1}); "
                          "configure the project with "
                          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON or give flags "
                          "after '--'",
                          *BuildPath, Err));
  }
  // `orrery-instrument app.cu`: a compile database above the file, else the
  // flags such a file needs, said in a note.
  BareInvocation Bare;
  std::vector<const char *> Args(argv, argv + argc);
  if (!BuildPath && !hasFlagSeparator(argc, argv) && !asksForHelp(argc, argv)) {
    Bare = bareInvocation(argc, argv);
    Args.clear();
    for (const std::string &A : Bare.Args)
      Args.push_back(A.c_str());
    if (!Bare.DatabaseDir.empty())
      BuildPath = Bare.DatabaseDir;
    if (!Bare.Note.empty())
      WithColor::note(errs(), "orrery-instrument") << Bare.Note << "\n";
  }
  int ArgCount = static_cast<int>(Args.size());
  auto Parser = clang::tooling::CommonOptionsParser::create(
      ArgCount, Args.data(), Category, cl::OneOrMore,
      "Rewrites CUDA runtime calls, kernel launches and MPI calls into Orrery "
      "site hooks.\n");
  if (!Parser) {
    errs() << toString(Parser.takeError());
    return 1;
  }
  std::vector<std::string> Sources;
  for (const std::string &S : Parser->getSourcePathList())
    if (!is_contained(Sources, absolute(S)))
      Sources.push_back(absolute(S));

  // Output options must name exactly one destination per file.
  if (InPlace && (!OutputFile.empty() || !OutDir.empty()))
    return fail("--in-place cannot be combined with -o or --out-dir");
  if (!OutputFile.empty() && !OutDir.empty())
    return fail("-o and --out-dir are exclusive; use -o for one input, "
                "--out-dir for several");
  if (!OutputFile.empty() && Sources.size() > 1)
    return fail("-o takes one input; use --out-dir for several");
  if (Sources.size() > 1 && OutDir.empty() && !InPlace)
    return fail("several inputs need --out-dir <dir> or --in-place");
  if (!HeaderDirs.empty() && OutDir.empty() && !InPlace)
    return fail("--headers needs --out-dir <dir> or --in-place");
  if (MirrorHeaders && (OutDir.empty() || HeaderDirs.empty()))
    return fail("--mirror-headers needs --out-dir <dir> and --headers <dir>");

  ParseSettings Settings;
  Expected<std::string> Res = findResourceDir(ResourceDirOpt);
  if (!Res)
    return fail(toString(Res.takeError()));
  Settings.ResourceDir = *Res;
  Settings.CudaPath = CudaPathOpt;
  if (Settings.CudaPath.empty() &&
      sys::fs::exists(ORRERY_CUDA_PATH "/include/cuda_runtime.h"))
    Settings.CudaPath = ORRERY_CUDA_PATH;

  AdjustedDatabase DB;
  std::string DbFile = BuildPath ? databaseFile(*BuildPath)
                                 : std::string("the flags after '--'");
  if (!adjustCommands(Parser->getCompilations(), Sources, Settings, DbFile, DB))
    return 1;

  // Each input is read once, here; clang parses this text.
  std::vector<std::string> Texts;
  for (const std::string &Src : Sources) {
    // ClangTool turns every '\' of a path into '/' (path::native).
    if (StringRef(Src).contains('\\'))
      return fail(formatv("{0}: clang's tooling reads the backslash in this "
                          "path as '/'; rename the file or its directory",
                          Instrumenter::displayPath(Src)));
    Expected<std::string> Text = readInput(Instrumenter::displayPath(Src));
    if (!Text)
      return fail(toString(Text.takeError()));
    Texts.push_back(std::move(*Text));
  }

  InstrumentOptions Opts;
  Opts.MirrorUnchanged = MirrorHeaders;
  Opts.NvccMacros = NvccMacros;
  for (const std::string &D : HeaderDirs) {
    if (!sys::fs::is_directory(D))
      return fail(formatv("--headers {0}: not a directory", D));
    Opts.HeaderDirs.push_back(absolute(D));
  }
  if (!OverridesFile.empty()) {
    std::string Err;
    if (!loadKernelOverrides(OverridesFile, Opts.Overrides, Err))
      return fail(Err);
  }
  std::optional<models::ParsedFile> Machine;
  if (!MachineFile.empty()) {
    if (Report == ReportFormat::None)
      return fail("--machine needs --report");
    Machine = models::loadMachineFile(MachineFile);
    if (!Machine->ok()) {
      for (const models::Diagnostic &D : Machine->Errors)
        errs() << D.str() << "\n";
      return fail(formatv("--machine {0}: invalid machine file (see above; "
                          "`orrery-model check {0}` explains each error)",
                          MachineFile));
    }
    if (Machine->Type != models::FileType::Machine)
      return fail(formatv("--machine {0}: a network file; give a machine "
                          "file (models/machines/*.yaml)",
                          MachineFile));
  }
  // ptxas's registers reach the generated hints, so the device side runs
  // before the parse: --report compiles where the cache has nothing;
  // instrumenting reads the cache only.
  DeviceSide Device;
  if (!NoPtxas) {
    DeviceSideOptions D;
    D.MachineArch = Machine ? Machine->M.Gpu.Arch : "";
    D.CudaPath = Settings.CudaPath;
    D.CacheDir = PtxasCacheDir.empty() ? defaultPtxasCacheDir() : PtxasCacheDir;
    D.CompileOnMiss = Report != ReportFormat::None;
    D.AnyFile = !HeaderDirs.empty();
    D.Verbose = !Quiet && Report != ReportFormat::None;
    Device = deviceSideResources(DB, Sources, Texts, D);
    Opts.KernelResources = Device.BySymbol;
  }
  Instrumenter Tool(Opts);
  if (!Tool.run(DB, Sources, Texts))
    return fail("no output written because of the errors above");

  std::vector<LaunchSpec> Specs;
  for (const std::string &L : Launches) {
    LaunchSpec Spec;
    std::string Err = parseLaunchSpec(L, Spec);
    if (!Err.empty())
      return fail(Err);
    Specs.push_back(std::move(Spec));
  }
  if (!Specs.empty() && Report == ReportFormat::None)
    return fail("--launch needs --report");
  if (Report != ReportFormat::None) {
    const models::Machine *M = Machine ? &Machine->M : nullptr;
    std::vector<KernelInfo> Kernels = Tool.kernels();
    std::string DeviceNote =
        NoPtxas ? std::string("--no-ptxas") : deviceNote(Kernels, Device);
    if (Kernels.empty())
      DeviceNote.clear();
    outs() << (Report == ReportFormat::Json
                   ? reportJson(Kernels, Specs, M, DeviceNote)
                   : reportText(Kernels, Specs, M, DeviceNote));
    if (OutputFile.empty() && OutDir.empty() && !InPlace)
      return 0;
  }

  // Decide and check every destination before writing anything; then all
  // files are committed together, and standard output comes last.
  std::vector<PlannedOutput> Writes;
  const std::string *ToStdout = nullptr;
  for (const FileOutput &Out : Tool.outputs()) {
    Expected<std::string> Path = outputPathFor(Out.File);
    if (!Path)
      return fail(toString(Path.takeError()));
    if (*Path == "-") {
      ToStdout = &Out.Text;
      continue;
    }
    PlannedOutput P;
    P.Option = InPlace               ? "--in-place"
               : !OutputFile.empty() ? "-o"
                                     : "--out-dir";
    P.Path = *Path;
    P.Text = &Out.Text;
    if (InPlace)
      P.Replaces = Out.File;
    Writes.push_back(std::move(P));
  }
  std::string Manifest;
  if (!ManifestFile.empty()) {
    Manifest = manifestJson(Tool.sites());
    Writes.push_back({"--manifest", ManifestFile, &Manifest, ""});
  }
  std::set<std::string> Inputs(Sources.begin(), Sources.end());
  if (Error E = commitOutputs(Writes, Inputs, Tool.filesRead()))
    return fail(toString(std::move(E)));
  if (ToStdout) {
    outs() << *ToStdout;
    outs().flush();
  }

  if (!Quiet) {
    unsigned Done = 0, Skipped = 0;
    for (const Site &S : Tool.sites())
      (S.Instrumented ? Done : Skipped)++;
    unsigned Mirrored = count_if(
        Tool.outputs(), [](const FileOutput &O) { return O.Unchanged; });
    errs() << formatv("orrery-instrument: {0} site(s) instrumented, {1} "
                      "skipped in {2} file(s)",
                      Done, Skipped, Tool.outputs().size() - Mirrored);
    if (Mirrored)
      errs() << formatv(" ({0} more mirrored unchanged)", Mirrored);
    if (Tool.callsInOtherHeaders())
      errs() << formatv("; {0} call(s) in project headers left alone (pass "
                        "--headers <dir> to rewrite them)",
                        Tool.callsInOtherHeaders());
    errs() << "\n";
  }
  return 0;
}
