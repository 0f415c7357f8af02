//===- Main.cpp - orrery-sweep: scaling studies with orrery-run -----------===//
//
//   orrery-sweep STUDY.yaml -o DIR [--jobs N] [--slurm]
//   orrery-sweep status DIR
//   orrery-sweep collect DIR
//
// docs/sweeps.md describes the study file and the output directory.
//
//===----------------------------------------------------------------------===//

#include "Collect.h"
#include "Layout.h"
#include "Runner.h"
#include "Slurm.h"
#include "Study.h"
#include "SweepDir.h"
#include "orrery/support/ExecutableDir.h"

#include "llvm/Support/CommandLine.h"

#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace fs = std::filesystem;
namespace cl = llvm::cl;
using namespace orrery::sweep;

static cl::OptionCategory Category("orrery-sweep options");
static cl::SubCommand StatusCmd("status",
                                "Show which points of DIR are done, failed, "
                                "interrupted or pending");
static cl::SubCommand
    CollectCmd("collect",
               "Gather DIR's reports into DIR/results.csv (after a Slurm "
               "run, or on any directory of reports)");

static cl::opt<std::string> StudyFile(cl::Positional, cl::desc("<study.yaml>"),
                                      cl::cat(Category));
static cl::opt<std::string> OutDir("o", cl::desc("Output directory"),
                                   cl::value_desc("dir"), cl::cat(Category));
static cl::opt<unsigned>
    Jobs("jobs",
         cl::desc("Points simulated at once (default: the cores, fewer when "
                  "memory is short, judged from a first small point)"),
         cl::init(0), cl::cat(Category));
static cl::opt<bool>
    Slurm("slurm",
          cl::desc("Write DIR/sweep.sbatch, a Slurm job array, instead of "
                   "running"),
          cl::cat(Category));
static cl::opt<std::string> OrreryRunOpt(
    "orrery-run",
    cl::desc("The orrery-run to use (default: the one next to orrery-sweep)"),
    cl::value_desc("path"), cl::cat(Category),
    cl::sub(cl::SubCommand::getTopLevel()));
static cl::opt<std::string> StatusDir(cl::Positional, cl::desc("<dir>"),
                                      cl::Required, cl::sub(StatusCmd));
static cl::opt<std::string> CollectDir(cl::Positional, cl::desc("<dir>"),
                                       cl::Required, cl::sub(CollectCmd));

static std::string selfDir() {
  std::string Dir = orrery::support::executableDir();
  return Dir.empty() ? std::string(".") : Dir;
}

static std::string absDir(const std::string &D) {
  return fs::absolute(D).lexically_normal().string();
}

static int runStatus(const std::string &Dir) {
  Study S;
  std::string Error;
  if (!readSweepJson(Dir, S, Error)) {
    std::cerr << "orrery-sweep status: error: " << Error << "\n";
    return 2;
  }
  std::size_t Count[4] = {0, 0, 0, 0};
  for (const auto &P : S.Points) {
    State St = pointState(Dir, P);
    ++Count[static_cast<int>(St)];
    std::cout << "  " << stateName(St)
              << std::string(12 - std::string(stateName(St)).size(), ' ')
              << P.Name;
    if (St == State::Failed)
      std::cout << " (exit " << recordedStatus(Dir, P) << "; log "
                << pointDir(Dir, P) << "/log.txt)";
    if (St == State::Started)
      std::cout << " (running, or stopped before it ended; log "
                << pointDir(Dir, P) << "/log.txt)";
    std::cout << "\n";
  }
  std::cout << S.Points.size()
            << " points: " << Count[static_cast<int>(State::Done)] << " done, "
            << Count[static_cast<int>(State::Failed)] << " failed, "
            << Count[static_cast<int>(State::Started)]
            << " running or interrupted, "
            << Count[static_cast<int>(State::Pending)] << " pending\n";
  return Count[static_cast<int>(State::Done)] == S.Points.size() ? 0 : 1;
}

static int runCollect(const std::string &Dir) {
  if (!fs::is_directory(Dir)) {
    std::cerr << "orrery-sweep collect: error: " << Dir
              << " is not a directory; give the -o DIR of a sweep or a "
                 "directory of reports\n";
    return 2;
  }
  Study S;
  std::string Error;
  if (fs::exists(Dir + "/sweep.json") && !readSweepJson(Dir, S, Error)) {
    std::cerr << "orrery-sweep collect: error: " << Error << "\n";
    return 2;
  }
  // A sweep running there writes results.csv when it ends.
  SweepDirLock Lock;
  if (!lockSweepDir(Dir, Lock, Error)) {
    std::cerr << "orrery-sweep collect: error: " << Error << "\n";
    return 1;
  }
  CollectResult R;
  bool Ok = collect(Dir, S, R, Error);
  for (const auto &P : R.Problems)
    std::cerr << "orrery-sweep collect: warning: " << P << "\n";
  if (!Ok) {
    std::cerr << "orrery-sweep collect: error: " << Error << "\n";
    return 1;
  }
  std::cout << "orrery-sweep collect: " << R.Collected << " of " << R.Points
            << " points have reports; " << Dir << "/results.csv (" << R.Rows
            << " rows)\n";
  return R.Collected == R.Points ? 0 : 1;
}

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "orrery-sweep: scaling studies with orrery-run (docs/sweeps.md)\n\n"
      "  orrery-sweep STUDY.yaml -o DIR [--jobs N] [--slurm]\n"
      "  orrery-sweep status DIR\n"
      "  orrery-sweep collect DIR\n");
  if (StatusCmd)
    return runStatus(absDir(StatusDir));
  if (CollectCmd)
    return runCollect(absDir(CollectDir));

  if (StudyFile.empty() || OutDir.empty()) {
    std::cerr << "orrery-sweep: error: give a study file and an output "
                 "directory: orrery-sweep STUDY.yaml -o DIR (see --help)\n";
    return 2;
  }
  Study S;
  std::string Error;
  if (!loadStudy(StudyFile, S, Error)) {
    std::cerr << Error << "\n";
    return 2;
  }
  std::string Dir = absDir(OutDir);
  // Only a directory of ours is written to, and by one sweep at a time.
  SweepDirLock Lock;
  if (!claimSweepDir(Dir, StudyFile, Lock, Error)) {
    std::cerr << "orrery-sweep: error: " << Error << "\n";
    return 2;
  }
  std::string RunExe = OrreryRunOpt.empty() ? selfDir() + "/orrery-run"
                                            : OrreryRunOpt.getValue();
  RunExe = fs::absolute(RunExe).lexically_normal().string();
  if (::access(RunExe.c_str(), X_OK) != 0) {
    std::cerr << "orrery-sweep: error: " << RunExe
              << " is not an executable orrery-run; pass one with "
                 "--orrery-run PATH\n";
    return 2;
  }
  if (Slurm) {
    std::string Script;
    if (!writeSlurm(Dir, S, RunExe, Script, Error)) {
      std::cerr << "orrery-sweep: error: " << Error << "\n";
      return 1;
    }
    std::cout << "orrery-sweep: " << S.Points.size()
              << " points; submit the job array with\n  sbatch " << Script
              << "\nthen follow it with  orrery-sweep status " << Dir
              << "\nand gather the reports with  orrery-sweep collect " << Dir
              << "\n";
    return 0;
  }
  RunnerOptions O;
  O.OrreryRun = RunExe;
  O.Jobs = Jobs;
  O.Terminal = ::isatty(1);
  return runLocal(Dir, S, O, std::cout, std::cerr);
}
