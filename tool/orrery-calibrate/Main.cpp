//===- Main.cpp - orrery-calibrate: measure a machine, write its model ----===//
//
//   orrery-calibrate [--probes LIST] [--base FILE] -o machine.yaml
//                    [--bands B1,B2,...] [--max-residual R] -- LAUNCHER...
//
// Runs the probes natively (MPI ones under LAUNCHER, e.g. mpirun -np 2),
// fits t = latency + n / bandwidth per size band by least squares, prints
// each fit and its residual, refuses (naming the probe and band) when a fit
// is poor, and writes the base machine file with the measured numbers
// replaced (kind: measured, source: probe, version, host, date, fit). See
// docs/calibrate.md.
//
//===----------------------------------------------------------------------===//

#include "Fit.h"
#include "GpuProbes.h"
#include "MachineUpdate.h"
#include "Probes.h"
#include "orrery/support/ExecutableDir.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>
#include <unistd.h>

#ifndef ORRERY_CALIBRATE_VERSION
#error "the build must define ORRERY_CALIBRATE_VERSION"
#endif

using namespace orrery::calibrate;
namespace fs = std::filesystem;

namespace {

const char *Usage =
    "usage: orrery-calibrate [options] -o machine.yaml -- LAUNCHER...\n"
    "\n"
    "Runs micro-benchmark probes on this machine, fits latency + bytes /\n"
    "bandwidth per size band and writes a machine file whose measured numbers\n"
    "have kind: measured. MPI probes run under LAUNCHER (e.g. mpirun -np 2).\n"
    "\n"
    "  -o FILE              machine file to write (replaced whole, never "
    "partly)\n"
    "  --base FILE          machine file to start from (default: the source\n"
    "                       tree's models/machines/h200-node.yaml)\n"
    "  --probes LIST        comma-separated, from: pingpong,memcpy (default "
    "all)\n"
    "  --bands B1,B2,...    size-band boundaries in bytes for p2p fits\n"
    "                       (default 4096,65536)\n"
    "  --max-residual R     refuse a fit whose RMS relative residual exceeds "
    "R\n"
    "                       (default 0.35)\n"
    "  --name NAME          the machine's name (default: base name + "
    "-calibrated)\n"
    "  --max-bytes N        largest message or copy the probes time\n"
    "                       (default: pingpong 4 MiB, memcpy 64 MiB)\n"
    "  --probe-dir DIR      where the orrery-probe-* programs are (default: "
    "beside\n"
    "                       this tool)\n"
    "  --gpu                also run the GPU probes (copies, peer copies,\n"
    "                       launch and sync costs, kernel suite) on GPU 0 "
    "and,\n"
    "                       under LAUNCHER, device-buffer MPI: "
    "docs/calibrate.md\n";

int usageError(const std::string &Msg) {
  std::cerr << "orrery-calibrate: error: " << Msg
            << "\n(run 'orrery-calibrate --help' for usage)\n";
  return 2;
}

int error(const std::string &Msg) {
  std::cerr << "orrery-calibrate: error: " << Msg << "\n";
  return 1;
}

std::string hostName() {
  char H[256] = "";
  gethostname(H, sizeof H - 1);
  return H;
}

std::string utcNow() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&T));
  return Buf;
}

std::string fmt(const char *F, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, F, V);
  return Buf;
}

std::string describe(const HockneyFit &F) {
  return "latency " + fmt("%.3f", F.Latency * 1e6) + " us, bandwidth " +
         fmt("%.3f", F.Bandwidth / 1e9) + " GB/s, residual " +
         fmt("%.1f", F.Residual * 100) + "% over " + std::to_string(F.Samples) +
         " sizes";
}

