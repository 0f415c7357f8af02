//===- SourceFixes.h - Text fixes applied before parsing -------*- C++ -*-===//
//
// nvcc accepts constructs clang rejects and real codes use them. The one
// handled here: a bare braced list as launch geometry,
// `k<<<grid, {32, 8, 1}, 0, s>>>(...)`, which clang accepts once spelled
// `dim3{32, 8, 1}`. The fix is applied to the text clang parses, so the
// instrumented output carries it too (nvcc accepts both spellings).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_SOURCEFIXES_H
#define ORRERY_PASSES_SOURCEFIXES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace orrery {

struct SourceFix {
  unsigned Offset; ///< where `dim3` was inserted in the original text
};

/// Returns Source with `dim3` inserted before every bare braced list given as
/// grid or block of a `<<<...>>>` launch; Fixes lists the insertions.
std::string fixBracedLaunchGeometry(llvm::StringRef Source,
                                    std::vector<SourceFix> &Fixes);

} // namespace orrery

#endif
