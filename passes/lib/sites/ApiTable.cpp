//===- ApiTable.cpp - Lookup in the CUDA, MPI and RAMC API tables ---------===//

#include "orrery/passes/ApiTable.h"
#include "ApiTableEntries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace orrery {

StringRef siteKindName(SiteKind K) {
  switch (K) {
  case SiteKind::Cuda:
    return "cuda";
  case SiteKind::Launch:
    return "launch";
  case SiteKind::Mpi:
    return "mpi";
  case SiteKind::Ramc:
    return "ramc";
  }
  return "unknown";
}

StringRef bufFormName(BufForm F) {
  switch (F) {
  case BufForm::None:
    return "none";
  case BufForm::Bytes:
    return "bytes";
  case BufForm::Mpi:
    return "mpi";
  case BufForm::MpiV:
    return "mpiv";
  case BufForm::Handles:
    return "handles";
  }
  return "none";
}

StringRef canonicalApiName(StringRef Name) {
  for (StringRef Suffix : {"_ptds", "_ptsz", "_v2"})
    Name.consume_back(Suffix);
  return Name;
}

static const StringMap<const ApiSpec *> &apiIndex() {
  static const StringMap<const ApiSpec *> Index = [] {
    StringMap<const ApiSpec *> M;
    for (ArrayRef<ApiSpec> Table : {cudaApis(), mpiApis(), ramcApis()})
      for (const ApiSpec &S : Table)
        M[S.Name] = &S;
    return M;
  }();
  return Index;
}

const ApiSpec *lookupApi(StringRef Name) {
  return apiIndex().lookup(canonicalApiName(Name));
}

bool classifyUnknownApi(StringRef Name, SiteKind &Kind) {
  if (Name.starts_with("cuda")) {
    Kind = SiteKind::Cuda;
    return true;
  }
  if (Name.starts_with("MPI_")) {
    Kind = SiteKind::Mpi;
    return true;
  }
  if (Name.starts_with("ramc_")) {
    Kind = SiteKind::Ramc;
    return true;
  }
  return false;
}

bool isIgnoredApi(StringRef Name) { return is_contained(ignoredApis(), Name); }

} // namespace orrery