bool hasGpu() {
  return fs::exists("/dev/nvidia0") || fs::exists("/dev/nvidiactl");
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Out, Base = ORRERY_CALIBRATE_DEFAULT_BASE, ProbeDir, Name;
  std::string ProbeList = "pingpong,memcpy", BandSpec = "4096,65536";
  std::string MaxBytes;
  double MaxResidual = 0.35;
  bool Gpu = false;
  std::vector<std::string> Launcher;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](std::string &V) {
      if (I + 1 >= Argc)
        return false;
      V = Argv[++I];
      return true;
    };
    if (A == "--") {
      for (++I; I < Argc; ++I)
        Launcher.push_back(Argv[I]);
      break;
    }
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return 0;
    }
    if (A == "--gpu") {
      Gpu = true;
      continue;
    }
    std::string *Dest = A == "-o"            ? &Out
                        : A == "--base"      ? &Base
                        : A == "--probes"    ? &ProbeList
                        : A == "--bands"     ? &BandSpec
                        : A == "--name"      ? &Name
                        : A == "--probe-dir" ? &ProbeDir
                        : A == "--max-bytes" ? &MaxBytes
                                             : nullptr;
    std::string Residual;
    if (A == "--max-residual")
      Dest = &Residual;
    if (!Dest)
      return usageError("unknown option '" + A + "'");
    if (!Value(*Dest))
      return usageError("option '" + A + "' needs a value");
    if (Dest == &Residual) {
      char *End = nullptr;
      MaxResidual = std::strtod(Residual.c_str(), &End);
      if (Residual.empty() || *End || !(MaxResidual > 0))
        return usageError("--max-residual: '" + Residual +
                          "' is not a positive number (0.35 is 35%)");
    }
  }
  if (Gpu && !hasGpu())
    return error("--gpu: no NVIDIA GPU on this machine (no /dev/nvidia0); "
                 "run the GPU probes where the GPU is, or drop --gpu");
  if (Out.empty())
    return usageError("no output file: give -o machine.yaml");
  if (!MaxBytes.empty() &&
      MaxBytes.find_first_not_of("0123456789") != std::string::npos)
    return usageError("--max-bytes: '" + MaxBytes + "' is not a byte count");
  std::vector<Band> Bands;
  std::string Err;
  if (!parseBands(BandSpec, Bands, Err))
    return usageError(Err);
  std::vector<std::string> Probes;
  {
    std::stringstream SS(ProbeList);
    std::string P;
    auto Known = knownProbes();
    while (std::getline(SS, P, ',')) {
      if (std::find(Known.begin(), Known.end(), P) == Known.end())
        return usageError("--probes: unknown probe '" + P +
                          "'; known: pingpong, memcpy");
      Probes.push_back(P);
    }
    if (Probes.empty())
      return usageError("--probes: empty list");
  }
  bool NeedLauncher =
      std::find(Probes.begin(), Probes.end(), "pingpong") != Probes.end();
  if (NeedLauncher && Launcher.empty())
    return usageError("the pingpong probe runs under an MPI launcher: end "
                      "the command with -- mpirun -np 2 (or srun ...)");
  if (ProbeDir.empty())
    ProbeDir = orrery::support::executableDir();
  std::string LauncherText;
  for (const std::string &W : Launcher)
    LauncherText += (LauncherText.empty() ? "" : " ") + shellQuote(W);

  const std::string Version = ORRERY_CALIBRATE_VERSION;
  const std::string Host = hostName(), Date = utcNow();
  std::vector<MeasuredValue> Values;
  bool Poor = false;
  for (const std::string &P : Probes) {
    fs::path Exe = fs::path(ProbeDir) / ("orrery-probe-" + P);
    if (!fs::exists(Exe))
      return error("probe " + P + ": " + Exe.string() +
                   " not found (build the project, or give --probe-dir)");
    bool Mpi = P == "pingpong";
    std::string Cmd = (Mpi ? LauncherText + " " : std::string()) +
                      shellQuote(Exe.string()) +
                      (MaxBytes.empty() ? std::string() : " " + MaxBytes);
    std::cout << "probe " << P << ": " << Cmd << "\n" << std::flush;
    std::vector<Sample> S;
    if (!runProbe(P, Cmd, S, Err))
      return error(Err);
    std::vector<Band> Use =
        Mpi ? Bands
            : std::vector<Band>{{0, std::numeric_limits<double>::infinity()}};
    std::vector<HockneyFit> Fits;
    for (const Band &B : Use) {
      std::vector<Sample> In = inBand(S, B);
      if (In.empty())
        continue;
      HockneyFit F = fitHockney(In, MaxResidual);
      std::cout << "  " << P << " band " << B.str() << ": " << describe(F)
                << "\n";
      if (!F.Problem.empty()) {
        std::cerr << "orrery-calibrate: error: probe " << P << ", band "
                  << B.str() << ": poor fit: " << F.Problem
                  << " (rerun on a quieter machine, change --bands, or "
                     "raise --max-residual)\n";
        Poor = true;
      }
      Fits.push_back(F);
    }
    if (Fits.empty())
      return error("probe " + P + ": no samples in any band");
    auto Source = [&](const HockneyFit &F, const Band &B,
                      const std::string &What) {
      return "orrery-calibrate " + Version + ", probe " + P + " (" +
             (Mpi ? LauncherText + " " : std::string()) + "orrery-probe-" + P +
             "), " + What + " of band " + B.str() + " B, host " + Host + ", " +
             Date + ", weighted least squares t = a + n/B, " + describe(F);
    };
    if (P == "pingpong") {
      // Every band's fit goes to node.shm_transport, whose size bands the
      // simulator charges per message (docs/machine-file.md): the first
      // band's as its latency and bandwidth, the others as bands.
      std::vector<Band> Fitted;
      for (const Band &B : Use)
        if (!inBand(S, B).empty())
          Fitted.push_back(B);
      for (size_t I = 0; I < Fits.size(); ++I) {
        std::string Key = "node.shm_transport.";
        if (I > 0) {
          Key += "bands." + std::to_string(I - 1) + ".";
          Values.push_back(
              {Key + "from", Fitted[I].Lo, "B",
               "orrery-calibrate " + Version + " --bands " + BandSpec +
                   ": a boundary the user chose (default: Open MPI's "
                   "shared-memory eager limit, 4 KiB, and 64 KiB), not a "
                   "fit",
               "estimate"});
        }
        Values.push_back({Key + "latency", Fits[I].Latency * 1e6, "us",
                          Source(Fits[I], Fitted[I], "latency")});
        Values.push_back({Key + "bandwidth", Fits[I].Bandwidth / 1e9, "GB/s",
                          Source(Fits[I], Fitted[I], "bandwidth")});
      }
    } else if (P == "memcpy") {
      // One core's copy rate stands for its reduction rate (t_reduce).
      Values.push_back({"node.host_reduction_bandwidth",
                        Fits[0].Bandwidth / 1e9, "GB/s",
                        Source(Fits[0], Use[0], "bandwidth")});
    }
  }
  const std::string GpuSource =
      "orrery-calibrate " + Version + ", host " + Host + ", " + Date;
  if (Gpu && !calibrateGpu(ProbeDir, Base, MaxBytes, MaxResidual, GpuSource,
                           Values, Poor, Err))
    return error(Err);
  // Device-buffer MPI needs two ranks: only with a launcher.
  if (Gpu && Launcher.empty())
    std::cout << "probe mpi-device: skipped (no launcher; end the command "
                 "with -- mpirun -np 2 to time device-buffer MPI)\n";
  else if (Gpu &&
           !calibrateDeviceMpi(ProbeDir, Base, LauncherText, MaxBytes,
                               MaxResidual, GpuSource, Values, Poor, Err))
    return error(Err);
  if (Poor) {
    char Limit[32], Twice[32];
    std::snprintf(Limit, sizeof Limit, "%g", MaxResidual);
    std::snprintf(Twice, sizeof Twice, "%g", 2 * MaxResidual);
    return error("not writing " + Out +
                 ": the fits marked 'poor fit' above miss their samples by "
                 "more than --max-residual " +
                 Limit +
                 " (RMS relative residual); rerun on an idle machine, give "
                 "--bands that split sizes where the transport changes "
                 "protocol, or accept the fits with a larger --max-residual "
                 "(e.g. --max-residual " +
                 Twice + ")");
  }
  if (!writeMachine(Base, Out, Name,
                    "calibrated on " + Host + " " + Date +
                        " by orrery-calibrate " + Version,
                    Values, Err))
    return error(Err);
  size_t Measured =
      std::count_if(Values.begin(), Values.end(), [](const MeasuredValue &V) {
        return V.Kind == "measured";
      });
  std::cout << "wrote " << Out << " (" << Measured << " measured numbers, "
            << Values.size() - Measured << " band boundaries, base " << Base
            << ")\n";
  return 0;
}
