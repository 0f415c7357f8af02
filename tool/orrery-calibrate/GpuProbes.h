//===- GpuProbes.h - orrery-calibrate --gpu: fits of the GPU probe -*- C++ -*-//
//
// orrery-probe-gpu (probes/gpu.cu) times host-device copies (pageable and
// pinned), device-to-device copies, launch, sync and empty-kernel costs and
// a small kernel suite (a streaming triad and FMA chains). This file runs it
// and turns its samples into machine-file numbers: Hockney fits per size
// band for copies, fixed costs as measured, and the kernel model's
// efficiencies as the fitted rates over the base file's peaks.
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
