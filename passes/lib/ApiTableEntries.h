//===- ApiTableEntries.h - Per-family API tables (internal) ----*- C++ -*-===//
#ifndef ORRERY_PASSES_APITABLEENTRIES_H
#define ORRERY_PASSES_APITABLEENTRIES_H

#include "orrery/passes/ApiTable.h"

#include "llvm/ADT/ArrayRef.h"

namespace orrery {

constexpr BufSpec none() { return {}; }
constexpr BufSpec bytes(const char *Ptr, const char *Bytes) {
  return {BufForm::Bytes, Ptr, Bytes, ""};
}
constexpr BufSpec mpi(const char *Ptr, const char *Count, const char *Type) {
  return {BufForm::Mpi, Ptr, Count, Type};
}
constexpr BufSpec mpiv(const char *Ptr, const char *Counts, const char *Type) {
  return {BufForm::MpiV, Ptr, Counts, Type};
}
constexpr BufSpec handles(const char *Ptr, const char *Count) {
  return {BufForm::Handles, Ptr, Count, ""};
}

llvm::ArrayRef<ApiSpec> cudaApis();
llvm::ArrayRef<ApiSpec> mpiApis();
llvm::ArrayRef<ApiSpec> ramcApis();

} // namespace orrery

#endif
