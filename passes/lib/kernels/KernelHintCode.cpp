//===- KernelHintCode.cpp - Kernel hints: comment and generated code ------===//

#include "orrery/passes/KernelHintCode.h"
#include "GeneratedText.h"
#include "HookEmitter.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <set>

using namespace llvm;

namespace orrery {

std::string formatCount(double V) {
  if (V == std::floor(V) && std::fabs(V) < 1e18)
    return formatv("{0}", static_cast<long long>(V)).str();
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", V);
  return Buf;
}

std::string hintFunctionName(StringRef Kernel) {
  return ("orrery_hint_" + Kernel).str();
}

CountExprs countExprs(const KernelHint &H) {
  SymExpr Launched(1.0);
  for (char D : {'x', 'y', 'z'})
    Launched = Launched * SymExpr::sym(std::string("gridDim.") + D) *
               SymExpr::sym(std::string("blockDim.") + D);
  SymExpr Load, L1Load, Kept, Store, Atomics, SameAddress, GridSameAddress,
      SharedAccesses, Dependent;
  std::optional<SymExpr> LoadFp(SymExpr(0.0)), StoreFp(SymExpr(0.0));
  for (const Access &A : H.Accesses) {
    SymExpr Bytes = A.Count * A.requestedBytes();
    if (A.Space == "shared") {
      SharedAccesses = SharedAccesses + A.Count;
      continue;
    }
    if (A.Dir == "load") {
      Load = Load + Bytes;
      L1Load = L1Load + A.Count * A.l1Bytes();
      Kept = Kept + A.Count * A.ElemSize;
      if (A.Dependent)
        Dependent = Dependent + A.Count;
    } else if (A.Dir == "store")
      Store = Store + Bytes;
    else {
      Atomics = Atomics + A.Count;
      if (A.Address == "same_for_grid" || A.Address == "same_per_block")
        SameAddress = SameAddress + A.Count;
      if (A.Address == "same_for_grid")
        GridSameAddress = GridSameAddress + A.Count;
    }
  }
  // Footprint only when every global array of that direction has one.
  std::set<std::string> WithFootprint;
  for (const auto &[Array, Bytes] : H.Footprint) {
    WithFootprint.insert(Array);
    (StringRef(Array).ends_with("(load)") ? LoadFp : StoreFp) =
        *(StringRef(Array).ends_with("(load)") ? LoadFp : StoreFp) + Bytes;
  }
  for (const Access &A : H.Accesses)
    if (A.Space == "global" && A.Dir != "atomic" &&
        !WithFootprint.count(A.Array + " (" + A.Dir + ")"))
      (A.Dir == "load" ? LoadFp : StoreFp) = std::nullopt;
  CountExprs C;
  C.threads_launched = Launched;
  C.active_threads = H.ActiveThreads;
  C.fp32_add = H.Fp32.Add;
  C.fp32_mul = H.Fp32.Mul;
  C.fp32_fma = H.Fp32.Fma;
  C.fp32_div = H.Fp32.Div;
  C.fp32_sqrt = H.Fp32.Sqrt;
  C.fp32_transc = H.Fp32.Transc;
  C.fp64_add = H.Fp64.Add;
  C.fp64_mul = H.Fp64.Mul;
  C.fp64_fma = H.Fp64.Fma;
  C.fp64_div = H.Fp64.Div;
  C.fp64_sqrt = H.Fp64.Sqrt;
  C.fp64_transc = H.Fp64.Transc;
  C.int_ops = H.IntOps;
  C.load_bytes = Load;
  C.l1_load_bytes = L1Load;
  C.load_register_bytes = Kept;
  C.store_bytes = Store;
  C.dependent_loads = Dependent;
  C.bytes_in_flight = SymExpr(H.BytesInFlight);
  C.launch_bounds_max_threads = SymExpr(double(H.LaunchBoundsMaxThreads));
  C.atomics = Atomics;
  C.same_address_atomics = SameAddress;
  C.grid_same_address_atomics = GridSameAddress;
  if (LoadFp) {
    C.load_footprint = *LoadFp;
    SymExpr BlockFp(0.0);
    for (const auto &[Array, Bytes] : H.BlockFootprint)
      BlockFp = BlockFp + Bytes;
    C.block_load_footprint = BlockFp;
  }
  if (StoreFp)
    C.store_footprint = *StoreFp;
  C.shared_static_bytes = H.SharedStaticBytes;
  if (H.DynamicShared)
    C.shared_dynamic_bytes = SymExpr::sym("dynSmem");
  C.bank_conflict_way = SymExpr(static_cast<double>(H.BankConflictWay));
  C.syncthreads = H.SyncThreads;
  C.remote_bytes = H.RemoteBytes;
  if (H.Resources) {
    // ptxas knows the registers, and the static shared memory better than
    // the declarations (it sees what the optimiser kept).
    C.registers_per_thread = SymExpr(double(H.Resources->Registers));
    C.shared_static_bytes = SymExpr(double(H.Resources->StaticSharedBytes));
  }
  if (H.Overridden)
    C.measured_seconds = SymExpr(H.MeasuredMicros * 1e-6);
  return C;
}

std::string hintComment(const KernelHint &H) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "/* orrery kernel cost hint: " << H.Name << " (" << H.Location
     << "), confidence " << models::confidenceName(H.Confidence) << "\n";
  OS << " *   active threads: " << H.ActiveThreads.str() << "\n";
  OS << " *     from: " << H.ActiveNote << "\n";
  OS << " *   per active thread:\n";
  for (auto [Label, F] :
       {std::pair<const char *, const FpOps *>{"fp32", &H.Fp32},
        {"fp64", &H.Fp64}}) {
    if (F->flops().isZero() && F->Div.isZero() && F->Sqrt.isZero() &&
        F->Transc.isZero())
      continue;
    OS << " *     " << Label << ": add " << F->Add.str() << ", mul "
       << F->Mul.str() << ", fma " << F->Fma.str() << ", div " << F->Div.str()
       << ", sqrt " << F->Sqrt.str() << ", transc " << F->Transc.str()
       << " (flops " << F->flops().str() << ")\n";
  }
  OS << " *     int ops: " << H.IntOps.str() << "\n";
  if (!H.Accesses.empty())
    OS << " *   accesses (per active thread):\n";
  for (const Access &A : H.Accesses) {
    OS << " *     " << A.Space << " " << A.Dir << " " << A.Array << " ";
    if (A.ElemBytes)
      OS << A.ElemBytes << " B";
    else
      OS << A.ElemSize.str() << " B";
    OS << " x " << A.Count.str() << ", " << patternName(A.Pattern);
    if (A.Pattern == AccessPattern::Strided)
      OS << "(" << A.Stride.str() << ")";
    if (!A.Address.empty())
      OS << ", address " << A.Address;
    OS << "  [" << A.Location << "]\n";
  }
  if (!H.SharedStaticBytes.isZero() || H.DynamicShared)
    OS << " *   shared memory: " << H.SharedStaticBytes.str()
       << " B static per block" << (H.DynamicShared ? " + dynSmem" : "")
       << ", bank conflicts " << H.BankConflictWay << "-way\n";
  if (!H.SyncThreads.isZero())
    OS << " *   __syncthreads: " << H.SyncThreads.str() << "\n";
  for (const LoopTrip &L : H.Loops)
    OS << " *   loop " << L.Location << ": " << L.Kind << ", trip "
       << L.Trip.str() << (L.Note.empty() ? "" : "  (" + L.Note + ")") << "\n";
  for (const HintDiagnostic &D : H.Diagnostics)
    OS << " *   " << D.Level << " " << D.Code << " " << D.Location << ": "
       << D.Message << "\n";
  if (H.Overridden)
    OS << " *   measured duration (side file): "
       << formatCount(H.MeasuredMicros) << " us; it wins over the model\n";
  // Locations and addresses are source text: keep them from ending the
  // comment early.
  return "/*" + commentText(StringRef(Out).drop_front(2)) + " */\n";
}

