//===- ApiTable.h - The CUDA, MPI and RAMC calls Orrery models --*- C++ -*-===//
//
// One entry per API function, read from the table files
// (apis/include/orrery/apis/*.def): which hook family it belongs to, how the
// cost annotation is built from its arguments and what the simulator does
// with it. Argument references in the
// templates are written `$N` (N-th argument, 0-based) or `$L` (last argument);
// a reference to an argument the call does not have reads as `0`.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_APITABLE_H
#define ORRERY_PASSES_APITABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace orrery {

/// Which hook family a site belongs to (manifest "kind").
enum class SiteKind { Cuda, Launch, Mpi, Ramc };

llvm::StringRef siteKindName(SiteKind K);

/// How a buffer argument's size is expressed.
enum class BufForm { None, Bytes, Mpi, MpiV, Handles };

/// The form's name in manifests and listings: none, bytes, mpi, ...
llvm::StringRef bufFormName(BufForm F);

/// A buffer slot of a hook: pointer, size and (for MPI) datatype templates.
struct BufSpec {
  BufForm Form = BufForm::None;
  const char *Ptr = "";
  const char *Count =
      "";                ///< bytes, element count, counts array or handle count
  const char *Type = ""; ///< MPI datatype
};

/// What MPI point-to-point matching reads besides the peer: the tag of the
/// message a call sends, the source and tag a call receives by, and where a
/// nonblocking receive stores its request ("": the call has none).
struct MatchSpec {
  const char *SendTag = "";
  const char *Source = "";
  const char *RecvTag = "";
  const char *Request = "";
};

/// An API the tool rewrites into a hook.
struct ApiSpec {
  const char *Name;
  SiteKind Kind;
  BufSpec A;          ///< cuda: dst, mpi: send, ramc: src
  BufSpec B;          ///< cuda: src, mpi: recv, ramc: dst
  const char *Aux;    ///< cuda: kind/flags/value, mpi and ramc: peer or root
  const char *Handle; ///< cuda: stream, mpi: communicator/window,
                      ///< ramc: context or window structure
  const char *Extra = ""; ///< ramc: target or initiator handle (ctx API)
  /// cuda: the call may copy device memory into host memory at A.Ptr, a
  /// value the simulation cannot know (a device read: orrery_read_hint).
  bool DeviceRead = false;
  /// The operation class the simulator charges (the .def file's Op column).
  const char *Op = "";
  /// mpi collectives: the cost model's kind (models::Collective) and
  /// "Blocking" or "Nonblocking".
  const char *Collective = "";
  const char *Mode = "";
  /// Skeleton mode implements the call (liborrery-sim, SMPI, libramc-sim).
  bool Simulated = false;
  /// mpi point-to-point calls: tags and source (the .def file's Match).
  MatchSpec Match = {};
};

/// The rows of one family's table, in table order.
llvm::ArrayRef<ApiSpec> cudaApis();
llvm::ArrayRef<ApiSpec> mpiApis();
llvm::ArrayRef<ApiSpec> ramcApis();
/// Calls deliberately left alone and not reported (clock reads, local
/// reads of a value): the tables' ORRERY_IGNORED_API rows.
llvm::ArrayRef<const char *> ignoredApis();

/// Looks up an API by name after removing per-thread-stream and versioned
/// suffixes (`_ptds`, `_ptsz`, `_v2`). Returns null when the API is unknown.
const ApiSpec *lookupApi(llvm::StringRef Name);

/// The name with per-thread-stream and versioned suffixes removed.
llvm::StringRef canonicalApiName(llvm::StringRef Name);

/// For a name not in the table: the family whose naming convention it
/// follows (so it can be reported as not modeled), or false if it is none.
bool classifyUnknownApi(llvm::StringRef Name, SiteKind &Kind);

/// Calls that are deliberately left alone and not reported (clock reads).
bool isIgnoredApi(llvm::StringRef Name);

} // namespace orrery

#endif
