//===- Study.h - orrery-sweep: a study file and its points ------*- C++ -*-===//
//
// A study names a program, its arguments and the settings to vary; expanded,
// it is a list of points, each one orrery-run command (docs/sweeps.md).
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_SWEEP_STUDY_H
#define ORRERY_TOOL_SWEEP_STUDY_H

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace orrery::sweep {

/// One simulation: the value of every setting and the command that runs it.
struct Point {
  std::size_t Index = 0;
  /// Directory name under DIR/points/: the varied values, readable.
  std::string Name;
  /// Setting (np, machine, ...) or argument parameter -> value, as written
  /// in the study (device_value: several joined by spaces).
  std::vector<std::pair<std::string, std::string>> Values;
  /// orrery-run's options and the program with its arguments, without
  /// --report (the runner adds it); paths absolute.
  std::vector<std::string> RunArgs;
  int Np = 0;
  /// The program's size and modification time when the study was read: a
  /// rebuilt program makes a done point pending again.
  std::string ProgramStamp;

  std::string value(const std::string &Key) const;
};

struct SlurmSettings {
  std::string Partition, Account, Time = "01:00:00", Mem;
  int Limit = 0;                    // concurrent array tasks (0: all)
  std::vector<std::string> Options; // extra #SBATCH lines
};

struct Study {
  std::string File;              // as given
  std::string Dir;               // absolute directory of the file
  std::string Program;           // absolute
  std::vector<std::string> Args; // with {name} placeholders
  /// Names of the axes, in the order the study lists them (varied ones).
  std::vector<std::string> Varied;
  std::vector<Point> Points;
  SlurmSettings Slurm;
};

/// Reads and expands \p File. On error returns false and sets \p Error to
/// "FILE:LINE:COL: error: what; what to do".
bool loadStudy(const std::string &File, Study &S, std::string &Error);

/// Expands the study text \p Text, read from \p File, whose relative paths
/// are taken from \p Dir; errors as loadStudy's.
bool parseStudy(const std::string &Text, const std::string &File,
                const std::string &Dir, Study &S, std::string &Error);

/// The settings a study may set or vary (others are argument parameters).
const std::vector<std::string> &settingNames();
/// True if \p Key names a setting rather than a parameter.
bool isSetting(const std::string &Key);

} // namespace orrery::sweep

#endif // ORRERY_TOOL_SWEEP_STUDY_H
