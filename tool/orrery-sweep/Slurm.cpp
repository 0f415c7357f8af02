//===- Slurm.cpp - orrery-sweep: a Slurm job array for a study ------------===//

#include "Slurm.h"
#include "Layout.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace orrery::sweep {

std::string shellQuote(const std::string &S) {
  if (!S.empty() &&
      S.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789_-.,/:=+@%") == std::string::npos)
    return S;
  std::string R = "'";
  for (char C : S)
    R += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return R + "'";
}

long slurmMemMiB(int Np) {
  long MiB = 1024 + 64L * std::max(1, Np);
  return (MiB + 1023) / 1024 * 1024;
}

std::string slurmScript(const Study &S, const std::string &Dir,
                        const std::string &OrreryRun) {
  int MaxNp = 0;
  for (const auto &P : S.Points)
    MaxNp = std::max(MaxNp, P.Np);
  std::size_t N = S.Points.size();
  std::ostringstream OS;
  OS << "#!/bin/bash\n"
     << "# Written by orrery-sweep --slurm: " << N
     << " points, one array task each.\n"
     << "# Submit:  sbatch " << shellQuote(Dir + "/sweep.sbatch") << "\n"
     << "# Then:    orrery-sweep status " << shellQuote(Dir)
     << "; orrery-sweep collect " << shellQuote(Dir) << "\n"
     << "#SBATCH --job-name=orrery-sweep\n"
     << "#SBATCH --array=0-" << (N ? N - 1 : 0);
  if (S.Slurm.Limit > 0)
    OS << "%" << S.Slurm.Limit;
  OS << "\n"
     << "#SBATCH --ntasks=1\n"
     << "#SBATCH --cpus-per-task=1\n";
  if (!S.Slurm.Mem.empty())
    OS << "#SBATCH --mem=" << S.Slurm.Mem << "\n";
  else
    OS << "#SBATCH --mem=" << slurmMemMiB(MaxNp) / 1024
       << "G\n"; // the largest point's
  OS << "#SBATCH --time=" << S.Slurm.Time << "\n"
     << "#SBATCH --output=" << Dir << "/slurm/%A_%a.out\n";
  if (!S.Slurm.Partition.empty())
    OS << "#SBATCH --partition=" << S.Slurm.Partition << "\n";
  if (!S.Slurm.Account.empty())
    OS << "#SBATCH --account=" << S.Slurm.Account << "\n";
  for (const auto &O : S.Slurm.Options)
    OS << "#SBATCH " << O << "\n";
  OS << "set -u\n"
     << "orrery_run=" << shellQuote(OrreryRun) << "\n"
     << "out=" << shellQuote(Dir) << "\n"
     << "case \"${SLURM_ARRAY_TASK_ID:?run this script with sbatch}\" in\n";
  for (const auto &P : S.Points) {
    OS << "  " << P.Index << ") point=" << shellQuote(P.Name) << "; set --";
    for (const auto &A : P.RunArgs)
      OS << " " << shellQuote(A);
    OS << " ;;\n";
  }
  OS << "  *) echo \"orrery-sweep: no point $SLURM_ARRAY_TASK_ID in this "
        "study\" >&2; exit 2 ;;\n"
     << "esac\n"
     << "d=\"$out/points/$point\"\n"
     << "if [ -f \"$d/report.json\" ]; then echo \"$point: done already\"; "
        "exit 0; fi\n"
     << "rm -f \"$d/report.json.part\" \"$d/exit-status\"\n"
     << "\"$orrery_run\" --report \"$d/report.json.part\" \"$@\" > "
        "\"$d/log.txt\" 2>&1\n"
     << "status=$?\n"
     << "if [ \"$status\" -eq 0 ] && [ -s \"$d/report.json.part\" ]; then\n"
     << "  mv \"$d/report.json.part\" \"$d/report.json\"\n"
     << "else\n"
     << "  [ \"$status\" -eq 0 ] && status=1\n"
     << "  [ -f \"$d/report.json.part\" ] && mv \"$d/report.json.part\" "
        "\"$d/report.incomplete.json\"\n"
     << "  echo \"$point failed (exit $status); log: $d/log.txt\" >&2\n"
     << "fi\n"
     << "echo \"$status\" > \"$d/exit-status\"\n"
     << "exit \"$status\"\n";
  return OS.str();
}

bool writeSlurm(const std::string &Dir, const Study &S,
                const std::string &OrreryRun, std::string &ScriptPath,
                std::string &Error) {
  std::error_code EC;
  fs::create_directories(Dir + "/slurm", EC);
  if (EC) {
    Error = "cannot create " + Dir + "/slurm (" + EC.message() +
            "); choose another -o DIR";
    return false;
  }
  if (!writeSweepJson(Dir, S, Error))
    return false;
  for (const auto &P : S.Points) {
    fs::create_directories(pointDir(Dir, P), EC);
    if (pointState(Dir, P) == State::Done)
      continue;
    if (!support::writeFileAtomically(pointDir(Dir, P) + "/point.json",
                                      pointJson(P).dump(2) + "\n", Error))
      return false;
  }
  ScriptPath = Dir + "/sweep.sbatch";
  if (!support::writeFileAtomically(ScriptPath, slurmScript(S, Dir, OrreryRun),
                                    Error))
    return false;
  fs::permissions(ScriptPath, fs::perms::owner_exec | fs::perms::group_exec,
                  fs::perm_options::add, EC);
  return true;
}

} // namespace orrery::sweep
