//===- Main.cpp - orrery-run: simulate a program on a machine model -------===//
//
//   orrery-run -np N --machine FILE [options] ./app [args...]
//
// Places the ranks, writes the SimGrid platform and hostfile for the machine
// (models/ library, as orrery-platform does) into a private temporary
// directory, runs the program under smpirun with the settings of
// SmpiConfig.cpp and the environment the simulator runtime reads
// (ORRERY_MACHINE, ...), then prints the runtime's report. The exit status is
// the program's. See docs/orrery-run.md.
//
//===----------------------------------------------------------------------===//

#include "AppCheck.h"
#include "MapBudget.h"
#include "Placement.h"
#include "Process.h"
#include "ReportPrinter.h"
#include "RunOptions.h"
#include "SmpiConfig.h"
#include "TempDir.h"

#include "orrery/models/MachineFile.h"
#include "orrery/models/Platform.h"
#include "orrery/support/AtomicFile.h"
#include "orrery/support/ExecutableDir.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <sys/stat.h>

#ifndef ORRERY_RUN_SMPIRUN
#error "the build must define ORRERY_RUN_SMPIRUN (empty without SimGrid)"
#endif

using namespace orrery;
using namespace orrery::run;
namespace fs = std::filesystem;

namespace {

int usageError(const std::string &Msg) {
  std::cerr << "orrery-run: error: " << Msg
            << "\n(run 'orrery-run --help' for usage)\n";
  return 2;
}

int error(const std::string &Msg) {
  std::cerr << "orrery-run: error: " << Msg << "\n";
  return 1;
}

void warning(const std::string &Msg) {
  std::cerr << "orrery-run: warning: " << Msg << "\n";
}

std::string absolutePath(const std::string &P) {
  std::error_code EC;
  fs::path A = fs::absolute(P, EC);
  return EC ? P : A.lexically_normal().string();
}

/// An output file's directory must exist before the run writes it.
bool checkOutputDir(const char *Option, const std::string &Path) {
  if (Path.empty())
    return true;
  std::error_code DirEC;
  if (fs::is_directory(Path, DirEC)) {
    error(std::string(Option) + " " + Path +
          " is a directory; name a file in it (e.g. " + Path + "/report.json)");
    return false;
  }
  fs::path Dir = fs::path(absolutePath(Path)).parent_path();
  std::error_code EC;
  if (fs::is_directory(Dir, EC))
    return true;
  error(std::string(Option) + " " + Path + ": the directory " + Dir.string() +
        " does not exist");
  return false;
}

/// Refuses rank counts this machine's memory cannot hold: every simulated
/// rank costs at least MinBytesPerRank (its actor, SMPI's and Orrery's
/// state, its copy of the program; Jacobi measured 147 KiB per rank at
/// 4,096 GPUs, more for codes with large host arrays, docs/performance.md),
/// all in one process. Large counts get a note with the estimate.
bool checkRankMemory(int Ranks) {
  constexpr double MinBytesPerRank = 96.0 * 1024;
  double Need = Ranks * MinBytesPerRank;
  double Have = 0;
  std::ifstream Info("/proc/meminfo");
  std::string Key;
  double KiB = 0;
  while (Info >> Key >> KiB) {
    if (Key == "MemTotal:") {
      Have = KiB * 1024;
      break;
    }
    Info.ignore(1 << 10, '\n');
  }
  auto GiB = [](double B) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%.1f", B / (1ull << 30));
    return std::string(Buf);
  };
  if (Have > 0 && Need > Have) {
    error("-np " + std::to_string(Ranks) + " needs at least " + GiB(Need) +
          " GiB of memory (" + std::to_string(int(MinBytesPerRank / 1024)) +
          " KiB per simulated rank, all in one process); this machine has " +
          GiB(Have) + " GiB");
    return false;
  }
  if (Ranks > 16384)
    std::cerr << "orrery-run: note: " << Ranks << " ranks take at least "
              << GiB(Need) << " GiB of memory, and more with large arrays\n";
  return true;
}