/// Expression text for generated C++: thread and block ids cannot occur in
/// a per-launch count; anything left reads as 0.
/// Every symbol is read as a double, so products of geometry cannot overflow
/// unsigned arithmetic.
/// A named unknown of the analysis (a CSR row length) reads as the
/// data-dependent default; `bytes(p)`, what the buffer p points into holds,
/// asks the runtime (orrery_buffer_bytes).
std::string countCode(const SymExpr &E) {
  constexpr double DataDependentTripDefault = 16;
  std::set<std::string> Syms;
  E.symbols(Syms);
  std::map<std::string, SymExpr> Map;
  for (const std::string &S : Syms)
    Map[S] = StringRef(S).starts_with("threadIdx.") ||
                     StringRef(S).starts_with("blockIdx.")
                 ? SymExpr(0.0)
             : StringRef(S).ends_with(".avg_nnz")
                 ? SymExpr(DataDependentTripDefault)
             : bufferOfSymbol(S).empty()
                 ? SymExpr::sym("(double)" + S)
                 : SymExpr::sym("orrery_buffer_bytes((const void *)" +
                                bufferOfSymbol(S).str() + ")");
  return E.substitute(Map).str();
}

StringRef bufferOfSymbol(StringRef S) {
  if (!S.consume_front("bytes(") || !S.consume_back(")"))
    return "";
  return S;
}

bool isLaunchSymbol(StringRef S) {
  return S.starts_with("gridDim.") || S.starts_with("blockDim.") ||
         S.starts_with("threadIdx.") || S.starts_with("blockIdx.") ||
         S == "dynSmem" || S.ends_with(".avg_nnz");
}

std::string countStatements(const CountExprs &C, models::Confidence Conf,
                            const std::map<std::string, SymExpr> &Zero) {
  std::string Out = "  orrery_kernel_counts orrery_c_;\n";
  C.forEach([&](const char *Field, const SymExpr &E) {
    Out += std::string("  orrery_c_.") + Field + " = " +
           countCode(Zero.empty() ? E : E.substitute(Zero)) + ";\n";
  });
  return Out +
         "  orrery_c_.confidence = " + std::to_string(static_cast<int>(Conf)) +
         ";\n";
}

std::string hintFunction(const KernelInfo &K) {
  const KernelHint &H = K.Pattern;
  std::string Out;
  raw_string_ostream OS(Out);
  if (!K.TemplateHead.empty())
    OS << K.TemplateHead << "\n";
  OS << hintFunctionHead(hintFunctionName(H.Name), K.ParamTexts) << " {\n";
  OS << countStatements(countExprs(H), H.Confidence);
  OS << "  (void)gridDim; (void)blockDim; (void)dynSmem;";
  for (const std::string &P : H.Params)
    if (!P.empty())
      OS << " (void)" << P << ";";
  OS << "\n  return orrery_c_;\n}\n";
  return Out;
}

} // namespace orrery
