//===- KernelReport.cpp - --report: kernel hints, evaluated per launch ----===//

#include "orrery/passes/KernelReport.h"
#include "orrery/models/KernelModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

using namespace llvm;

namespace orrery {

std::string parseLaunchSpec(StringRef Text, LaunchSpec &Out) {
  // The kernel may be an instantiation with spaces: `k<32, 4>`.
  StringRef Rest = Text.trim();
  size_t End = 0;
  for (int Depth = 0; End < Rest.size(); ++End) {
    if (Rest[End] == '<')
      ++Depth;
    else if (Rest[End] == '>')
      --Depth;
    else if (Rest[End] == ' ' && Depth <= 0)
      break;
  }
  if (Rest.empty())
    return "--launch: empty; expected 'KERNEL grid=X[,Y,Z] block=X[,Y,Z] "
           "[shmem=B] NAME=VALUE...'";
  Out.Kernel = Rest.substr(0, End).str();
  SmallVector<StringRef, 8> Words;
  Words.push_back(Out.Kernel);
  Rest.substr(End).split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (const char *D : {"x", "y", "z"}) {
    Out.Bindings[std::string("gridDim.") + D] = 1;
    Out.Bindings[std::string("blockDim.") + D] = 1;
  }
  Out.Bindings["dynSmem"] = 0;
  bool Grid = false, Block = false;
  for (StringRef W : ArrayRef<StringRef>(Words).drop_front()) {
    auto [Name, Value] = W.split('=');
    if (Value.empty())
      return formatv("--launch '{0}': '{1}' is not NAME=VALUE", Text, W);
    if (Name == "grid" || Name == "block") {
      SmallVector<StringRef, 3> Dims;
      Value.split(Dims, ',');
      if (Dims.size() > 3)
        return formatv("--launch '{0}': {1} has more than 3 dimensions", Text,
                       Name);
      for (size_t I = 0; I < Dims.size(); ++I) {
        unsigned long long V;
        if (Dims[I].getAsInteger(10, V) || V == 0)
          return formatv("--launch '{0}': {1} dimension '{2}' is not a "
                         "positive integer",
                         Text, Name, Dims[I]);
        Out.Bindings[(Name == "grid" ? "gridDim." : "blockDim.") +
                     std::string(1, "xyz"[I])] = static_cast<double>(V);
      }
      (Name == "grid" ? Grid : Block) = true;
      continue;
    }
    double V;
    if (Value.getAsDouble(V))
      return formatv("--launch '{0}': value of {1} ('{2}') is not a number",
                     Text, Name, Value);
    Out.Bindings[Name == "shmem" ? "dynSmem" : Name.str()] = V;
  }
  if (!Grid || !Block)
    return formatv("--launch '{0}': grid= and block= are required", Text);
  return "";
}

namespace {
/// A hint's counts for one launch. A count whose expression has unbound
/// symbols reads 0 and is left out of the JSON per_thread record.
struct Evaluated {
  models::ThreadCounts Counts;
  std::set<std::string> Bound; ///< counts whose expression evaluated
  std::vector<std::string> Unbound;
};

Evaluated evaluate(const KernelHint &H, const LaunchSpec &L) {
  Evaluated E;
  // A count that needs a buffer's size (bytes(p), known at run time) stays
  // "not derived" unless the launch spec gives it (`bytes(p)=N`).
  models::forEachPair(
      E.Counts, countExprs(H),
      [&](const char *Field, double &Value, const SymExpr &Expr) {
        std::set<std::string> Syms;
        Expr.symbols(Syms);
        for (const std::string &S : Syms)
          if (!bufferOfSymbol(S).empty() && !L.Bindings.count(S))
            return; // keeps the count's `missing` value
        std::optional<double> V = Expr.eval(L.Bindings);
        Value = V ? *V : 0;
        if (V) {
          E.Bound.insert(Field);
          return;
        }
        for (const std::string &S : Syms)
          if (!L.Bindings.count(S) && !is_contained(E.Unbound, S))
            E.Unbound.push_back(S);
      });
  return E;
}

/// The kernel hints a launch spec names: by name, or name<args> for one
/// instantiation.
std::vector<const KernelHint *> matching(const std::vector<KernelInfo> &Ks,
                                         StringRef Name) {
  std::vector<const KernelHint *> Out;
  for (const KernelInfo &K : Ks)
    for (const KernelHint &H : K.Instances)
      if (H.Name == Name || K.Pattern.Name == Name)
        Out.push_back(&H);
  return Out;
}

/// The launch totals the text report prints and the JSON report carries:
/// active threads times the per-thread counts (models::kernelWork), with the
/// requested bytes and footprints apart.
struct Totals {
  models::KernelWork Work;
  double Launched = 0;
  double LoadBytes = 0, StoreBytes = 0;
  double LoadFootprint = -1, StoreFootprint = -1; ///< -1: n/a
  double Atomics = 0, SameAddressAtomics = 0, GridSameAddressAtomics = 0;
};

Totals launchTotals(const Evaluated &E) {
  const models::ThreadCounts &C = E.Counts;
  Totals T;
  T.Work = models::kernelWork(C);
  T.Launched = C.threads_launched;
  double A = C.active_threads;
  T.LoadBytes = A * C.load_bytes;
  T.StoreBytes = A * C.store_bytes;
  T.LoadFootprint = C.load_footprint;
  T.StoreFootprint = C.store_footprint;
  T.Atomics = A * C.atomics;
  T.SameAddressAtomics = A * C.same_address_atomics;
  T.GridSameAddressAtomics = A * C.grid_same_address_atomics;
  return T;
}

constexpr models::Precision Reported[] = {models::Precision::FP32,
                                          models::Precision::FP64};
const char *label(models::Precision P) {
  return P == models::Precision::FP32 ? "fp32" : "fp64";
}

void printTotals(raw_ostream &OS, const Evaluated &E) {
  Totals T = launchTotals(E);
  const models::KernelWork &W = T.Work;
  auto I = [](models::Precision P) { return static_cast<int>(P); };
  OS << "    threads: " << formatCount(T.Launched) << " launched, "
     << formatCount(W.ActiveThreads) << " active\n";
  OS << "    flops: fp32 " << formatCount(W.Flops[I(models::Precision::FP32)])
     << ", fp64 " << formatCount(W.Flops[I(models::Precision::FP64)]) << "\n";
  for (models::Precision P : Reported)
    if (W.Divides[I(P)] || W.Sqrts[I(P)] || W.Transcendentals[I(P)])
      OS << "    " << label(P) << " div " << formatCount(W.Divides[I(P)])
         << ", sqrt " << formatCount(W.Sqrts[I(P)]) << ", transcendental "
         << formatCount(W.Transcendentals[I(P)]) << "\n";
  auto Fp = [](double V) {
    return V < 0 ? std::string("n/a") : formatCount(V);
  };
  OS << "    bytes loaded: " << formatCount(T.LoadBytes) << " requested, "
     << Fp(T.LoadFootprint) << " footprint\n";
  OS << "    bytes stored: " << formatCount(T.StoreBytes) << " requested, "
     << Fp(T.StoreFootprint) << " footprint\n";
  // Worth a line where the L1's data stage reads more than is requested
  // (bank conflicts) or where a load spreads over many lines.
  if (W.L1Loads >= 0 && std::fabs(W.L1Loads - T.LoadBytes) > 0.01 * W.L1Loads)
    OS << "    L1 data stage: " << formatCount(W.L1Loads)
       << " bytes of wavefronts for the loads (bank conflicts, lines "
          "spread)\n";
  if (W.ReusedReads > 0)
    OS << "    re-reads: " << formatCount(W.ReusedReads)
       << " bytes loaded again; one block loads " << Fp(W.BlockLoadFootprint)
       << " distinct bytes\n";
  if (W.DependentLoads > 0)
    OS << "    dependent loads: " << formatCount(W.DependentLoads)
       << " (an address an earlier load returned: one latency each)\n";
  if (W.BytesInFlight > 0)
    OS << "    loads in flight: " << formatCount(W.BytesInFlight)
       << " bytes per thread (#pragma unroll)\n";
  if (T.Atomics)
    OS << "    atomics: " << formatCount(T.Atomics) << " ("
       << formatCount(T.SameAddressAtomics) << " to a shared address)\n";
  if (T.SameAddressAtomics)
    OS << "    same-address atomics: " << formatCount(T.GridSameAddressAtomics)
       << " to one address for the launch, "
       << formatCount(T.SameAddressAtomics - T.GridSameAddressAtomics)
       << " to one address per block\n";
  if (W.RemoteBytes > 0)
    OS << "    remote bytes: " << formatCount(W.RemoteBytes)
       << " moved between GPUs by NVSHMEM calls (charged approximately)\n";
  double Flops =
      W.Flops[I(models::Precision::FP32)] + W.Flops[I(models::Precision::FP64)];
  double Intensity = Flops / std::max(1.0, T.LoadBytes + T.StoreBytes);
  OS << formatv("    arithmetic intensity: {0:F3} flop/byte (requested)\n",
                Intensity);
  if (!E.Unbound.empty()) {
    OS << "    unbound symbols (pass NAME=VALUE):";
    for (const std::string &S : E.Unbound)
      OS << " " << S;
    OS << "\n";
  }
}

nlohmann::json totalsJson(const Evaluated &E) {
  Totals T = launchTotals(E);
  auto Fp = [](double V) {
    return V < 0 ? nlohmann::json(nullptr) : nlohmann::json(V);
  };
  nlohmann::json J = {{"threads_launched", T.Launched},
                      {"active_threads", T.Work.ActiveThreads},
                      {"load_bytes_requested", T.LoadBytes},
                      {"load_bytes_footprint", Fp(T.LoadFootprint)},
                      {"store_bytes_requested", T.StoreBytes},
                      {"store_bytes_footprint", Fp(T.StoreFootprint)},
                      {"block_load_footprint", Fp(T.Work.BlockLoadFootprint)},
                      {"reused_load_bytes", T.Work.ReusedReads},
                      {"dependent_loads", T.Work.DependentLoads},
                      {"bytes_in_flight", T.Work.BytesInFlight},
                      {"l1_load_bytes", Fp(T.Work.L1Loads)},
                      {"load_register_bytes", Fp(T.Work.LoadRegisterBytes)},
                      {"atomics", T.Atomics},
                      {"same_address_atomics", T.SameAddressAtomics},
                      {"grid_same_address_atomics", T.GridSameAddressAtomics},
                      {"remote_bytes", T.Work.RemoteBytes}};
  for (models::Precision P : Reported) {
    int I = static_cast<int>(P);
    std::string S = label(P);
    J["flops_" + S] = T.Work.Flops[I];
    J["div_" + S] = T.Work.Divides[I];
    J["sqrt_" + S] = T.Work.Sqrts[I];
    J["transc_" + S] = T.Work.Transcendentals[I];
  }
  return J;
}

/// The models' view of one evaluated launch.
struct Prediction : models::LaunchPrediction {
  unsigned Registers = 0;
  std::string RegistersFrom; ///< "ptxas sm_90" or "assumed"
};

Prediction predict(const models::Machine &M, const KernelHint &H,
                   const Evaluated &E, const LaunchSpec &L) {
  models::LaunchConfig C;
  C.Blocks = static_cast<std::uint64_t>(L.Bindings.at("gridDim.x") *
                                        L.Bindings.at("gridDim.y") *
                                        L.Bindings.at("gridDim.z"));
  C.ThreadsPerBlock = static_cast<std::uint32_t>(L.Bindings.at("blockDim.x") *
                                                 L.Bindings.at("blockDim.y") *
                                                 L.Bindings.at("blockDim.z"));
  C.SharedBytesPerBlock = static_cast<std::uint32_t>(L.Bindings.at("dynSmem"));
  if (H.Resources)
    C.RegistersPerThread = H.Resources->Registers;
  Prediction P;
  static_cast<models::LaunchPrediction &>(P) =
      models::predictLaunch(models::GpuParams::fromMachine(M), E.Counts, C);
  P.Registers = C.RegistersPerThread;
  P.RegistersFrom = H.Resources ? "ptxas " + H.Resources->Arch : "assumed";
  return P;
}

void printResources(raw_ostream &OS, const DeviceResources &R) {
  OS << "ptxas " << R.Arch << ": " << R.Registers
     << " registers per thread, spills " << R.SpillStoreBytes << " B stored / "
     << R.SpillLoadBytes << " B loaded, stack " << R.StackBytes
     << " B, static shared " << R.StaticSharedBytes << " B per block\n";
}

void printPrediction(raw_ostream &OS, const Prediction &P) {
  if (!P.Roofline.ok()) {
    OS << "    predicted: launch is invalid on this machine: "
       << P.Roofline.Error << "\n";
    return;
  }
  OS << formatv("    roofline: {0} bound (compute-bound waves {1:F3} us, "
                "memory-bound waves {2:F3} us); occupancy {3:F2} ({4} "
                "blocks/SM, limited by {5}), {6} wave(s); {7} registers per "
                "thread ({8})\n",
                P.Bound, P.Roofline.ComputeTime * 1e6,
                P.Roofline.MemoryTime * 1e6, P.Roofline.Occ.Fraction,
                P.Roofline.Occ.BlocksPerSm, P.Roofline.Occ.Limiter,
                P.Roofline.Waves, P.Registers, P.RegistersFrom);
  if (P.Roofline.AtomicTime > 0)
    OS << formatv("    same-address atomics serialised: {0:F3} us\n",
                  P.Roofline.AtomicTime * 1e6);
  if (P.Roofline.RemoteTime > 0)
    OS << formatv("    NVSHMEM transfers at the peer link bandwidth: {0:F3} "
                  "us (beside the kernel's work; waits for peers not "
                  "charged)\n",
                  P.Roofline.RemoteTime * 1e6);
  OS << "    predicted: " << P.Roofline.Time.str() << "; "
     << formatv("{0:P0}", P.Roofline.Time.estimateShare())
     << " of it rests on estimated machine numbers\n";
  if (P.SingleRate.ok())
    OS << "    single-rate baseline (the paper's R): "
       << P.SingleRate.Time.str() << "\n";
}
} // namespace

std::string reportText(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M, StringRef DeviceNote) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "== Kernel cost hints (" << Kernels.size() << " kernel"
     << (Kernels.size() == 1 ? "" : "s") << ")\n";
  if (!DeviceNote.empty())
    OS << "note: registers per thread not from ptxas: " << DeviceNote
       << "; occupancy assumes 32\n";
  for (const KernelInfo &K : Kernels) {
    for (const KernelHint &H : K.Instances) {
      OS << "\n" << hintComment(H);
      if (H.Resources)
        printResources(OS, *H.Resources);
    }
  }
  for (const LaunchSpec &L : Launches) {
    std::vector<const KernelHint *> Hs = matching(Kernels, L.Kernel);
    OS << "\n== Launch " << L.Kernel
       << " grid=" << formatCount(L.Bindings.at("gridDim.x")) << ","
       << formatCount(L.Bindings.at("gridDim.y")) << ","
       << formatCount(L.Bindings.at("gridDim.z"))
       << " block=" << formatCount(L.Bindings.at("blockDim.x")) << ","
       << formatCount(L.Bindings.at("blockDim.y")) << ","
       << formatCount(L.Bindings.at("blockDim.z")) << "\n";
    if (Hs.empty())
      OS << "  no kernel named '" << L.Kernel << "' in the inputs\n";
    for (const KernelHint *H : Hs) {
      OS << "  " << H->Name << " (" << H->Location << "), confidence "
         << models::confidenceName(H->Confidence) << "\n";
      Evaluated E = evaluate(*H, L);
      printTotals(OS, E);
      if (H->Overridden)
        OS << "    measured duration (side file): "
           << formatCount(H->MeasuredMicros) << " us; it wins over the model\n";
      if (M && E.Unbound.empty())
        printPrediction(OS, predict(*M, *H, E, L));
    }
  }
  return Out;
}

