//===- Main.cpp - orrery-platform: SimGrid platform from a machine model --===//
//
//   orrery-platform --machine FILE [--network FILE] [--nodes N]
//                   [-o platform.xml] [--hostfile FILE] [--ranks-per-node N]
//
// Writes a SimGrid platform (XML 4.1) and, optionally, an SMPI hostfile with
// one CPU host per rank. Options are parsed by hand: the tool must build
// without LLVM.
//
//===----------------------------------------------------------------------===//

#include "orrery/models/MachineFile.h"
#include "orrery/models/Platform.h"
#include "orrery/support/AtomicFile.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

using namespace orrery::models;

namespace {

const char *Usage =
    "usage: orrery-platform --machine FILE [--network FILE] [--nodes N]\n"
    "                       [-o PLATFORM.xml] [--hostfile FILE]\n"
    "                       [--ranks-per-node N]\n"
    "\n"
    "Writes a SimGrid platform (XML version 4.1) for the machine model:\n"
    "one zone per node with a CPU host and one host per GPU, PCIe links per\n"
    "direction, NVLink links per the node topology, a NIC per GPU, joined by\n"
    "the system topology (fat-tree, dragonfly or flat).\n"
    "\n"
    "  --machine FILE        machine file (docs/machine-file.md)\n"
    "  --network FILE        network file replacing the machine's network\n"
    "  --nodes N             node count (default: the file's system.nodes)\n"
    "  -o FILE               platform output (default: standard output)\n"
    "  --hostfile FILE       also write an SMPI hostfile, one CPU host per "
    "rank\n"
    "  --ranks-per-node N    ranks per node in the hostfile (default: GPUs "
    "per node)\n";

int usageError(const std::string &Msg) {
  std::cerr << "orrery-platform: " << Msg
            << "\n(run 'orrery-platform --help' for usage)\n";
  return 2;
}

bool positiveInt(const std::string &S, int &Out) {
  char *End = nullptr;
  long V = std::strtol(S.c_str(), &End, 10);
  if (S.empty() || *End != '\0' || V < 1 || V > (1 << 22))
    return false;
  Out = static_cast<int>(V);
  return true;
}

bool loadInto(const std::string &Path, FileType Want, ParsedFile &F) {
  F = loadMachineFile(Path);
  for (const Diagnostic &D : F.Errors)
    std::cerr << D.str() << "\n";
  if (!F.ok())
    return false;
  if (F.Type != Want) {
    std::cerr << Path << ": error: expected a "
              << (Want == FileType::Machine ? "machine" : "network")
              << " file (type: "
              << (Want == FileType::Machine ? "machine" : "network") << ")\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::map<std::string, std::string> Opt;
  const char *Valued[] = {"--machine", "--network",  "--nodes",
                          "-o",        "--hostfile", "--ranks-per-node"};
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "-h" || A == "--help") {
      std::cout << Usage;
      return 0;
    }
    std::string Key = A, Value;
    bool HasValue = false;
    if (auto Eq = A.find('=');
        A.rfind("--", 0) == 0 && Eq != std::string::npos) {
      Key = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
      HasValue = true;
    }
    bool Known = false;
    for (const char *V : Valued)
      Known |= Key == V;
    if (!Known)
      return usageError("unknown argument '" + A + "'");
    if (!HasValue) {
      if (I + 1 >= argc)
        return usageError("option " + Key + " needs a value");
      Value = argv[++I];
    }
    Opt[Key] = Value;
  }
  if (!Opt.count("--machine"))
    return usageError("--machine FILE is required");

  auto Start = std::chrono::steady_clock::now();
  ParsedFile F;
  if (!loadInto(Opt["--machine"], FileType::Machine, F))
    return 1;
  if (Opt.count("--network")) {
    ParsedFile N;
    if (!loadInto(Opt["--network"], FileType::Network, N))
      return 1;
    applyNetwork(F.M, N.M);
  }
  PlatformOptions PO;
  PO.Nodes = static_cast<int>(F.M.Nodes.Value);
  PO.Origin = Opt["--machine"];
  if (Opt.count("--nodes") && !positiveInt(Opt["--nodes"], PO.Nodes))
    return usageError("--nodes needs a whole number >= 1, not '" +
                      Opt["--nodes"] + "'");
  int RanksPerNode = F.M.gpusPerNode();
  if (Opt.count("--ranks-per-node") &&
      !positiveInt(Opt["--ranks-per-node"], RanksPerNode))
    return usageError("--ranks-per-node needs a whole number >= 1");

  std::string Error;
  PlatformStats Stats;
  bool Ok;
  if (Opt.count("-o")) {
    // Generated whole, then written whole: never a partial platform file.
    std::ostringstream Out;
    Ok = writePlatform(Out, F.M, PO, Error, &Stats) &&
         orrery::support::writeFileAtomically(Opt["-o"], Out.str(), Error);
  } else {
    Ok = writePlatform(std::cout, F.M, PO, Error, &Stats);
  }
  if (!Ok) {
    std::cerr << "orrery-platform: "
              << (Error.empty() ? "writing the platform failed" : Error)
              << "\n";
    return 1;
  }
  if (Opt.count("--hostfile")) {
    std::ostringstream H;
    writeHostfile(H, PO.Nodes, RanksPerNode, railsPerNode(F.M));
    if (!orrery::support::writeFileAtomically(Opt["--hostfile"], H.str(),
                                              Error)) {
      std::cerr << "orrery-platform: " << Error << "\n";
      return 1;
    }
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (Opt.count("-o")) {
    std::fprintf(
        stderr,
        "orrery-platform: %s: %d nodes, %zu hosts, %zu links, %zu "
        "routes, %s network (%.3f s)\n",
        Opt["-o"].c_str(), PO.Nodes, Stats.Hosts, Stats.Links, Stats.Routes,
        std::string(topologyName(F.M.Network.Topology.Kind)).c_str(), Seconds);
  }
  return 0;
}
