//===- Commands.cpp - orrery-model subcommands ----------------------------===//

#include "Commands.h"

#include "Options.h"

#include "orrery/models/CommCost.h"
#include "orrery/models/KernelModel.h"
#include "orrery/models/MachineFile.h"

#include <cstdio>
#include <iostream>
#include <optional>
#include <set>

namespace orrery::tool {

using namespace orrery::models;

namespace {

int usageError(const std::string &Cmd, const std::string &Msg) {
  std::cerr << "orrery-model " << Cmd << ": " << Msg
            << "\n(run 'orrery-model --help' for usage)\n";
  return 2;
}

void printErrors(const ParsedFile &F) {
  for (const Diagnostic &D : F.Errors)
    std::cerr << D.str() << "\n";
}

/// Loads --machine (and --network when given) or prints why not.
std::optional<Machine> loadMachine(const Options &O, const std::string &Cmd) {
  if (!O.has("machine")) {
    usageError(Cmd, "--machine FILE is required");
    return std::nullopt;
  }
  ParsedFile F = loadMachineFile(O.get("machine", ""));
  if (!F.ok()) {
    printErrors(F);
    return std::nullopt;
  }
  if (F.Type != FileType::Machine) {
    std::cerr << O.get("machine", "")
              << ": error: this is a network file; pass a machine file to "
                 "--machine and this one to --network\n";
    return std::nullopt;
  }
  if (O.has("network")) {
    ParsedFile N = loadMachineFile(O.get("network", ""));
    if (!N.ok()) {
      printErrors(N);
      return std::nullopt;
    }
    applyNetwork(F.M, N.M);
  }
  return F.M;
}

void printCost(const Cost &C) {
  for (int I = 0; I < NumCostCategories; ++I) {
    auto Cat = static_cast<CostCategory>(I);
    if (C[Cat] != 0)
      std::cout << "  " << costCategoryName(Cat) << ": "
                << formatQuantity(C[Cat], Dimension::Time) << "\n";
  }
  std::cout << "total: " << formatQuantity(C.total(), Dimension::Time) << "\n";
  char Share[32];
  std::snprintf(Share, sizeof(Share), "%.1f", 100.0 * C.estimateShare());
  std::cout << "on estimates: "
            << formatQuantity(C.estimated(), Dimension::Time) << " (" << Share
            << "%)\n";
}

bool parseEndpoint(const std::string &S, Endpoint &E) {
  int Node = 0, Gpu = 0;
  char Space[16] = {0};
  char Extra = 0;
  if (std::sscanf(S.c_str(), "%d:%d:%15[a-z]%c", &Node, &Gpu, Space, &Extra) !=
          3 ||
      Node < 0 || Gpu < 0)
    return false;
  std::string Sp = Space;
  if (Sp != "host" && Sp != "device")
    return false;
  E = {Node, Gpu, Sp == "host" ? MemorySpace::Host : MemorySpace::Device};
  return true;
}

bool endpoints(const Options &O, const Machine &M, const std::string &Cmd,
               Endpoint &S, Endpoint &R) {
  for (auto [Key, E] : {std::pair{"send", &S}, std::pair{"recv", &R}}) {
    if (!parseEndpoint(O.get(Key, ""), *E)) {
      usageError(Cmd, std::string("--") + Key +
                          " must be NODE:GPU:host|device, e.g. 0:1:device");
      return false;
    }
    if (E->Gpu >= M.gpusPerNode()) {
      usageError(Cmd, std::string("--") + Key + ": GPU " +
                          std::to_string(E->Gpu) + " does not exist; '" +
                          M.Name + "' has " + std::to_string(M.gpusPerNode()) +
                          " per node");
      return false;
    }
  }
  return true;
}

} // namespace

int runCheck(const std::vector<std::string> &Args) {
  Options O;
  std::string Err;
  if (!O.parse(Args, {}, {"quiet", "keys"}, Err))
    return usageError("check", Err);
  if (O.Positional.empty())
    return usageError("check", "name at least one machine file");
  // --keys: instead of a line per file, every key the reader asked for.
  std::set<std::string> Keys;
  if (O.has("keys"))
    recordMachineKeys(&Keys);
  int Status = 0;
  for (const std::string &Path : O.Positional) {
    ParsedFile F = loadMachineFile(Path);
    if (!F.ok()) {
      printErrors(F);
      std::cerr << Path << ": " << F.Errors.size() << " error"
                << (F.Errors.size() == 1 ? "" : "s") << "\n";
      Status = 1;
      continue;
    }
    if (!O.has("quiet") && !O.has("keys")) {
      char Share[32];
      std::snprintf(Share, sizeof(Share), "%.1f", 100.0 * F.M.estimateShare());
      std::cout << Path << ": ok ("
                << (F.Type == FileType::Machine ? "machine" : "network") << " '"
                << F.M.Name << "', " << F.M.Quantities.size() << " numbers, "
                << Share << "% estimates)\n";
    }
  }
  recordMachineKeys(nullptr);
  for (const std::string &K : Keys)
    std::cout << K << "\n";
  return Status;
}

int runShow(const std::vector<std::string> &Args) {
  Options O;
  std::string Err;
  if (!O.parse(Args, {"network"}, {}, Err))
    return usageError("show", Err);
  if (O.Positional.size() != 1)
    return usageError("show", "name exactly one machine file");
  ParsedFile F = loadMachineFile(O.Positional[0]);
  if (!F.ok()) {
    printErrors(F);
    return 1;
  }
  if (O.has("network")) {
    ParsedFile N = loadMachineFile(O.get("network", ""));
    if (!N.ok()) {
      printErrors(N);
      return 1;
    }
    if (N.Type != FileType::Network)
      return usageError("show", "--network needs a network file");
    applyNetwork(F.M, N.M);
  }
  const Machine &M = F.M;
  std::cout << (F.Type == FileType::Machine ? "machine " : "network ")
            << M.Name;
  if (!M.Description.empty())
    std::cout << ": " << M.Description;
  std::cout << "\n";
  if (F.Type == FileType::Machine)
    std::cout << "gpu: " << M.Gpu.Model << "\ncpu: " << M.Node.Cpu.Model
              << "\ngpu links: "
              << (M.Node.Peer.Kind == PeerLinkKind::NVLink ? "nvlink"
                  : M.Node.Peer.Kind == PeerLinkKind::PCIe ? "pcie"
                                                           : "none")
              << "\nmpi: " << M.Mpi.Implementation << " (selector "
              << M.Mpi.CollectiveSelector << ")\n";
  std::cout << "network: " << M.Network.Name << " ("
            << topologyName(M.Network.Topology.Kind) << ", GPUDirect RDMA "
            << (M.Network.Nic.GpuDirectRdma ? "on" : "off") << ", "
            << networkFiguresName(M.Network.Figures) << "-level figures)\n";
  if (F.Type == FileType::Machine) {
    std::string Bounce;
    for (Collective C : M.Mpi.HostBounce)
      Bounce += (Bounce.empty() ? "" : ", ") + std::string(collectiveName(C));
    std::cout << "host bounce: " << (Bounce.empty() ? "none" : Bounce) << "\n";
  }
  std::size_t Est = 0;
  for (const NamedQuantity &NQ : M.Quantities) {
    const Quantity &Q = NQ.Q;
    std::cout << NQ.Path << " = " << formatQuantity(Q.Value, Q.Dim) << " ["
              << valueKindName(Q.Kind) << "] " << Q.Source << "\n";
    if (Q.Kind == ValueKind::Estimate)
      ++Est;
  }
  char Share[32];
  std::snprintf(Share, sizeof(Share), "%.1f", 100.0 * M.estimateShare());
  std::cout << M.Quantities.size() << " numbers, " << Est << " estimates ("
            << Share << "%)\n";
  return 0;
}

int runTransport(const std::vector<std::string> &Args) {
  Options O;
  std::string Err;
  if (!O.parse(Args, {"machine", "network", "send", "recv"}, {}, Err))
    return usageError("transport", Err);
  auto M = loadMachine(O, "transport");
  if (!M)
    return 1;
  Endpoint S, R;
  if (!endpoints(O, *M, "transport", S, R))
    return 2;
  std::cout << selectTransport(CommParams::fromMachine(*M), S, R).str() << "\n";
  return 0;
}

int runP2p(const std::vector<std::string> &Args) {
  Options O;
  std::string Err;
  if (!O.parse(Args,
               {"machine", "network", "send", "recv", "bytes", "recv-bytes",
                "net-time"},
               {}, Err))
    return usageError("p2p", Err);
  auto M = loadMachine(O, "p2p");
  if (!M)
    return 1;
  Endpoint S, R;
  if (!endpoints(O, *M, "p2p", S, R))
    return 2;
  if (!O.has("bytes"))
    return usageError("p2p", "--bytes N is required");
  double Bytes = O.number("bytes", 0, Err);
  double RecvBytes = O.number("recv-bytes", Bytes, Err);
  double Net = O.number("net-time", 0, Err);
  if (!Err.empty())
    return usageError("p2p", Err);
  if (Bytes < 0 || RecvBytes < 0 || Net < 0)
    return usageError("p2p", "sizes and times must not be negative");
  CommParams P = CommParams::fromMachine(*M);
  TransportChoice T = selectTransport(P, S, R);
  std::cout << "transport: " << T.str() << "\n";
  printCost(p2pCost(P, T, Bytes, RecvBytes, Net));
  return 0;
}

int runCollective(const std::vector<std::string> &Args) {
  Options O;
  std::string Err;
  if (!O.parse(Args,
               {"machine", "network", "op", "space", "bytes", "recv-bytes",
                "span", "net-time"},
               {}, Err))
    return usageError("coll", Err);
  auto M = loadMachine(O, "coll");
  if (!M)
    return 1;
  CollectiveCall C;
  if (!parseCollective(O.get("op", ""), C.Op))
    return usageError("coll", "--op must name a collective (allreduce, "
                              "reduce, bcast, allgather, ...)");
  std::string Space = O.get("space", "device");
  if (Space != "host" && Space != "device")
    return usageError("coll", "--space must be host or device");
  C.Space = Space == "host" ? MemorySpace::Host : MemorySpace::Device;
  std::string Span = O.get("span", "other-node");
  if (Span == "same-gpu")
    C.Span = Locality::SameGpu;
  else if (Span == "same-node")
    C.Span = Locality::SameNode;
  else if (Span == "other-node")
    C.Span = Locality::OtherNode;
  else
    return usageError("coll", "--span must be same-gpu, same-node or "
                              "other-node");
  C.SendBytes = O.number("bytes", 0, Err);
  C.RecvBytes = O.number("recv-bytes", C.SendBytes, Err);
  double Net = O.number("net-time", 0, Err);
  if (!Err.empty())
    return usageError("coll", Err);
  CommParams P = CommParams::fromMachine(*M);
  std::cout << "equation: "
            << (bouncesThroughHost(P, C) ? "T_coll^op (host bounce)" : "T_coll")
            << "\n";
  printCost(collectiveCost(P, C, Net));
  return 0;
}

int runKernel(const std::vector<std::string> &Args) {
  Options O;
  std::string Err;
  std::set<std::string> Keys = {"machine",    "network",       "blocks",
                                "threads",    "shared",        "registers",
                                "bytes-read", "bytes-written", "active-threads",
                                "int-ops",    "model"};
  for (const char *P : {"fp64", "fp32", "fp16"})
    for (const char *Op : {"flops", "div", "sqrt", "transcendental"})
      Keys.insert(std::string(Op) + "-" + P);
  if (!O.parse(Args, Keys, {}, Err))
    return usageError("kernel", Err);
  auto M = loadMachine(O, "kernel");
  if (!M)
    return 1;
  if (!O.has("blocks") || !O.has("threads"))
    return usageError("kernel", "--blocks N and --threads N are required");
  // Launch geometry: whole numbers in range.
  auto Whole = [&](const char *Key, double Default, double Min, double Max) {
    double V = O.number(Key, Default, Err);
    if (Err.empty() && (V < Min || V > Max ||
                        V != static_cast<double>(static_cast<long long>(V))))
      Err = std::string("--") + Key + " must be a whole number in [" +
            std::to_string(static_cast<long long>(Min)) + ", " +
            std::to_string(static_cast<long long>(Max)) + "]";
    return V;
  };
  LaunchConfig L;
  L.Blocks = static_cast<std::uint64_t>(Whole("blocks", 1, 1, 1e15));
  L.ThreadsPerBlock =
      static_cast<std::uint32_t>(Whole("threads", 1, 1, 1 << 20));
  L.SharedBytesPerBlock =
      static_cast<std::uint32_t>(Whole("shared", 0, 0, 1 << 30));
  L.RegistersPerThread =
      static_cast<std::uint32_t>(Whole("registers", 32, 0, 1 << 16));
  if (!Err.empty())
    return usageError("kernel", Err);
  KernelWork W;
  const char *Prec[] = {"fp64", "fp32", "fp16"};
  for (int P = 0; P < NumPrecisions; ++P) {
    std::string S = Prec[P];
    W.Flops[P] = O.number("flops-" + S, 0, Err);
    W.Divides[P] = O.number("div-" + S, 0, Err);
    W.Sqrts[P] = O.number("sqrt-" + S, 0, Err);
    W.Transcendentals[P] = O.number("transcendental-" + S, 0, Err);
  }
  W.IntOps = O.number("int-ops", 0, Err);
  W.BytesRead = O.number("bytes-read", 0, Err);
  W.BytesWritten = O.number("bytes-written", 0, Err);
  W.ActiveThreads = O.number("active-threads", -1, Err);
  if (!Err.empty())
    return usageError("kernel", Err);
  for (int P = 0; P < NumPrecisions; ++P)
    if (W.Flops[P] < 0 || W.Divides[P] < 0 || W.Sqrts[P] < 0 ||
        W.Transcendentals[P] < 0)
      return usageError("kernel", "operation counts must not be negative");
  if (W.IntOps < 0 || W.BytesRead < 0 || W.BytesWritten < 0)
    return usageError("kernel", "counts and bytes must not be negative");
  std::string Model = O.get("model", "roofline");
  if (Model != "roofline" && Model != "single-rate")
    return usageError("kernel", "--model must be roofline or single-rate");
  KernelEstimate E =
      kernelTime(GpuParams::fromMachine(*M), W, L,
                 Model == "roofline" ? KernelModelKind::Roofline
                                     : KernelModelKind::SingleRate);
  if (!E.ok()) {
    std::cerr << "orrery-model kernel: error: " << E.Error << "\n";
    return 1;
  }
  char Occ[32];
  std::snprintf(Occ, sizeof(Occ), "%.3g", E.Occ.Fraction);
  std::cout << "model: " << Model << "\noccupancy: " << E.Occ.BlocksPerSm
            << " blocks/SM, " << E.Occ.WarpsPerSm << " warps/SM (" << Occ
            << ", limited by " << E.Occ.Limiter << ")\n";
  if (Model == "roofline")
    std::cout << "waves: " << E.Waves << " (" << E.WorkingBlocks
              << " working blocks)\n";
  printCost(E.Time);
  return 0;
}

} // namespace orrery::tool