std::string reportJson(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M, StringRef DeviceNote) {
  using nlohmann::json;
  json Ks = json::array();
  for (const KernelInfo &K : Kernels)
    for (const KernelHint &H : K.Instances) {
      json Ops = json::object();
      for (auto [Label, F] :
           {std::pair<const char *, const FpOps *>{"fp32", &H.Fp32},
            {"fp64", &H.Fp64}})
        Ops[Label] = {{"add", F->Add.str()},      {"mul", F->Mul.str()},
                      {"fma", F->Fma.str()},      {"div", F->Div.str()},
                      {"sqrt", F->Sqrt.str()},    {"transc", F->Transc.str()},
                      {"flops", F->flops().str()}};
      Ops["int"] = H.IntOps.str();
      json Accesses = json::array();
      for (const Access &A : H.Accesses) {
        json J = {{"array", A.Array},
                  {"space", A.Space},
                  {"dir", A.Dir},
                  {"elem_bytes", A.ElemSize.str()},
                  {"count", A.Count.str()},
                  {"pattern", patternName(A.Pattern)},
                  {"requested_bytes", A.requestedBytes().str()},
                  {"location", A.Location}};
        if (A.Space == "global" && A.Dir == "load")
          J["l1_bytes"] = A.l1Bytes().str();
        if (A.Pattern == AccessPattern::Strided)
          J["stride"] = A.Stride.str();
        if (!A.Address.empty())
          J["address"] = A.Address;
        Accesses.push_back(std::move(J));
      }
      json Loops = json::array();
      for (const LoopTrip &L : H.Loops)
        Loops.push_back({{"location", L.Location},
                         {"kind", L.Kind},
                         {"trip", L.Trip.str()},
                         {"max_trip", L.MaxTrip.str()},
                         {"note", L.Note}});
      json Diags = json::array();
      for (const HintDiagnostic &D : H.Diagnostics)
        Diags.push_back({{"level", D.Level},
                         {"code", D.Code},
                         {"location", D.Location},
                         {"message", D.Message}});
      json Footprint = json::object();
      for (const auto &[Array, Bytes] : H.Footprint)
        Footprint[Array] = Bytes.str();
      Ks.push_back({{"name", H.Name},
                    {"location", H.Location},
                    {"params", H.Params},
                    {"confidence", models::confidenceName(H.Confidence)},
                    {"active_threads", H.ActiveThreads.str()},
                    {"active_threads_from", H.ActiveNote},
                    {"per_thread", {{"ops", Ops}, {"accesses", Accesses}}},
                    {"shared",
                     {{"static_bytes", H.SharedStaticBytes.str()},
                      {"dynamic", H.DynamicShared},
                      {"bank_conflict_way", H.BankConflictWay}}},
                    {"syncthreads", H.SyncThreads.str()},
                    {"loops", Loops},
                    {"footprint_bytes", Footprint},
                    {"diagnostics", Diags}});
      if (const std::optional<DeviceResources> &R = H.Resources)
        Ks.back()["device_resources"] = {
            {"arch", R->Arch},
            {"registers_per_thread", R->Registers},
            {"spill_store_bytes", R->SpillStoreBytes},
            {"spill_load_bytes", R->SpillLoadBytes},
            {"stack_bytes", R->StackBytes},
            {"static_shared_bytes", R->StaticSharedBytes}};
    }
  json Ls = json::array();
  for (const LaunchSpec &L : Launches)
    for (const KernelHint *H : matching(Kernels, L.Kernel)) {
      Evaluated E = evaluate(*H, L);
      json Counts = json::object();
      E.Counts.forEach([&](const char *F, double V) {
        if (E.Bound.count(F))
          Counts[F] = V;
      });
      json Record = {{"kernel", H->Name},
                     {"bindings", L.Bindings},
                     {"per_thread", Counts},
                     {"totals", E.Unbound.empty() ? totalsJson(E)
                                                  : nlohmann::json(nullptr)},
                     {"unbound", E.Unbound}};
      if (M && E.Unbound.empty()) {
        Prediction P = predict(*M, *H, E, L);
        if (P.Roofline.ok())
          Record["prediction"] = {
              {"bound", P.Bound},
              {"seconds", P.Roofline.Time.total()},
              {"compute_seconds", P.Roofline.ComputeTime},
              {"memory_seconds", P.Roofline.MemoryTime},
              {"atomic_seconds", P.Roofline.AtomicTime},
              {"remote_seconds", P.Roofline.RemoteTime},
              {"occupancy", P.Roofline.Occ.Fraction},
              {"occupancy_limiter", P.Roofline.Occ.Limiter},
              {"registers_per_thread", P.Registers},
              {"registers_from", P.RegistersFrom},
              {"waves", P.Roofline.Waves},
              {"estimate_share", P.Roofline.Time.estimateShare()},
              {"single_rate_seconds",
               P.SingleRate.ok() ? P.SingleRate.Time.total() : -1.0},
              {"flops", P.Flops},
              {"dram_bytes", P.Bytes},
              {"arithmetic_intensity", P.Flops / std::max(1.0, P.Bytes)}};
        else
          Record["prediction"] = {{"error", P.Roofline.Error}};
      }
      Ls.push_back(std::move(Record));
    }
  json Doc = {{"version", 1}, {"kernels", Ks}, {"launches", Ls}};
  if (!DeviceNote.empty())
    Doc["device_note"] = DeviceNote.str();
  return Doc.dump(2) + "\n";
}

} // namespace orrery