/// Loads a machine or network file, printing its diagnostics.
bool loadModel(const std::string &Path, models::FileType Want,
               models::ParsedFile &F) {
  F = models::loadMachineFile(Path);
  for (const models::Diagnostic &D : F.Errors)
    std::cerr << D.str() << "\n";
  if (!F.ok())
    return false;
  if (F.Type != Want) {
    const char *Kind =
        Want == models::FileType::Machine ? "machine" : "network";
    std::cerr << Path << ": error: expected a " << Kind
              << " file (type: " << Kind << ")\n";
    return false;
  }
  return true;
}

int printExistingReport(const std::string &Path) {
  nlohmann::json J;
  std::string Error;
  if (!readReport(Path, J, Error))
    return error(Error);
  std::ostringstream Text;
  if (!printReport(J, Text, Error))
    return error(Path + ": " + Error);
  std::cout << Text.str();
  return 0;
}

std::string smpirunPath() {
  if (const char *Env = std::getenv("ORRERY_SMPIRUN"); Env && *Env)
    return Env;
  return ORRERY_RUN_SMPIRUN;
}

/// liborrery-simgrid-fixes, preloaded into the simulation (an installed
/// orrery-run finds it next to itself, one in the build tree where it was
/// built); empty when it is not there or ORRERY_SIMGRID_FIXES=0.
std::string simgridFixesPath() {
  if (const char *Env = std::getenv("ORRERY_SIMGRID_FIXES");
      Env && std::strcmp(Env, "0") == 0)
    return "";
  std::error_code EC;
  std::string Bin = support::executableDir();
  fs::path Installed =
      fs::path(Bin).parent_path() / "lib" / "liborrery-simgrid-fixes.so";
  if (!Bin.empty() && fs::exists(Installed, EC))
    return Installed.string();
  std::string Built = ORRERY_RUN_SIMGRID_FIXES;
  return !Built.empty() && fs::exists(Built, EC) ? Built : "";
}

/// The inherited value of the colon-separated list \p Variable, with
/// \p Item appended (unless empty).
std::string inheritedPlus(const char *Variable, const std::string &Item) {
  const char *User = std::getenv(Variable);
  std::string Value = User ? User : "";
  if (!Item.empty())
    Value += (Value.empty() ? "" : ":") + Item;
  return Value;
}

/// LD_PRELOAD for the simulation: the user's (a sanitizer runtime must stay
/// first), then the SimGrid fixes.
std::string preloadSetting() {
  return inheritedPlus("LD_PRELOAD", simgridFixesPath());
}

/// GLIBC_TUNABLES for the simulation: the user's, and unless they set it, a
/// per-thread cache of 1,024 freed chunks per size (glibc keeps 7). SimGrid
/// allocates and frees the same few objects for every activity, thousands
/// of actors in turn: with 7 cached most frees and mallocs took glibc's
/// slower bins (docs/performance.md, "Allocator settings").
std::string tunablesSetting() {
  const char *User = std::getenv("GLIBC_TUNABLES");
  bool UserSetsIt = User && std::strstr(User, "glibc.malloc.tcache_count=");
  return inheritedPlus("GLIBC_TUNABLES",
                       UserSetsIt ? "" : "glibc.malloc.tcache_count=1024");
}

std::string progressSetting(const RunOptions &O) {
  if (O.Progress) {
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), "%g", *O.Progress);
    return Buf;
  }
  if (const char *Env = std::getenv("ORRERY_PROGRESS"); Env && *Env)
    return Env;
  return "10";
}

/// smpirun re-splits program arguments on white space and takes --cfg= and
/// --log= ones for itself.
void warnAboutAppArgs(const std::vector<std::string> &Args) {
  for (const std::string &A : Args) {
    if (A.empty() || A.find_first_of(" \t\n*?[") != std::string::npos)
      warning("program argument '" + A +
              "' does not survive smpirun, which splits program arguments "
              "on white space and expands patterns");
    else if (A.rfind("--cfg=", 0) == 0 || A.rfind("--log=", 0) == 0)
      warning("program argument '" + A +
              "' is taken by smpirun as a SimGrid setting");
  }
}

struct Plan {
  models::ParsedFile Model;
  Placement Place;
  models::PlatformStats Stats;
  NetworkMode Network = NetworkMode::Smpi; ///< --network, resolved
  std::string ReportPath;
  /// A report at ReportPath before the run (device, inode): not this run's.
  std::optional<std::pair<dev_t, ino_t>> OldReport;
  Command Cmd;
};

