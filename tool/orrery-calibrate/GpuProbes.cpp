//===- GpuProbes.cpp - orrery-calibrate --gpu: fits of the GPU probe ------===//

#include "GpuProbes.h"
#include "Probes.h"

#include "orrery/models/KernelModel.h"
#include "orrery/models/MachineFile.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>
#include <sys/wait.h>
#include <tuple>

namespace orrery::calibrate {

namespace {

/// Copy size bands: small copies are latency-bound, the DMA engines reach
/// their rate above about a megabyte.
const std::vector<Band> CopyBands = {
    {0, 65536},
    {65536, 1048576},
    {1048576, std::numeric_limits<double>::infinity()}};

/// Streaming kernels below this many bytes do not fill the GPU.
const double TriadMinBytes = 64.0 * 1024 * 1024;

/// Memory counts as saturated within 5 % of the best streaming rate.
const double SaturatedShare = 0.95;

/// Device buffers given to MPI faster than this multiple of the program's
/// own staging: the library has a direct path.
const double DirectPathGain = 1.2;

std::string fmt(const char *F, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, F, V);
  return Buf;
}

std::string describe(const HockneyFit &F, const char *RateUnit,
                     double RateScale) {
  return "latency " + fmt("%.3f", F.Latency * 1e6) + " us, rate " +
         fmt("%.3f", F.Bandwidth / RateScale) + " " + RateUnit + ", residual " +
         fmt("%.1f", F.Residual * 100) + "% over " + std::to_string(F.Samples) +
         " sizes";
}

/// The best (smallest) time of a fixed-cost series, or -1.
double fixedCost(const NamedSamples &S, const std::string &Name) {
  auto It = S.find(Name);
  if (It == S.end() || It->second.empty())
    return -1;
  double Best = It->second.front().Seconds;
  for (const Sample &X : It->second)
    Best = X.Seconds < Best ? X.Seconds : Best;
  return Best;
}

class Fitter {
public:
  Fitter(const NamedSamples &S, double MaxResidual, const std::string &Source,
         GpuCalibration &Out)
      : S(S), MaxResidual(MaxResidual), Source(Source), Out(Out) {}

  /// Fits series \p Name per copy band; returns the fits. Problems of a
  /// series that is \p Written block the file; others are only printed.
  std::vector<std::pair<Band, HockneyFit>> copyFits(const std::string &Name,
                                                    bool Written) {
    std::vector<std::pair<Band, HockneyFit>> Fits;
    auto It = S.find(Name);
    if (It == S.end()) {
      missing(Name);
      return Fits;
    }
    for (const Band &B : CopyBands) {
      std::vector<Sample> In = inBand(It->second, B);
      if (In.size() < 2)
        continue;
      HockneyFit F = fitHockney(In, MaxResidual);
      Out.Lines.push_back(
          {Name + " band " + B.str() + ": " + describe(F, "GB/s", 1e9),
           problem(Name, B.str(), F)});
      if (!Written)
        printOnly();
      Fits.emplace_back(B, F);
    }
    if (Fits.empty() && Written)
      missing(Name);
    return Fits;
  }

  /// One fit of series \p Name over sizes of at least \p MinSize.
  bool rateFit(const std::string &Name, double MinSize, const char *Unit,
               double Scale, HockneyFit &F) {
    auto It = S.find(Name);
    std::vector<Sample> In;
    if (It != S.end())
      In = inBand(It->second,
                  {MinSize, std::numeric_limits<double>::infinity()});
    if (In.size() < 2) {
      missing(Name);
      return false;
    }
    F = fitHockney(In, MaxResidual);
    std::string P = problem(Name, "", F);
    Out.Lines.push_back({Name + ": " + describe(F, Unit, Scale), P});
    return P.empty();
  }

  void value(const std::string &Path, double V, const std::string &Unit,
             const std::string &What) {
    Out.Values.push_back({Path, V, Unit, Source + ", " + What});
  }

  /// The last line's problem does not block the file: it is printed.
  void printOnly() {
    GpuFitLine &L = Out.Lines.back();
    if (!L.Problem.empty())
      L.Text += " (printed only; " + L.Problem + ")";
    L.Problem.clear();
  }

  void missing(const std::string &Name) {
    Out.Lines.push_back(
        {Name + ": no samples", "series '" + Name +
                                    "' is missing or has fewer than two sizes "
                                    "(is orrery-probe-gpu from this build?)"});
  }

private:
  std::string problem(const std::string &Name, const std::string &Band,
                      const HockneyFit &F) {
    if (F.Problem.empty())
      return "";
    return "probe gpu, series " + Name +
           (Band.empty() ? "" : ", band " + Band) + ": poor fit: " + F.Problem;
  }

