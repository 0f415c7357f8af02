//===- ApiListing.h - The API tables as Markdown or JSON --------*- C++ -*-===//
//
// What `orrery-instrument --list-apis` prints; docs/apis.md is its Markdown
// form, regenerated at build time.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_APILISTING_H
#define ORRERY_PASSES_APILISTING_H

#include "llvm/Support/raw_ostream.h"

namespace orrery {

enum class ApiListFormat { Markdown, Json };

/// Prints every row of the CUDA, MPI and RAMC tables.
void printApiTables(llvm::raw_ostream &OS, ApiListFormat Format);

} // namespace orrery

#endif
