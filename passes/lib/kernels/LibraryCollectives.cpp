//===- LibraryCollectives.cpp - CUB and cooperative-groups collectives ----===//
//
// CUB's block and warp collectives are template meta-programs over inline
// PTX: walking their bodies gives RECURSION and INLINE_ASM, not a cost. They
// are charged by the algorithm instead (docs/kernel-cost.md, "Library
// collectives"): a warp-level reduce or scan over W lanes is log2(W) steps of
// one shuffle (an integer slot) and one operation of the value's type; the
// block-level ones (CUB's default algorithms, warp reductions / warp scans)
// are the warp step on every thread plus one __syncthreads, and a scan adds
// the warp's prefix (one more operation).
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace clang;
using namespace llvm;

namespace orrery {
namespace kernels {
namespace {

enum class Collective { None, WarpReduce, WarpScan, BlockReduce, BlockScan };

/// The class a CUB collective's method belongs to, by its template's name in
/// namespace cub (CUB nests it in a versioned inline namespace).
Collective collectiveOf(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return Collective::None;
  std::string Q = Spec->getSpecializedTemplate()->getQualifiedNameAsString();
  if (!StringRef(Q).starts_with("cub::"))
    return Collective::None;
  return StringSwitch<Collective>(StringRef(Q).rsplit("::").second)
      .Case("WarpReduce", Collective::WarpReduce)
      .Case("WarpScan", Collective::WarpScan)
      .Case("BlockReduce", Collective::BlockReduce)
      .Case("BlockScan", Collective::BlockScan)
      .Default(Collective::None);
}

bool isReduce(StringRef M) { return M == "Sum" || M == "Reduce"; }
bool isScan(StringRef M) {
  return M == "InclusiveSum" || M == "ExclusiveSum" ||
         M == "InclusiveScan" || M == "ExclusiveScan";
}

/// Lanes of a CUB warp collective: its LOGICAL_WARP_THREADS argument
/// (the second), 32 by default.
double warpLanes(const ClassTemplateSpecializationDecl *Spec) {
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() > 1 && Args[1].getKind() == TemplateArgument::Integral)
    return static_cast<double>(Args[1].getAsIntegral().getExtValue());
  return 32;
}

/// Lanes of a cooperative-groups tile type (thread_block_tile<N>), or 32.
double tileLanes(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  for (; RD; RD = RD->getNumBases()
                      ? RD->bases_begin()->getType()->getAsCXXRecordDecl()
                      : nullptr)
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (Spec->getName() == "thread_block_tile" &&
          Spec->getTemplateArgs().size() > 0 &&
          Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
        return static_cast<double>(
            Spec->getTemplateArgs()[0].getAsIntegral().getExtValue());
  return 32;
}

bool inCooperativeGroups(const FunctionDecl *FD) {
  return StringRef(FD->getQualifiedNameAsString())
      .starts_with("cooperative_groups::");
}

} // namespace

bool isGroupShuffle(const FunctionDecl *FD) {
  if (!FD->getDeclName().isIdentifier() || !inCooperativeGroups(FD))
    return false;
  StringRef N = FD->getName();
  return N == "shfl" || N == "shfl_down" || N == "shfl_up" || N == "shfl_xor";
}

/// cooperative_groups::reduce / inclusive_scan / exclusive_scan (group,
/// value, op): a warp-level collective over the tile's lanes.
bool Analyzer::groupCollective(const CallExpr *CE, const FunctionDecl *FD,
                               const SymExpr &Mult) {
  if (!FD->getDeclName().isIdentifier() || !inCooperativeGroups(FD) ||
      CE->getNumArgs() < 2)
    return false;
  StringRef N = FD->getName();
  if (N != "reduce" && N != "inclusive_scan" && N != "exclusive_scan")
    return false;
  double Steps = std::max(
      1.0, std::ceil(std::log2(tileLanes(CE->getArg(0)->getType()))));
  countFp(FpKind::Add, CE->getArg(1)->getType().getNonReferenceType(), CE,
          Mult * SymExpr(Steps));
  H.IntOps = H.IntOps + Mult * SymExpr(Steps);
  ++Work;
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    expr(CE->getArg(I), Mult);
  return true;
}

bool Analyzer::libraryCollective(const CallExpr *CE, const FunctionDecl *FD,
                                 const SymExpr &Mult) {
  if (groupCollective(CE, FD, Mult))
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD || !MD->getDeclName().isIdentifier())
    return false;
  Collective C = collectiveOf(MD->getParent());
  StringRef Name = MD->getName();
  bool Reduce = isReduce(Name), Scan = isScan(Name);
  if (C == Collective::None || (!Reduce && !Scan))
    return false;
  bool Block = C == Collective::BlockReduce || C == Collective::BlockScan;
  double Lanes = Block ? 32
                       : warpLanes(cast<ClassTemplateSpecializationDecl>(
                             MD->getParent()));
  double Steps = std::max(1.0, std::ceil(std::log2(Lanes)));
  // The value's type: the first argument (the thread's input).
  QualType T = CE->getNumArgs() ? CE->getArg(0)->getType() : CE->getType();
  double Ops = Steps + (Block && Scan ? 1 : 0);
  countFp(FpKind::Add, T.getNonReferenceType(), CE, Mult * SymExpr(Ops));
  H.IntOps = H.IntOps + Mult * SymExpr(Steps); // the shuffles
  if (Block)
    H.SyncThreads = H.SyncThreads + Mult;
  ++Work;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    expr(CE->getArg(I), Mult);
  return true;
}

} // namespace kernels
} // namespace orrery