  const NamedSamples &S;
  double MaxResidual;
  const std::string &Source;
  GpuCalibration &Out;
};

/// GPU 0 to GPU 1 (cudaMemcpyPeerAsync, device time): node.gpu_links. A
/// machine with one GPU, or without peer access, has no series: said, not
/// a problem.
void fitPeerCopies(const NamedSamples &S, Fitter &F, GpuCalibration &Out) {
  if (!S.count("peer")) {
    Out.Lines.push_back({"peer: not measured (one GPU, or GPU 0 has no peer "
                         "access to GPU 1)",
                         ""});
    return;
  }
  auto Peer = F.copyFits("peer", true);
  if (Peer.empty())
    return;
  const auto &[FirstBand, First] = Peer.front();
  const auto &[LastBand, Last] = Peer.back();
  F.value("node.gpu_links.bandwidth", Last.Bandwidth / 1e9, "GB/s",
          "peer (cudaMemcpyPeerAsync GPU 0 -> 1) rate of band " +
              LastBand.str() + " B, " + describe(Last, "GB/s", 1e9));
  F.value("node.gpu_links.latency", First.Latency * 1e6, "us",
          "peer (cudaMemcpyPeerAsync GPU 0 -> 1) latency of band " +
              FirstBand.str() + " B, " + describe(First, "GB/s", 1e9));
}

/// The memory side of the kernel suite: dependent strided loads give the
/// memory latency (which Little's law in the kernel model turns into
/// bandwidth by occupancy); the shared-memory stream at several
/// occupancies, which checks that curve, and atomics are printed.
void fitMemorySuite(const NamedSamples &S, Fitter &F, GpuCalibration &Out) {
  HockneyFit Chase;
  if (F.rateFit("strided_chase", 0, "Mloads/s", 1e6, Chase)) {
    double Latency = 1 / Chase.Bandwidth;
    Out.Lines.push_back(
        {"strided_chase: " + fmt("%.1f", Latency * 1e9) + " ns per load", ""});
    F.value("gpu.memory.latency", Latency * 1e9, "ns",
            "strided_chase (dependent loads 4 KiB + 8 B apart), 1 / rate, " +
                describe(Chase, "Mloads/s", 1e6));
  }

  std::vector<OccupancyRate> Rates;
  const std::string Prefix = "shared_stream@";
  for (const auto &[Name, Samples] : S) {
    if (Name.rfind(Prefix, 0) != 0)
      continue;
    double Occupancy = std::atof(Name.c_str() + Prefix.size());
    HockneyFit R;
    if (Occupancy > 0 && F.rateFit(Name, 0, "GB/s", 1e9, R))
      Rates.push_back({Occupancy, R.Bandwidth});
  }
  double Saturation = saturationOccupancy(Rates, SaturatedShare);
  if (Saturation > 0) {
    // No key: the model derives this from gpu.memory.latency (Little's
    // law); compare with `orrery-model kernel` at these occupancies.
    Out.Lines.push_back({"shared_stream: memory within " +
                             fmt("%.0f", (1 - SaturatedShare) * 100) +
                             "% of its best rate from occupancy " +
                             fmt("%.3f", Saturation) + " (" +
                             std::to_string(Rates.size()) + " occupancies)",
                         ""});
  } else {
    Out.Lines.push_back({"shared_stream: no samples",
                         "series 'shared_stream@OCCUPANCY' is missing or "
                         "has fewer than two occupancies (is "
                         "orrery-probe-gpu from this build?)"});
  }

  for (const char *Name : {"atomic_distinct", "atomic_contended"}) {
    HockneyFit A;
    F.rateFit(Name, 0, "Gops/s", 1e9, A);
    F.printOnly(); // no machine-file key: the kernel model counts no atomics
  }
}

} // namespace

double saturationOccupancy(std::vector<OccupancyRate> Rates, double Share) {
  if (Rates.size() < 2)
    return 0;
  std::sort(Rates.begin(), Rates.end(),
            [](const OccupancyRate &A, const OccupancyRate &B) {
              return A.Occupancy < B.Occupancy;
            });
  double Best = 0;
  for (const OccupancyRate &R : Rates)
    Best = std::max(Best, R.Rate);
  for (const OccupancyRate &R : Rates)
    if (R.Rate >= Share * Best)
      return R.Occupancy;
  return 0;
}

