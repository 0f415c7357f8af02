//===- RunOptions.cpp - orrery-run's command line -------------------------===//

#include "RunOptions.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

namespace orrery::run {

const char *const RunUsage =
    "usage: orrery-run -np N --machine FILE [options] ./app [app arguments]\n"
    "\n"
    "Runs an Orrery skeleton or twin program (a shared object built with\n"
    "orrery-cxx --orrery-mode=skeleton) under SimGrid's smpirun on a platform\n"
    "generated from the machine model, then prints the simulated time and\n"
    "where it went.\n"
    "\n"
    "  -np N                  number of ranks (required)\n"
    "  --machine FILE         machine file (required; docs/machine-file.md)\n"
    "  --network-file FILE    network file replacing the machine's network\n"
    "  --nodes K              nodes in the platform (default: ceil(N / ranks "
    "per node))\n"
    "  --ranks-per-node R     ranks placed on each node (default: GPUs per "
    "node)\n"
    "  --network auto|smpi|ideal\n"
    "                         smpi: SMPI's measured correction factors;\n"
    "                         ideal: T_net = route latency + bytes / "
    "bottleneck;\n"
    "                         auto (default): ideal when the network's "
    "figures\n"
    "                         are MPI-level (network.figures: mpi), else "
    "smpi\n"
    "  --trace FILE           write a Chrome-trace/Perfetto timeline\n"
    "  --report FILE          keep the JSON report (default: a temporary "
    "file)\n"
    "  --plot FILE.svg        draw the run's breakdown and top kernels "
    "(orrery-plot)\n"
    "  --progress SECONDS     wall time between progress lines on stderr\n"
    "                         (default: $ORRERY_PROGRESS or 10; 0: none)\n"
    "  --host-compute         charge the host code's measured CPU time too\n"
    "  --keep-temps           keep the platform, hostfile and report\n"
    "  --smpi-cfg KEY:VALUE   extra SimGrid setting, applied last "
    "(repeatable)\n"
    "  --device-value FILE:LINE=VALUE\n"
    "                         what the device-to-host copy at FILE:LINE reads "
    "(a\n"
    "                         convergence norm, a flag); default 0; "
    "repeatable;\n"
    "                         FILE:LINE@ARG=VALUE: what the kernel launched "
    "there\n"
    "                         leaves where its pointer argument ARG points\n"
    "  --device-values FILE   a YAML map of FILE:LINE: VALUE for many reads\n"
    "  --replay-reads FILE    values a native run read (ORRERY_RECORD_READS;\n"
    "                         one file per rank, repeatable): each read gets "
    "the\n"
    "                         recorded value, in order\n"
    "  --clock-read-growth F  a clock read in a polling loop costs up to F "
    "times\n"
    "                         the loop so far (default 0.5; 0: 10 ns each)\n"
    "  --gpu-bind none|local  local: each rank sees one GPU, its local "
    "rank's\n"
    "                         (as CUDA_VISIBLE_DEVICES=$SLURM_LOCALID); "
    "default none:\n"
    "                         every rank sees all GPUs of its node\n"
    "  --shared-host-threshold BYTES\n"
    "                         host allocations this large share one set of "
    "pages\n"
    "                         among all ranks (default 16 MiB; 0: never)\n"
    "  --dry-run              prepare everything, print the smpirun command, "
    "stop\n"
    "  -v, --verbose          print the placement, environment and command\n"
    "  -h, --help             this help\n"
    "\n"
    "The exit status is the program's. See docs/orrery-run.md.\n";

const char *networkModeName(NetworkMode M) {
  switch (M) {
  case NetworkMode::Auto:
    return "auto";
  case NetworkMode::Smpi:
    return "smpi";
  case NetworkMode::Ideal:
    return "ideal";
  }
  return "?";
}

NetworkMode resolveNetworkMode(NetworkMode Asked, bool MpiLevelFigures) {
  if (Asked != NetworkMode::Auto)
    return Asked;
  // MPI-level figures already include what SMPI's factors would take off
  // the line rate; applying them too would count MPI's overheads twice.
  return MpiLevelFigures ? NetworkMode::Ideal : NetworkMode::Smpi;
}

namespace {

bool wholeNumber(const std::string &S, int &Out) {
  char *End = nullptr;
  errno = 0;
  long V = std::strtol(S.c_str(), &End, 10);
  if (S.empty() || *End != '\0' || errno != 0 || V < 1 || V > (1L << 24))
    return false;
  Out = static_cast<int>(V);
  return true;
}

bool nonNegative(const std::string &S, double &Out) {
  char *End = nullptr;
  errno = 0;
  double V = std::strtod(S.c_str(), &End);
  if (S.empty() || *End != '\0' || errno != 0 || !std::isfinite(V) || V < 0)
    return false;
  Out = V;
  return true;
}

using Setter = std::function<bool(RunOptions &, const std::string &Value,
                                  std::string &Error)>;

Setter count(int RunOptions::*Field, const char *Name) {
  return [Field, Name](RunOptions &O, const std::string &V, std::string &E) {
    if (wholeNumber(V, O.*Field))
      return true;
    E = std::string(Name) + " needs a whole number >= 1, not '" + V + "'";
    return false;
  };
}

Setter text(std::string RunOptions::*Field, const char *Name) {
  return [Field, Name](RunOptions &O, const std::string &V, std::string &E) {
    if (V.empty()) {
      E = std::string(Name) + " needs a non-empty value";
      return false;
    }
    O.*Field = V;
    return true;
  };
}

/// Options taking a value, by every spelling.
const std::map<std::string, Setter> &valuedOptions() {
  static const std::map<std::string, Setter> Options = [] {
    std::map<std::string, Setter> M;
    M["-np"] = M["--np"] = count(&RunOptions::Ranks, "-np");
    M["--machine"] = text(&RunOptions::Machine, "--machine");
    M["--network-file"] = text(&RunOptions::NetworkFile, "--network-file");
    M["--nodes"] = count(&RunOptions::Nodes, "--nodes");
    M["--ranks-per-node"] =
        count(&RunOptions::RanksPerNode, "--ranks-per-node");
    M["--trace"] = text(&RunOptions::Trace, "--trace");
    M["--report"] = text(&RunOptions::Report, "--report");
    M["--plot"] = text(&RunOptions::Plot, "--plot");
    M["--print-report"] = text(&RunOptions::PrintReport, "--print-report");
    M["--network"] = [](RunOptions &O, const std::string &V, std::string &E) {
      for (NetworkMode Mode :
           {NetworkMode::Auto, NetworkMode::Smpi, NetworkMode::Ideal})
        if (V == networkModeName(Mode)) {
          O.Network = Mode;
          return true;
        }
      E = "--network must be 'auto', 'smpi' or 'ideal', not '" + V + "'";
      return false;
    };
    M["--progress"] = [](RunOptions &O, const std::string &V, std::string &E) {
      double S;
      if (nonNegative(V, S)) {
        O.Progress = S;
        return true;
      }
      E = "--progress needs a number of seconds >= 0, not '" + V + "'";
      return false;
    };
    M["--clock-read-growth"] = [](RunOptions &O, const std::string &V,
                                  std::string &E) {
      double G;
      if (nonNegative(V, G) && G <= 1) {
        O.ClockReadGrowth = V;
        return true;
      }
      E = "--clock-read-growth needs a fraction from 0 to 1 (what a clock "
          "read in a polling loop may cost relative to the loop so far), "
          "not '" +
          V + "'";
      return false;
    };
    M["--gpu-bind"] = [](RunOptions &O, const std::string &V, std::string &E) {
      if (V == "none" || V == "local") {
        O.GpuBind = V;
        return true;
      }
      E = "--gpu-bind is 'none' (every rank sees all GPUs of its node) or "
          "'local' (each rank sees only its local rank's GPU), not '" +
          V + "'";
      return false;
    };
    M["--device-value"] = [](RunOptions &O, const std::string &V,
                             std::string &E) {
      DeviceValue D;
      if (!parseDeviceValue(V, "--device-value", D, E))
        return false;
      O.DeviceValues.push_back(std::move(D));
      return true;
    };
    M["--device-values"] = [](RunOptions &O, const std::string &V,
                              std::string &E) {
      return readDeviceValueFile(V, O.DeviceValues, E);
    };
    M["--replay-reads"] = [](RunOptions &O, const std::string &V,
                             std::string &E) {
      return addReplayFile(V, O.ReplayReads, E);
    };
    M["--shared-host-threshold"] = [](RunOptions &O, const std::string &V,
                                      std::string &E) {
      if (V.empty() || V.size() > 19 ||
          V.find_first_not_of("0123456789") != std::string::npos) {
        E = "--shared-host-threshold needs a number of bytes (0: never "
            "share), not '" +
            V + "'";
        return false;
      }
      O.SharedHostThreshold = V;
      return true;
    };
    M["--smpi-cfg"] = [](RunOptions &O, const std::string &V, std::string &E) {
      std::size_t Colon = V.find(':');
      if (Colon == std::string::npos || Colon == 0 || Colon + 1 == V.size()) {
        E = "--smpi-cfg needs KEY:VALUE (e.g. smpi/host-speed:1Gf), not '" + V +
            "'";
        return false;
      }
      if (V.find_first_of(" \t\n") != std::string::npos) {
        E = "--smpi-cfg '" + V +
            "' contains white space, which smpirun would split into "
            "separate settings";
        return false;
      }
      O.SmpiCfg.push_back(V);
      return true;
    };
    return M;
  }();
  return Options;
}

/// Options without a value, by every spelling.
const std::map<std::string, bool RunOptions::*> &flagOptions() {
  static const std::map<std::string, bool RunOptions::*> Flags = {
      {"--host-compute", &RunOptions::HostCompute},
      {"--keep-temps", &RunOptions::KeepTemps},
      {"-v", &RunOptions::Verbose},
      {"--verbose", &RunOptions::Verbose},
      {"--dry-run", &RunOptions::DryRun},
      {"-h", &RunOptions::Help},
      {"--help", &RunOptions::Help},
  };
  return Flags;
}

} // namespace

bool parseRunOptions(int Argc, const char *const *Argv, RunOptions &Out,
                     std::string &Error) {
  int I = 1;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A.size() < 2 || A[0] != '-')
      break; // the program
    std::string Name = A, Value;
    bool HasValue = false;
    if (std::size_t Eq = A.find('='); Eq != std::string::npos) {
      Name = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
      HasValue = true;
    }
    if (auto Flag = flagOptions().find(Name); Flag != flagOptions().end()) {
      if (HasValue) {
        Error = "option " + Name + " takes no value";
        return false;
      }
      Out.*(Flag->second) = true;
      continue;
    }
    auto It = valuedOptions().find(Name);
    if (It == valuedOptions().end()) {
      Error = "unknown option '" + A +
              "' (orrery-run's options go before the program)";
      return false;
    }
    if (!HasValue) {
      if (I + 1 >= Argc) {
        Error = "option " + Name + " needs a value";
        return false;
      }
      Value = Argv[++I];
    }
    if (!It->second(Out, Value, Error))
      return false;
  }
  if (I < Argc) {
    Out.App = Argv[I];
    Out.AppArgs.assign(Argv + I + 1, Argv + Argc);
  }
  return true;
}

} // namespace orrery::run
