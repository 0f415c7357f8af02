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

/// How a call's result passes through the end hook.
enum class ResultForm { Value, Pointer, Void };

/// One rewritten or skipped call site (one manifest record). Plain data:
/// the generated text is written from it once ids are assigned
/// (passes/lib/sites/HookEmitter.h).
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

  // What the hook call is made of (instrumented sites).
  /// The begin hook's arguments after the site (launches: after the
  /// geometry), as source text.
  std::vector<std::string> HookArgs;
  ResultForm Result = ResultForm::Value;
  bool CPlusPlus = true;
  std::string ResultType; ///< C++: the call's type, for orrery_result<T>
  /// Device reads: the destination's value type (f32, ..., bytes) and the
  /// `#pragma orrery device_value` as a C string literal or "0"; empty
  /// ReadType when the call is no device read.
  std::string ReadType, ReadValue;
  /// Launches after a `#pragma orrery device_value(ARG=VALUE)`: ARG and
  /// VALUE as C string literals (orrery_launch_value); empty otherwise.
  std::string OutputArg, OutputValue;
  /// Launches of a hinted kernel: the hint function (with the launch's
  /// template arguments) and the kernel arguments, as written.
  std::string HintFunction;
  std::vector<std::string> HintArgs;
};

} // namespace orrery

#endif