/// Whether the run wrote its report (a file at ReportPath that is not the
/// one there before).
bool reportWritten(const Plan &P) {
  struct stat S;
  if (stat(P.ReportPath.c_str(), &S) != 0)
    return false;
  return !P.OldReport || *P.OldReport != std::make_pair(S.st_dev, S.st_ino);
}

/// Everything up to the command line: checks, placement, platform files.
bool preparePlan(const RunOptions &O, const ProgramInfo &Program,
                 const TempDir &Dir, Plan &P) {
  std::string Error;
  if (!loadModel(O.Machine, models::FileType::Machine, P.Model))
    return false;
  if (!O.NetworkFile.empty()) {
    models::ParsedFile Net;
    if (!loadModel(O.NetworkFile, models::FileType::Network, Net))
      return false;
    models::applyNetwork(P.Model.M, Net.M);
  }
  const models::Machine &M = P.Model.M;
  P.Network = resolveNetworkMode(O.Network, M.Network.Figures ==
                                                models::NetworkFigures::Mpi);
  if (!placeRanks(O.Ranks, M.gpusPerNode(), O.Nodes, O.RanksPerNode, P.Place,
                  Error)) {
    error(Error);
    return false;
  }

  std::string PlatformFile = Dir.file("platform.xml");
  std::string Hostfile = Dir.file("hostfile");
  models::PlatformOptions PO;
  PO.Nodes = P.Place.Nodes;
  PO.Origin = absolutePath(O.Machine);
  std::ofstream PlatformOut(PlatformFile);
  if (!models::writePlatform(PlatformOut, M, PO, Error, &P.Stats)) {
    error(Error.empty() ? "writing the platform failed" : Error);
    return false;
  }
  std::ofstream HostOut(Hostfile);
  models::writeHostfile(HostOut, P.Place.Nodes, P.Place.RanksPerNode,
                        models::railsPerNode(M));
  PlatformOut.close();
  HostOut.close();
  if (!PlatformOut || !HostOut) {
    error("cannot write the platform files in '" + Dir.path() + "'");
    return false;
  }

  P.ReportPath =
      O.Report.empty() ? Dir.file("report.json") : absolutePath(O.Report);
  std::string Trace = O.Trace.empty() ? "" : absolutePath(O.Trace);
  P.Cmd.Env = {
      {"ORRERY_MACHINE", absolutePath(O.Machine)},
      {"ORRERY_NETWORK_FILE",
       O.NetworkFile.empty() ? "" : absolutePath(O.NetworkFile)},
      {"ORRERY_NETWORK_MODE", networkModeName(P.Network)},
      {"ORRERY_RANKS_PER_NODE", std::to_string(P.Place.RanksPerNode)},
      {"ORRERY_REPORT", P.ReportPath},
      {"ORRERY_PROGRAM", absolutePath(O.App)},
      {"ORRERY_TRACE", Trace},
      {"ORRERY_PROGRESS", progressSetting(O)},
      {"ORRERY_SHARED_HOST_THRESHOLD", O.SharedHostThreshold},
      {"ORRERY_CLOCK_READ_GROWTH", O.ClockReadGrowth},
      {"ORRERY_GPU_BIND", O.GpuBind},
      {"ORRERY_DEVICE_VALUES", ""},
      {"ORRERY_REPLAY_READS", ""},
  };
  // Settings too long for the environment go in files of the run directory.
  auto SettingFile = [&](const char *Var, const char *Name,
                         const std::string &Text) {
    std::string File = Dir.file(Name);
    std::ofstream Out(File);
    Out << Text;
    Out.close();
    if (!Out) {
      error("cannot write '" + File + "'");
      return false;
    }
    for (auto &[Key, Value] : P.Cmd.Env)
      if (Key == Var)
        Value = File;
    return true;
  };
  if (!O.ReplayReads.empty() &&
      !SettingFile("ORRERY_REPLAY_READS", "replay-reads.json",
                   replayFilesJson(O.ReplayReads)))
    return false;
  if (!O.DeviceValues.empty() &&
      !SettingFile("ORRERY_DEVICE_VALUES", "device-values.json",
                   support::deviceValuesJson(O.DeviceValues)))
    return false;
  P.Cmd.Env.push_back({"LD_PRELOAD", preloadSetting()});
  P.Cmd.Env.push_back({"GLIBC_TUNABLES", tunablesSetting()});

  SmpiConfigInputs In;
  In.Ranks = O.Ranks;
  In.CollectiveSelector = M.Mpi.CollectiveSelector;
  In.Network = P.Network;
  In.HostCompute = O.HostCompute;
  In.RuntimeSetsFactors = Program.usesOrrerySim();
  In.CoreSpeed = M.Node.Cpu.CoreSpeed.Value;
  In.Extra = O.SmpiCfg;

  std::string Smpirun = smpirunPath();
  P.Cmd.Argv = {Smpirun.empty() ? "smpirun" : Smpirun,
                "-quiet",
                "-np",
                std::to_string(O.Ranks),
                "-platform",
                PlatformFile,
                "-hostfile",
                Hostfile};
  for (const std::string &S : smpiSettings(In))
    P.Cmd.Argv.push_back(S);
  // smpirun looks a bare name up as a library; make it a path.
  P.Cmd.Argv.push_back(O.App.find('/') == std::string::npos ? "./" + O.App
                                                            : O.App);
  P.Cmd.Argv.insert(P.Cmd.Argv.end(), O.AppArgs.begin(), O.AppArgs.end());
  return true;
}

