//===- KernelReport.cpp - --report: kernel hints, evaluated per launch ----===//

#include "orrery/models/KernelModel.h"
#include "orrery/passes/KernelHints.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cmath>

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
/// A hint's counts for one launch: totals over the active threads.
struct Evaluated {
  std::map<std::string, double> Fields;
  std::vector<std::string> Unbound;
};

Evaluated evaluate(const KernelHint &H, const LaunchSpec &L) {
  Evaluated E;
  for (const auto &[Field, Expr] : countFields(H)) {
    std::optional<double> V = Expr.eval(L.Bindings);
    if (!V) {
      std::set<std::string> Syms;
      Expr.symbols(Syms);
      for (const std::string &S : Syms)
        if (!L.Bindings.count(S) &&
            std::find(E.Unbound.begin(), E.Unbound.end(), S) == E.Unbound.end())
          E.Unbound.push_back(S);
      continue;
    }
    E.Fields[Field] = *V;
  }
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

double get(const Evaluated &E, const char *F) {
  auto It = E.Fields.find(F);
  return It == E.Fields.end() ? 0 : It->second;
}

/// The launch totals the text report prints and the JSON report carries:
/// active threads times the per-thread counts.
struct Totals {
  double Launched = 0, Active = 0;
  double Flops[2] = {0, 0}, Div[2] = {0, 0}, Sqrt[2] = {0, 0},
         Transc[2] = {0, 0};
  double LoadBytes = 0, StoreBytes = 0;
  double LoadFootprint = -1, StoreFootprint = -1; ///< -1: n/a
  double Atomics = 0, SameAddressAtomics = 0;
};

Totals launchTotals(const Evaluated &E) {
  Totals T;
  T.Launched = get(E, "threads_launched");
  double A = T.Active = get(E, "active_threads");
  for (unsigned I = 0; I < 2; ++I) {
    std::string S = I == 0 ? "fp32" : "fp64";
    T.Flops[I] =
        A * (get(E, (S + "_add").c_str()) + get(E, (S + "_mul").c_str()) +
             2 * get(E, (S + "_fma").c_str()));
    T.Div[I] = A * get(E, (S + "_div").c_str());
    T.Sqrt[I] = A * get(E, (S + "_sqrt").c_str());
    T.Transc[I] = A * get(E, (S + "_transc").c_str());
  }
  T.LoadBytes = A * get(E, "load_bytes");
  T.StoreBytes = A * get(E, "store_bytes");
  T.LoadFootprint = get(E, "load_footprint");
  T.StoreFootprint = get(E, "store_footprint");
  T.Atomics = A * get(E, "atomics");
  T.SameAddressAtomics = A * get(E, "same_address_atomics");
  return T;
}

void printTotals(raw_ostream &OS, const Evaluated &E) {
  Totals T = launchTotals(E);
  OS << "    threads: " << formatCount(T.Launched) << " launched, "
     << formatCount(T.Active) << " active\n";
  OS << "    flops: fp32 " << formatCount(T.Flops[0]) << ", fp64 "
     << formatCount(T.Flops[1]) << "\n";
  for (unsigned I = 0; I < 2; ++I)
    if (T.Div[I] || T.Sqrt[I] || T.Transc[I])
      OS << "    " << (I == 0 ? "fp32" : "fp64") << " div "
         << formatCount(T.Div[I]) << ", sqrt " << formatCount(T.Sqrt[I])
         << ", transcendental " << formatCount(T.Transc[I]) << "\n";
  auto Fp = [](double V) {
    return V < 0 ? std::string("n/a") : formatCount(V);
  };
  OS << "    bytes loaded: " << formatCount(T.LoadBytes) << " requested, "
     << Fp(T.LoadFootprint) << " footprint\n";
  OS << "    bytes stored: " << formatCount(T.StoreBytes) << " requested, "
     << Fp(T.StoreFootprint) << " footprint\n";
  if (T.Atomics)
    OS << "    atomics: " << formatCount(T.Atomics) << " ("
       << formatCount(T.SameAddressAtomics) << " to a shared address)\n";
  double Intensity =
      (T.Flops[0] + T.Flops[1]) / std::max(1.0, T.LoadBytes + T.StoreBytes);
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
                      {"active_threads", T.Active},
                      {"load_bytes_requested", T.LoadBytes},
                      {"load_bytes_footprint", Fp(T.LoadFootprint)},
                      {"store_bytes_requested", T.StoreBytes},
                      {"store_bytes_footprint", Fp(T.StoreFootprint)},
                      {"atomics", T.Atomics},
                      {"same_address_atomics", T.SameAddressAtomics}};
  for (unsigned I = 0; I < 2; ++I) {
    std::string S = I == 0 ? "fp32" : "fp64";
    J["flops_" + S] = T.Flops[I];
    J["div_" + S] = T.Div[I];
    J["sqrt_" + S] = T.Sqrt[I];
    J["transc_" + S] = T.Transc[I];
  }
  return J;
}
/// The models' view of one evaluated launch.
struct Prediction {
  models::KernelEstimate Roofline, SingleRate;
  double Flops = 0, Bytes = 0;
  std::string Bound;
};

