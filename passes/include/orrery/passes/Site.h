//===- Site.h - A call site found by orrery-instrument ----------*- C++ -*-===//
#ifndef ORRERY_PASSES_SITE_H
#define ORRERY_PASSES_SITE_H

#include "orrery/passes/ApiTable.h"

#include <string>
#include <vector>

namespace orrery {

/// A buffer argument's cost annotation, as source expressions.
struct BufferNote {
  std::string Role; ///< dst, src, send, recv, requests
  std::string Form; ///< bytes, mpi, mpiv, handles
  std::string Ptr;
  std::string Count; ///< bytes, element count, counts array or handle count
  std::string Datatype;
};

/// Launch geometry of a launch site, as source expressions.
struct LaunchNote {
  std::string Grid, Block, Shmem, Stream;
};

/// One rewritten or skipped call site (one manifest record).
struct Site {
  unsigned Id = 0;
  std::string File; ///< absolute path of the file holding the call
  unsigned Line = 0, Column = 0;
  unsigned Begin = 0, End = 0; ///< byte range of the call in that file
  SiteKind Kind = SiteKind::Cuda;
  std::string Api;    ///< called API, or "<<<>>>" for a launch
  std::string Callee; ///< the launched kernel, for launches
  bool Instrumented = false;
  bool Hinted = false; ///< launches: the kernel's cost hint is passed
  std::string
      Reason; ///< why it was skipped, or a remark on an instrumented site
  std::vector<BufferNote> Buffers;
  LaunchNote Launch;
  /// Generated text around the call; `@SITE@` stands for the site variable
  /// until ids are assigned.
  std::string Prefix, Suffix;
};

} // namespace orrery

#endif