void printPlan(const RunOptions &O, const Plan &P, std::ostream &OS) {
  const models::Machine &M = P.Model.M;
  OS << "# " << O.Ranks << (O.Ranks == 1 ? " rank" : " ranks") << " on "
     << P.Place.Nodes << (P.Place.Nodes == 1 ? " node" : " nodes") << " of "
     << M.Name << ", " << P.Place.RanksPerNode << " per node; "
     << networkModeName(P.Network) << " network ("
     << models::topologyName(M.Network.Topology.Kind) << ", " << P.Stats.Hosts
     << " hosts, " << P.Stats.Links << " links)\n";
  if (smpirunPath().empty())
    OS << "# smpirun was not found when Orrery was configured (install "
          "libsimgrid-dev and reconfigure, or set ORRERY_SMPIRUN)\n";
  printCommand(P.Cmd, OS);
}

/// Prints the runtime's report after a run; returns the exit status.
int reportAfterRun(const RunOptions &O, const Plan &P, int Status,
                   bool UsesOrrery) {
  if (!reportWritten(P)) {
    if (Status > 128)
      std::cerr << "orrery-run: error: the simulation of " << O.App
                << " was killed by signal " << Status - 128 << " ("
                << strsignal(Status - 128)
                << ") before it wrote its report; the messages above say "
                   "where\n";
    else if (Status != 0)
      std::cerr << "orrery-run: error: the simulation of " << O.App
                << " failed with exit status " << Status
                << " before it wrote its report; see the messages above\n";
    else if (UsesOrrery) {
      // An Orrery build that exits 0 without its report did not finish
      // its run: a rank called _exit, or the report could not be written.
      std::cerr << "orrery-run: error: the simulation of " << O.App
                << " ended without writing its report to " << P.ReportPath
                << " (a rank that exited without MPI_Finalize, or a report "
                   "the runtime could not write: see the messages above)\n";
      Status = 1;
    } else // a plain SMPI program runs too; only the report is missing
      std::cerr << "orrery-run: no report was written: was " << O.App
                << " built with orrery-cxx --orrery-mode=skeleton?\n";
    if (P.OldReport)
      std::cerr << "orrery-run: note: the report at " << P.ReportPath
                << " is an earlier run's; it was left as it was\n";
    return Status;
  }
  nlohmann::json J;
  std::string Error;
  std::ostringstream Text;
  if (!readReport(P.ReportPath, J, Error) || !printReport(J, Text, Error)) {
    if (Error.rfind(P.ReportPath, 0) != 0)
      Error = P.ReportPath + ": " + Error;
    error(Error);
    return Status != 0 ? Status : 1;
  }
  std::cout << "\n" << Text.str();
  // SimGrid's smpirun exits 0 after an MPI_Abort or a deadlock; the report
  // knows better.
  if (int Failed = reportExitStatus(J); Failed != 0) {
    std::cerr << "orrery-run: error: the run did not complete: "
              << J["failure"].value("reason", std::string("see the report"))
              << "\n";
    if (Status == 0)
      Status = Failed;
  }
  if (!O.Report.empty())
    std::cout << "\nReport:   " << P.ReportPath << "\n";
  if (!O.Trace.empty()) {
    std::string Trace = absolutePath(O.Trace);
    std::error_code EC;
    if (fs::exists(Trace, EC))
      std::cout << (O.Report.empty() ? "\n" : "") << "Timeline: " << Trace
                << " (open in https://ui.perfetto.dev)\n";
    else
      warning("no trace was written to '" + Trace + "'");
  }
  return Status;
}

} // namespace