GpuCalibration fitDeviceMpiSamples(const NamedSamples &S, double CallHost,
                                   double MaxResidual,
                                   const std::string &Source) {
  GpuCalibration Out;
  Fitter F(S, MaxResidual, Source, Out);
  // Small messages show the fixed costs, large ones the path's rate.
  const Band Small{0, 65536},
      Large{65536, std::numeric_limits<double>::infinity()};
  auto Fit = [&](const std::string &Name, const Band &B, HockneyFit &R) {
    auto It = S.find(Name);
    std::vector<Sample> In;
    if (It != S.end())
      In = inBand(It->second, B);
    if (In.size() < 2)
      return false;
    R = fitHockney(In, MaxResidual);
    Out.Lines.push_back(
        {Name + " band " + B.str() + ": " + describe(R, "GB/s", 1e9),
         R.Problem.empty() ? ""
                           : "probe mpi-device, series " + Name + ", band " +
                                 B.str() + ": poor fit: " + R.Problem});
    return true;
  };
  HockneyFit HhSmall, HhLarge, StSmall, StLarge, DdSmall, DdLarge;
  bool Reference = true;
  for (auto [Name, SmallFit, LargeFit] :
       {std::make_tuple("mpi_hh", &HhSmall, &HhLarge),
        std::make_tuple("mpi_staged", &StSmall, &StLarge)})
    if (!Fit(Name, Small, *SmallFit) || !Fit(Name, Large, *LargeFit)) {
      F.missing(Name);
      Reference = false;
    }
  if (!Reference)
    return Out;
  if (!S.count("mpi_dd")) {
    Out.Lines.push_back(
        {"mpi_dd: not measured: the MPI library is not CUDA-aware "
         "(MPIX_Query_cuda_support), so programs must stage device buffers "
         "(mpi_staged); mpi.call_overhead.device is left as it was",
         ""});
    return Out;
  }
  if (!Fit("mpi_dd", Small, DdSmall) || !Fit("mpi_dd", Large, DdLarge)) {
    F.missing("mpi_dd");
    return Out;
  }
  // The simulator charges a device-buffer call t_call,device where a host
  // one costs t_call,host; the rest of the small-message time is the same
  // transport. The device leg's own latency is folded in, as
  // node.pcie.call_overhead folds in the PCIe latency.
  double Extra = DdSmall.Latency - HhSmall.Latency;
  if (Extra < 0) {
    Out.Lines.push_back(
        {"mpi_dd latency " + fmt("%.3f", DdSmall.Latency * 1e6) +
             " us is below mpi_hh's (" + fmt("%.3f", HhSmall.Latency * 1e6) +
             " us): mpi.call_overhead.device not written",
         ""});
  } else {
    F.value("mpi.call_overhead.device", (CallHost + Extra) * 1e6, "us",
            "mpi.call_overhead.host of the base file (" +
                fmt("%.3f", CallHost * 1e6) +
                " us) + mpi_dd latency - mpi_hh latency of band " +
                Small.str() + " B (" + fmt("%.3f", DdSmall.Latency * 1e6) +
                " - " + fmt("%.3f", HhSmall.Latency * 1e6) + " us)");
  }
  bool Direct = DdLarge.Bandwidth > DirectPathGain * StLarge.Bandwidth;
  Out.Lines.push_back(
      {"device-buffer MPI: " + fmt("%.1f", DdLarge.Bandwidth / 1e9) +
           " GB/s given to MPI, " + fmt("%.1f", StLarge.Bandwidth / 1e9) +
           " GB/s staged by the program: the MPI library " +
           (Direct ? "takes a direct path (CUDA IPC or GPUDirect)"
                   : "stages through host memory itself"),
       ""});
  return Out;
}

bool runGpuProbe(const std::string &Command, NamedSamples &Out,
                 std::string &Error) {
  int Status = readProbeSamples(Command, Out);
  if (Status < 0) {
    Error = "probe gpu: cannot start '" + Command + "'";
    return false;
  }
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 3) {
    Error = "--gpu: '" + Command +
            "' found no usable GPU (its message is above); run the GPU "
            "probes on the machine with the GPU, or drop --gpu";
    return false;
  }
  if (Status != 0) {
    Error = "probe gpu: '" + Command + "' " + exitDescription(Status) +
            " (its messages are above)";
    return false;
  }
  if (Out.empty()) {
    Error = "probe gpu: '" + Command + "' printed no 'NAME SIZE SECONDS' lines";
    return false;
  }
  return true;
}

