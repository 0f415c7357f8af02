//===- KernelRegistryCode.cpp - A translation unit's kernel registry ------===//
//
// Launch sites that name their kernel call its generated hint function. Every
// other launch (through a function pointer or a reference, cudaLaunchKernel,
// a graph node, a macro body, another translation unit) reaches the runtime
// with only the kernel's host-stub address and its argument array, as CUDA's
// own launch path does. So each translation unit registers its kernels the
// way CUDA registers device functions: one entry per concrete kernel (per
// template instantiation, closures and functors included), keyed by the
// stub's mangled name, with a function that evaluates the instantiation's
// hint from `void **args`. No type is spelled: each scalar parameter the
// hint reads is loaded through its arithmetic type.
//
//===----------------------------------------------------------------------===//

#include "GeneratedText.h"
#include "orrery/passes/KernelHintCode.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace orrery {

namespace {

/// The thunk of one concrete kernel, named Function.
std::string thunk(const KernelHint &H, StringRef Function) {
  CountExprs C = countExprs(H);
  // Parameters by name; what the hint reads of them.
  std::map<std::string, unsigned> ParamIndex;
  for (unsigned I = 0; I < H.Params.size(); ++I)
    if (!H.Params[I].empty())
      ParamIndex.emplace(H.Params[I], I);
  std::set<std::string> Used;
  C.forEach([&](const char *, const SymExpr &E) { E.symbols(Used); });
  models::Confidence Confidence = H.Confidence;
  std::map<std::string, SymExpr> Unreadable;
  std::set<unsigned> Pointers;
  std::string Reads;
  for (const std::string &S : Used) {
    if (isLaunchSymbol(S))
      continue;
    if (StringRef Buffer = bufferOfSymbol(S); !Buffer.empty()) {
      // A pointer argument, for orrery_buffer_bytes: read as an address.
      auto It = ParamIndex.find(Buffer.str());
      if (It == ParamIndex.end())
        Unreadable[S] = SymExpr(1e300); // no bound
      else if (Pointers.insert(It->second).second)
        Reads += formatv("  const void *const {0} = orrery_args ? *(const "
                         "void *const *)orrery_args[{1}] : (const void *)0;\n",
                         Buffer, It->second)
                     .str();
      continue;
    }
    auto It = ParamIndex.find(S);
    std::string Type =
        It != ParamIndex.end() && It->second < H.ParamTypes.size()
            ? H.ParamTypes[It->second]
            : std::string();
    if (Type.empty()) {
      // Not a scalar parameter of this instantiation: read as 0, and the
      // hint is no better than defaulted.
      Unreadable[S] = SymExpr(0.0);
      if (Confidence < models::Confidence::Defaulted)
        Confidence = models::Confidence::Defaulted;
      continue;
    }
    Reads += formatv("  const {0} {1} = orrery_args ? *(const {0} *)"
                     "orrery_args[{2}] : ({0})0;\n",
                     Type, S, It->second)
                 .str();
  }
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "static orrery_kernel_counts " << Function
     << "(orrery_dim3 gridDim, orrery_dim3 blockDim, unsigned long long "
        "dynSmem, void **orrery_args) {\n"
     << Reads << countStatements(C, Confidence, Unreadable)
     << "  (void)gridDim; (void)blockDim; (void)dynSmem; (void)orrery_args;\n"
     << "  return orrery_c_;\n}\n";
  return Out;
}

} // namespace

std::string kernelRegistry(const std::vector<KernelInfo> &Kernels) {
  std::string Thunks, Table;
  unsigned N = 0;
  std::set<std::string> Seen;
  for (const KernelInfo &K : Kernels)
    for (const KernelHint &H : K.Instances) {
      if ((H.Stub.empty() && H.AddressExpr.empty()) ||
          !Seen.insert(H.Stub + "|" + H.AddressExpr).second)
        continue;
      std::string Function = formatv("orrery_kernel_thunk_{0}", N++).str();
      Thunks += thunk(H, Function);
      Table += formatv("  {{{0}, {1}, {2}, {3}, {4}, {5:x}ull, {6}},\n",
                       H.Stub.empty() ? "0" : cStringLiteral(H.Stub),
                       cStringLiteral(H.Name), cStringLiteral(H.Location),
                       Function, H.AddressExpr.empty() ? "0" : H.AddressExpr,
                       H.PointerParams, cStringLiteral(H.Pointees))
                   .str();
    }
  if (!N)
    return "";
  return "\n/* orrery kernel registry: every kernel of this translation unit, "
         "for launches\n * that do not name it (hooks.h, "
         "orrery_register_kernels). */\n" +
         Thunks +
         "static const orrery_kernel_entry orrery_kernel_table_[] = {\n" +
         Table +
         "};\n__attribute__((constructor)) static void "
         "orrery_register_kernel_table_(void) {\n"
         "  orrery_register_kernels(orrery_kernel_table_, " +
         std::to_string(N) + ");\n}\n";
}

} // namespace orrery