int main(int argc, char **argv) {
  RunOptions O;
  std::string Error;
  if (!parseRunOptions(argc, argv, O, Error))
    return usageError(Error);
  if (O.Help) {
    std::cout << RunUsage;
    return 0;
  }
  if (!O.PrintReport.empty())
    return printExistingReport(O.PrintReport);
  if (O.Ranks == 0)
    return usageError("-np N is required");
  if (!checkRankMemory(O.Ranks))
    return 1;
  // A closed stdout (orrery-run ... | head -1) must not kill orrery-run
  // before it removes its temporary directory: writes fail instead.
  std::signal(SIGPIPE, SIG_IGN);
  if (O.Machine.empty())
    return usageError("--machine FILE is required");
  if (O.App.empty())
    return usageError("no program given; put it after the options, e.g. "
                      "orrery-run -np 4 --machine m.yaml ./app");
  ProgramInfo Program;
  if (!inspectProgram(O.App, Program, Error))
    return error(Error);
  if (auto Limit = mappingLimit()) {
    std::string W = mappingWarning(O.Ranks, Program.MappingsPerCopy, *Limit);
    if (!W.empty())
      warning(W);
  }
  if (!checkOutputDir("--report", O.Report) ||
      !checkOutputDir("--trace", O.Trace))
    return 1;
  // Never write over what this run reads, or over anything but a file.
  const std::vector<std::string> Inputs{O.Machine, O.NetworkFile, O.App};
  for (auto [Option, Path] :
       {std::pair<const char *, const std::string *>{"--report", &O.Report},
        {"--trace", &O.Trace}})
    if (!support::checkOutputPath(Option, *Path, Inputs, Error))
      return error(Error);
  warnAboutAppArgs(O.AppArgs);

  TempDir Dir;
  if (!Dir.create("orrery-run", Error))
    return error(Error);
  if (O.KeepTemps)
    Dir.keep();
  Plan P;
  if (!preparePlan(O, Program, Dir, P))
    return 1;
  if (O.DryRun) {
    printPlan(O, P, std::cout);
    if (O.KeepTemps)
      std::cerr << "orrery-run: kept " << Dir.path() << "\n";
    return 0;
  }
  if (smpirunPath().empty())
    return error("smpirun was not found when Orrery was configured; install "
                 "libsimgrid-dev and reconfigure, or set ORRERY_SMPIRUN");
  // A report left from an earlier run must not pass for this run's; it is
  // kept (the run may fail) and told apart by its identity: the runtime
  // replaces the file whole, so a new report is a new inode.
  struct stat Old;
  if (stat(P.ReportPath.c_str(), &Old) == 0)
    P.OldReport = {Old.st_dev, Old.st_ino};
  if (O.Verbose)
    printPlan(O, P, std::cerr);

  std::cout.flush();
  auto Start = std::chrono::steady_clock::now();
  int Status = runCommand(P.Cmd, Error);
  if (Status < 0)
    return error(Error);
  if (O.Verbose) {
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    std::fprintf(stderr,
                 "orrery-run: smpirun exited with status %d after %.2f s\n",
                 Status, Seconds);
  }
  Status = reportAfterRun(O, P, Status, Program.usesOrrerySim());
  if (!O.Plot.empty() && reportWritten(P)) {
    // orrery-plot (Python, matplotlib) sits next to orrery-run.
    std::string Plotter =
        (fs::path(support::executableDir()) / "orrery-plot").string();
    Command Plot{{Plotter, "--report", P.ReportPath, "-o", O.Plot}, {}};
    std::cout.flush();
    if (runCommand(Plot, Error) != 0)
      warning("no plot was drawn to '" + O.Plot + "' (" +
              (Error.empty() ? "orrery-plot failed, see above" : Error) + ")");
  }
  if (O.KeepTemps)
    std::cerr << "orrery-run: kept " << Dir.path() << "\n";
  return Status;
}