GpuCalibration fitGpuSamples(const NamedSamples &S, const GpuPeaks &Peaks,
                             double MaxResidual, const std::string &Source) {
  GpuCalibration Out;
  Fitter F(S, MaxResidual, Source, Out);

  // Host-device copies: the model has one latency, one call overhead and a
  // rate per direction; pinned copies are what it describes (pageable ones
  // are printed for comparison).
  auto H2D = F.copyFits("h2d_pinned", true);
  auto D2H = F.copyFits("d2h_pinned", true);
  F.copyFits("h2d_pageable", false);
  F.copyFits("d2h_pageable", false);
  auto D2D = F.copyFits("d2d", false);
  if (!H2D.empty()) {
    const auto &[FirstBand, First] = H2D.front();
    const auto &[LastBand, Last] = H2D.back();
    F.value("node.pcie.h2d_bandwidth", Last.Bandwidth / 1e9, "GB/s",
            "h2d_pinned rate of band " + LastBand.str() + " B, " +
                describe(Last, "GB/s", 1e9));
    // A synchronous copy's fixed cost is the call's overhead plus the
    // transfer's latency; the probe sees only their sum, charged here as
    // the call overhead.
    F.value("node.pcie.call_overhead", First.Latency * 1e6, "us",
            "h2d_pinned latency of band " + FirstBand.str() +
                " B (call overhead and transfer latency together), " +
                describe(First, "GB/s", 1e9));
    F.value("node.pcie.latency", 0, "us",
            "included in node.pcie.call_overhead (h2d_pinned)");
  }
  if (!D2H.empty())
    F.value("node.pcie.d2h_bandwidth", D2H.back().second.Bandwidth / 1e9,
            "GB/s",
            "d2h_pinned rate of band " + D2H.back().first.str() + " B, " +
                describe(D2H.back().second, "GB/s", 1e9));
  if (!D2D.empty() && Peaks.MemoryBandwidth > 0)
    Out.Lines.push_back(
        {"d2d: " + fmt("%.1f", D2D.back().second.Bandwidth / 1e9) +
             " GB/s (the model's device-local copy rate is memory bandwidth "
             "x efficiency / 2)",
         ""});

  // Fixed costs.
  struct Fixed {
    const char *Series, *Path;
  };
  for (Fixed X : {Fixed{"launch", "gpu.overheads.launch"},
                  Fixed{"sync", "gpu.overheads.sync"},
                  Fixed{"empty_kernel", "gpu.overheads.empty_kernel"}}) {
    double T = fixedCost(S, X.Series);
    if (T < 0) {
      F.missing(X.Series);
      continue;
    }
    Out.Lines.push_back(
        {std::string(X.Series) + ": " + fmt("%.3f", T * 1e6) + " us", ""});
    F.value(X.Path, T * 1e6, "us", std::string(X.Series) + ", best sample");
  }
  double EventSync = fixedCost(S, "event_sync");
  if (EventSync >= 0)
    Out.Lines.push_back(
        {"event_sync: " + fmt("%.3f", EventSync * 1e6) + " us", ""});

  // The kernel suite: efficiencies are fitted rates over the base file's
  // peaks.
  HockneyFit Triad, Fma64, Fma32;
  if (F.rateFit("triad", TriadMinBytes, "GB/s", 1e9, Triad)) {
    double Eff = Triad.Bandwidth / Peaks.MemoryBandwidth;
    if (!(Peaks.MemoryBandwidth > 0) || Eff > 1)
      Out.Lines.push_back(
          {"triad efficiency " + fmt("%.3f", Eff),
           "probe gpu, series triad: " + fmt("%.1f", Triad.Bandwidth / 1e9) +
               " GB/s exceeds the base file's gpu.memory.bandwidth (" +
               fmt("%.1f", Peaks.MemoryBandwidth / 1e9) +
               " GB/s); correct it in --base"});
    else {
      F.value("gpu.memory.efficiency", Eff, "ratio",
              "triad rate / gpu.memory.bandwidth of the base file, " +
                  describe(Triad, "GB/s", 1e9));
      F.value("gpu.kernel_rate", Triad.Bandwidth / 1e9, "GB/s",
              "triad rate over sizes >= 64 MiB, " +
                  describe(Triad, "GB/s", 1e9));
    }
  }
  if (F.rateFit("fma_fp64", 0, "GFLOP/s", 1e9, Fma64)) {
    double Eff = Fma64.Bandwidth / Peaks.Fp64;
    if (!(Peaks.Fp64 > 0) || Eff > 1)
      Out.Lines.push_back(
          {"fma_fp64 efficiency " + fmt("%.3f", Eff),
           "probe gpu, series fma_fp64: " +
               fmt("%.1f", Fma64.Bandwidth / 1e12) +
               " TFLOP/s exceeds the base file's gpu.peak.fp64 (" +
               fmt("%.1f", Peaks.Fp64 / 1e12) +
               " TFLOP/s); correct it in "
               "--base"});
    else
      F.value("gpu.compute_efficiency", Eff, "ratio",
              "fma_fp64 rate / gpu.peak.fp64 of the base file, " +
                  describe(Fma64, "GFLOP/s", 1e9));
  }
  if (!F.rateFit("fma_fp32", 0, "GFLOP/s", 1e9, Fma32))
    F.printOnly(); // the model has one compute efficiency: fp64's
  fitPeerCopies(S, F, Out);
  fitMemorySuite(S, F, Out);
  return Out;
}

