//===- NvshmemCalls.cpp - Transfers a kernel makes through NVSHMEM --------===//
//
// NVSHMEM's device API moves data between GPUs from inside a kernel:
// nvshmem_float_p(dest, value, pe) stores one element in a peer's copy,
// nvshmemx_float_put_nbi_block(dest, src, n, pe) has the block put n
// elements, nvshmemx_signal_op sets a peer's flag. Their bodies live in
// libnvshmem_device; here each call counts the bytes it moves per active
// thread as remote bytes (a block- or warp-wide call's bytes shared by the
// block's or the warp's threads), which the kernel model charges at the
// GPU's peer link bandwidth beside the kernel's own work. Waits for a
// peer's signal, fences and device barriers move nothing and are not
// charged: the peer is taken to be ready. Every kernel that calls one
// carries a REMOTE_TRANSFER remark saying so (docs/kernel-cost.md,
// "NVSHMEM calls").
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"

#include "clang/AST/Type.h"

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {

namespace {

/// The element type of a pointer argument (void for putmem's buffers).
QualType pointee(const Expr *E) {
  QualType T = E->IgnoreParenImpCasts()->getType();
  if (const auto *P = T->getAs<PointerType>())
    return P->getPointeeType();
  return QualType();
}

} // namespace

bool Analyzer::nvshmemCall(const CallExpr *CE, StringRef Name,
                           const SymExpr &Mult) {
  StringRef Rest = Name;
  if (!Rest.consume_front("nvshmemx_") && !Rest.consume_front("nvshmem_"))
    return false;
  for (const Expr *Arg : CE->arguments())
    expr(Arg, Mult);
  // Threads that make one call together.
  SymExpr Sharing(1.0);
  if (Rest.consume_back("_block"))
    Sharing = SymExpr::sym("blockDim.x") * SymExpr::sym("blockDim.y") *
              SymExpr::sym("blockDim.z");
  else if (Rest.consume_back("_warp"))
    Sharing = SymExpr(32.0);
  auto Arg = [&](unsigned I) -> const Expr * {
    return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
  };
  // The element count argument times the element size, when both are known.
  auto Elements = [&](unsigned CountArg, QualType Elem) {
    std::optional<SymExpr> N;
    if (const Expr *E = Arg(CountArg))
      N = symbolic(E);
    if (!N || Elem.isNull())
      return std::optional<SymExpr>();
    return std::optional<SymExpr>(*N * elemSize(Elem));
  };
  std::optional<SymExpr> Bytes;
  bool Moves = true;
  if (Rest.starts_with("putmem") || Rest.starts_with("getmem")) {
    if (const Expr *E = Arg(2))
      Bytes = symbolic(E);
    if (Bytes && Rest.contains("signal"))
      Bytes = *Bytes + SymExpr(8.0); // the 64-bit signal word
  } else if (Rest.ends_with("_p") && Arg(1)) {
    Bytes = elemSize(Arg(1)->getType());
  } else if (Rest.ends_with("_g")) {
    Bytes = elemSize(CE->getType());
  } else if (Rest.ends_with("_put") || Rest.ends_with("_get") ||
             Rest.ends_with("_put_nbi") || Rest.ends_with("_get_nbi")) {
    if (Arg(0))
      Bytes = Elements(2, pointee(Arg(0)));
  } else if (Rest.contains("atomic") || Rest == "signal_op") {
    if (Arg(0))
      Bytes = elemSize(pointee(Arg(0)));
  } else {
    // Waits, fences, quiet, barriers, queries: no bytes of their own.
    Moves = false;
  }
  if (!Moves) {
    if (Rest.contains("wait") || Rest.starts_with("barrier") ||
        Rest.starts_with("sync") || Rest == "team_sync")
      diag(HintCode::RemoteTransfer, CE->getBeginLoc(),
           "'" + Name +
               "' waits for other GPUs: not charged (they are taken to be "
               "ready)");
    return true;
  }
  if (!Bytes) {
    diag(HintCode::RemoteTransfer, CE->getBeginLoc(),
         "'" + Name + "' moves a number of bytes not known here: not charged");
    return true;
  }
  ++Work;
  H.RemoteBytes = H.RemoteBytes + Mult * *Bytes / Sharing;
  diag(HintCode::RemoteTransfer, CE->getBeginLoc(),
       "'" + Name +
           "' moves data between GPUs: charged at the peer link bandwidth "
           "beside the kernel's work, approximately (no wait for the peer)");
  return true;
}

} // namespace kernels
} // namespace orrery
