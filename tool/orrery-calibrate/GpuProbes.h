//===- GpuProbes.h - orrery-calibrate --gpu: fits of the GPU probe -*- C++ -*-//
//
// orrery-probe-gpu (probes/gpu.cu) times host-device copies (pageable and
// pinned), device-to-device copies, launch, sync and empty-kernel costs and
// a kernel suite (a streaming triad, FMA chains, dependent strided loads, a
// shared-memory stream at several occupancies, atomics), and peer copies
// when there are two GPUs. orrery-probe-mpi-device (probes/mpi-device.cu)
// times device-buffer MPI point-to-point under the launcher. This file runs
// them and turns their samples into machine-file numbers: Hockney fits per
// size band for copies, fixed costs as measured, the kernel model's
// efficiencies as the fitted rates over the base file's peaks, the memory
// latency and saturation occupancy, and the device-buffer MPI call overhead.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_CALIBRATE_GPUPROBES_H
#define ORRERY_TOOL_CALIBRATE_GPUPROBES_H

#include "Fit.h"
#include "MachineUpdate.h"
#include "Probes.h"

#include <map>
#include <string>
#include <vector>

namespace orrery::calibrate {

/// Runs \p Command (orrery-probe-gpu, already quoted), collecting every
/// "NAME SIZE SECONDS" line. False with \p Error naming the command and how
/// it ended (status 3: no usable GPU).
bool runGpuProbe(const std::string &Command, NamedSamples &Out,
                 std::string &Error);

/// What the efficiencies are measured against: the base machine file's
/// peaks (bytes/s and FLOP/s).
struct GpuPeaks {
  double MemoryBandwidth = 0;
  double Fp64 = 0;
};

/// One printed fit or figure, and whether it is unusable.
struct GpuFitLine {
  std::string Text;    ///< "h2d_pinned band [0, 65536): latency ..."
  std::string Problem; ///< empty when usable
};

struct GpuCalibration {
  std::vector<GpuFitLine> Lines;
  std::vector<MeasuredValue> Values;
  bool poor() const {
    for (const GpuFitLine &L : Lines)
      if (!L.Problem.empty())
        return true;
    return false;
  }
};

/// Fits \p S. \p Source(what) gives the provenance prefix of a value's
/// source string (tool, version, host, date). A missing probe series, a poor
/// fit or an efficiency above 1 (the base file's peak is too low) is a
/// Problem naming the series.
GpuCalibration fitGpuSamples(const NamedSamples &S, const GpuPeaks &Peaks,
                             double MaxResidual, const std::string &Source);

/// A streaming rate (bytes/s) at an occupancy (active warps / maximum).
struct OccupancyRate {
  double Occupancy = 0, Rate = 0;
};

/// The lowest occupancy whose rate is at least \p Share of the best: where
/// memory saturates (printed by orrery-calibrate). 0 with fewer than two
/// rates.
double saturationOccupancy(std::vector<OccupancyRate> Rates, double Share);

/// Fits orrery-probe-mpi-device's samples: mpi.call_overhead.device from
/// the small-message latencies of device (mpi_dd) and host (mpi_hh) buffers
/// over \p CallHost (the base file's mpi.call_overhead.host, seconds), and
/// a printed verdict on the path (direct or staged) from the large-message
/// rates. Without mpi_dd (MPI not CUDA-aware) nothing is written, and that
/// is said.
GpuCalibration fitDeviceMpiSamples(const NamedSamples &S, double CallHost,
                                   double MaxResidual,
                                   const std::string &Source);

/// orrery-calibrate --gpu with a launcher: runs \p ProbeDir /
/// orrery-probe-mpi-device under \p Launcher (quoted words), prints each fit
/// and appends the numbers to \p Values, as calibrateGpu does.
bool calibrateDeviceMpi(const std::string &ProbeDir, const std::string &Base,
                        const std::string &Launcher,
                        const std::string &MaxBytes, double MaxResidual,
                        const std::string &Source,
                        std::vector<MeasuredValue> &Values, bool &Poor,
                        std::string &Error);

/// orrery-calibrate --gpu: runs \p ProbeDir/orrery-probe-gpu (its largest
/// copy \p MaxBytes, empty for its default), prints each fit, and appends
/// the numbers to \p Values; \p Poor is set when a written fit is poor.
/// False with \p Error when the probe is missing or fails, or the base file
/// \p Base cannot be read.
bool calibrateGpu(const std::string &ProbeDir, const std::string &Base,
                  const std::string &MaxBytes, double MaxResidual,
                  const std::string &Source, std::vector<MeasuredValue> &Values,
                  bool &Poor, std::string &Error);

} // namespace orrery::calibrate

#endif // ORRERY_TOOL_CALIBRATE_GPUPROBES_H
