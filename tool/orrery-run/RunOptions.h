//===- RunOptions.h - orrery-run's command line -----------------*- C++ -*-===//
//
// Options come first; the first argument that is not an option (or the one
// after `--`) is the program, and everything after it belongs to the program.
// Parsed by hand, like the other tools that need no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_RUNOPTIONS_H
#define ORRERY_TOOL_RUN_RUNOPTIONS_H

#include "DeviceValueOptions.h"

#include <optional>
#include <string>
#include <vector>

namespace orrery::run {

/// Auto: the network file's choice (ideal when its NIC figures are
/// MPI-level benchmark results, network.figures: mpi; smpi otherwise).
enum class NetworkMode { Auto, Smpi, Ideal };

struct RunOptions {
  int Ranks = 0; ///< -np; 0 when not given
  std::string Machine;
  std::string NetworkFile;
  int Nodes = 0;        ///< --nodes; 0: ceil(ranks / ranks per node)
  int RanksPerNode = 0; ///< --ranks-per-node; 0: GPUs per node
  NetworkMode Network = NetworkMode::Auto;
  std::string Trace;  ///< --trace
  std::string Report; ///< --report
  std::string Plot;   ///< --plot: orrery-plot draws the report there
  std::optional<double> Progress;
  bool HostCompute = false;
  bool KeepTemps = false;
  bool Verbose = false;
  bool DryRun = false;
  bool Help = false;
  std::vector<std::string> SmpiCfg; ///< --smpi-cfg KEY:VALUE, in order
  /// --device-value and --device-values, in order (a later one wins).
  std::vector<DeviceValue> DeviceValues;
  /// --replay-reads: files a native run recorded (ORRERY_RECORD_READS),
  /// checked, as absolute paths.
  std::vector<std::string> ReplayReads;
  std::string SharedHostThreshold; ///< --shared-host-threshold, bytes
  std::string ClockReadGrowth;     ///< --clock-read-growth, a fraction
  std::string GpuBind;             ///< --gpu-bind: none or local
  std::string PrintReport;         ///< hidden: render an existing report
  std::string App;
  std::vector<std::string> AppArgs;
};

/// Parses argv[1..]; returns false with \p Error naming the option on a
/// problem. Does not check that required options are present.
bool parseRunOptions(int Argc, const char *const *Argv, RunOptions &Out,
                     std::string &Error);

const char *networkModeName(NetworkMode M);

/// The mode a run uses: \p Asked, or for Auto the one a network whose NIC
/// figures are MPI-level (\p MpiLevelFigures) or link-level calls for.
NetworkMode resolveNetworkMode(NetworkMode Asked, bool MpiLevelFigures);

extern const char *const RunUsage;

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_RUNOPTIONS_H
