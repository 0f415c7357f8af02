//===- ReportData.h - The simulation report, read ---------------*- C++ -*-===//
//
// What orrery-run's printer needs of a JSON report (docs/report.md; written
// by runtime/sim/report/Accounting.cpp, or runtime/native for a measured one),
// checked against the schema (formats/) and read: parseReport() names the
// first field at fault. ReportPrinter.cpp renders it.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_RUN_REPORTDATA_H
#define ORRERY_TOOL_RUN_REPORTDATA_H

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orrery::run {

struct Kernel {
  std::string Name, Site, Confidence, Hint;
  double Launches = 0, Flops = 0, Bytes = 0, Seconds = 0;
};

struct DeviceRead {
  std::string Site, Api, Type, Value, From;
  std::string Via;  ///< the caller's line whose value the reads took
  std::string Last; ///< the value the last read got (a schedule)
  double Reads = 0, Bytes = 0;
};

/// The simulated events a run went through (summed over ranks) and their
/// rate per wall second.
struct Events {
  double Kernels = 0, Copies = 0, MpiMessages = 0, MpiCollectives = 0;
  double PerWallSecond = 0;
};

struct ReportData {
  std::string Machine, MachineFile, NetworkMode;
  double Ranks = 0;
  std::optional<double> Nodes, RanksPerNode, Wall, GpuSeconds, GpuEstimated;
  /// Twin mode: "measured", and the seconds measured on the real GPU.
  std::string KernelTime;
  double MeasuredSeconds = 0;
  double Simulated = 0;
  std::vector<std::pair<std::string, double>> Breakdown; ///< label, seconds
  std::vector<Kernel> Kernels;
  std::vector<DeviceRead> Reads;
  bool Completed = true;
  std::string Failure;
  std::vector<std::string> FailedRanks;
  std::optional<double> SharedAllocations, SharedBytes, SharedThreshold;
  std::vector<std::string> Warnings;
  std::optional<Events> Counts;
};

/// Reads \p J into \p Out; false with \p Error naming the first field that
/// does not follow the schema.
bool parseReport(const nlohmann::json &J, ReportData &Out, std::string &Error);

} // namespace orrery::run

#endif // ORRERY_TOOL_RUN_REPORTDATA_H