Prediction predict(const models::Machine &M, const Evaluated &E,
                   const LaunchSpec &L) {
  models::GpuParams G = models::GpuParams::fromMachine(M);
  models::ThreadCounts T;
  T.ActiveThreads = get(E, "active_threads");
  for (auto [F, Name] :
       {std::pair{&T.Fp32, "fp32"}, std::pair{&T.Fp64, "fp64"}}) {
    std::string S(Name);
    *F = {get(E, (S + "_add").c_str()),  get(E, (S + "_mul").c_str()),
          get(E, (S + "_fma").c_str()),  get(E, (S + "_div").c_str()),
          get(E, (S + "_sqrt").c_str()), get(E, (S + "_transc").c_str())};
  }
  T.IntOps = get(E, "int_ops");
  T.LoadBytes = get(E, "load_bytes");
  T.StoreBytes = get(E, "store_bytes");
  T.LoadFootprint = get(E, "load_footprint");
  T.StoreFootprint = get(E, "store_footprint");
  models::KernelWork W = models::kernelWork(T);
  models::LaunchConfig C;
  C.Blocks = static_cast<std::uint64_t>(L.Bindings.at("gridDim.x") *
                                        L.Bindings.at("gridDim.y") *
                                        L.Bindings.at("gridDim.z"));
  C.ThreadsPerBlock = static_cast<std::uint32_t>(L.Bindings.at("blockDim.x") *
                                                 L.Bindings.at("blockDim.y") *
                                                 L.Bindings.at("blockDim.z"));
  C.SharedBytesPerBlock = static_cast<std::uint32_t>(
      get(E, "shared_static_bytes") + L.Bindings.at("dynSmem"));
  Prediction P;
  P.Roofline = models::kernelTime(G, W, C, models::KernelModelKind::Roofline);
  P.SingleRate =
      models::kernelTime(G, W, C, models::KernelModelKind::SingleRate);
  for (double F : W.Flops)
    P.Flops += F;
  P.Bytes = W.BytesRead + W.BytesWritten;
  double Device = std::max(P.Roofline.ComputeTime, P.Roofline.MemoryTime);
  P.Bound = Device < G.EmptyKernel                            ? "latency"
            : P.Roofline.ComputeTime >= P.Roofline.MemoryTime ? "compute"
                                                              : "memory";
  return P;
}

void printPrediction(raw_ostream &OS, const Prediction &P) {
  if (!P.Roofline.ok()) {
    OS << "    predicted: launch is invalid on this machine: "
       << P.Roofline.Error << "\n";
    return;
  }
  OS << formatv("    roofline: {0} bound (compute-bound waves {1:F3} us, "
                "memory-bound waves {2:F3} us); occupancy {3:F2} ({4} "
                "blocks/SM, limited by {5}), {6} wave(s)\n",
                P.Bound, P.Roofline.ComputeTime * 1e6,
                P.Roofline.MemoryTime * 1e6, P.Roofline.Occ.Fraction,
                P.Roofline.Occ.BlocksPerSm, P.Roofline.Occ.Limiter,
                P.Roofline.Waves);
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
                       const models::Machine *M) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "== Kernel cost hints (" << Kernels.size() << " kernel"
     << (Kernels.size() == 1 ? "" : "s") << ")\n";
  for (const KernelInfo &K : Kernels) {
    for (const KernelHint &H : K.Instances) {
      OS << "\n" << hintComment(H);
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
         << H->Confidence << "\n";
      Evaluated E = evaluate(*H, L);
      printTotals(OS, E);
      if (H->Overridden)
        OS << "    measured duration (side file): "
           << formatCount(H->MeasuredMicros) << " us; it wins over the model\n";
      if (M && E.Unbound.empty())
        printPrediction(OS, predict(*M, E, L));
    }
  }
  return Out;
}

std::string reportJson(const std::vector<KernelInfo> &Kernels,
                       const std::vector<LaunchSpec> &Launches,
                       const models::Machine *M) {
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
                    {"confidence", H.Confidence},
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
    }
  json Ls = json::array();
  for (const LaunchSpec &L : Launches)
    for (const KernelHint *H : matching(Kernels, L.Kernel)) {
      Evaluated E = evaluate(*H, L);
      json Counts = json::object();
      for (const auto &[F, V] : E.Fields)
        Counts[F] = V;
      json Record = {{"kernel", H->Name},
                     {"bindings", L.Bindings},
                     {"per_thread", Counts},
                     {"totals", E.Unbound.empty() ? totalsJson(E)
                                                  : nlohmann::json(nullptr)},
                     {"unbound", E.Unbound}};
      if (M && E.Unbound.empty()) {
        Prediction P = predict(*M, E, L);
        if (P.Roofline.ok())
          Record["prediction"] = {
              {"bound", P.Bound},
              {"seconds", P.Roofline.Time.total()},
              {"compute_seconds", P.Roofline.ComputeTime},
              {"memory_seconds", P.Roofline.MemoryTime},
              {"occupancy", P.Roofline.Occ.Fraction},
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
  return Doc.dump(2) + "\n";
}

} // namespace orrery