/// The probe program orrery-probe-NAME in \p ProbeDir; false with \p Error
/// naming it and what builds it (\p Needs: "clang and ... are") if absent.
static bool findProbe(const std::string &ProbeDir, const std::string &Name,
                      const char *Needs, std::filesystem::path &Exe,
                      std::string &Error) {
  Exe = std::filesystem::path(ProbeDir) / ("orrery-probe-" + Name);
  if (std::filesystem::exists(Exe))
    return true;
  Error = "probe " + Name + ": " + Exe.string() +
          " not found (Orrery builds it when " + Needs +
          " found; or give --probe-dir)";
  return false;
}

/// Prints each fit's line, and its problem (a poor fit) on stderr with
/// what to do on \p Idle (an idle machine or GPU); keeps the fitted values.
static void takeFits(const GpuCalibration &C, const char *Idle,
                     std::vector<MeasuredValue> &Values, bool &Poor) {
  for (const GpuFitLine &L : C.Lines) {
    std::cout << "  " << L.Text << "\n";
    if (!L.Problem.empty())
      std::cerr << "orrery-calibrate: error: " << L.Problem
                << " (rerun on an idle " << Idle
                << ", or raise --max-residual)\n";
  }
  Poor |= C.poor();
  Values.insert(Values.end(), C.Values.begin(), C.Values.end());
}

bool calibrateDeviceMpi(const std::string &ProbeDir, const std::string &Base,
                        const std::string &Launcher,
                        const std::string &MaxBytes, double MaxResidual,
                        const std::string &Source,
                        std::vector<MeasuredValue> &Values, bool &Poor,
                        std::string &Error) {
  models::ParsedFile Parsed = models::loadMachineFile(Base);
  if (!Parsed.ok()) {
    Error = Parsed.Errors.front().str() + " (the --base file)";
    return false;
  }
  std::filesystem::path Exe;
  if (!findProbe(ProbeDir, "mpi-device", "clang, the CUDA toolkit and MPI are",
                 Exe, Error))
    return false;
  std::string Cmd = Launcher + " " + shellQuote(Exe.string()) +
                    (MaxBytes.empty() ? std::string() : " " + MaxBytes);
  std::cout << "probe mpi-device: " << Cmd << "\n" << std::flush;
  NamedSamples S;
  if (!runGpuProbe(Cmd, S, Error))
    return false;
  GpuCalibration C =
      fitDeviceMpiSamples(S, Parsed.M.Mpi.CallOverheadHost.Value, MaxResidual,
                          Source + ", probe mpi-device (" + Cmd + ")");
  takeFits(C, "machine", Values, Poor);
  return true;
}

bool calibrateGpu(const std::string &ProbeDir, const std::string &Base,
                  const std::string &MaxBytes, double MaxResidual,
                  const std::string &Source, std::vector<MeasuredValue> &Values,
                  bool &Poor, std::string &Error) {
  models::ParsedFile Parsed = models::loadMachineFile(Base);
  if (!Parsed.ok()) {
    Error = Parsed.Errors.front().str() + " (the --base file)";
    return false;
  }
  models::GpuParams G = models::GpuParams::fromMachine(Parsed.M);
  GpuPeaks Peaks;
  Peaks.MemoryBandwidth = G.MemoryBandwidth;
  Peaks.Fp64 = G.Peak[static_cast<int>(models::Precision::FP64)];
  std::filesystem::path Exe;
  if (!findProbe(ProbeDir, "gpu", "clang and the CUDA toolkit are", Exe, Error))
    return false;
  std::string Cmd = shellQuote(Exe.string()) +
                    (MaxBytes.empty() ? std::string() : " " + MaxBytes);
  std::cout << "probe gpu: " << Cmd << "\n" << std::flush;
  NamedSamples S;
  if (!runGpuProbe(Cmd, S, Error))
    return false;
  GpuCalibration C = fitGpuSamples(S, Peaks, MaxResidual,
                                   Source + ", probe gpu (" + Cmd + ")");
  takeFits(C, "GPU", Values, Poor);
  return true;
}

} // namespace orrery::calibrate
