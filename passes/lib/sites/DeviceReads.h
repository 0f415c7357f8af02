//===- DeviceReads.h - What a device-to-host copy writes --------*- C++ -*-===//
//
// A skeleton simulation runs no kernel, so the values a program copies back
// from the GPU (a residual norm, a flag) are unknown; a loop that tests them
// ends at once. The instrumenter tells the runtime, at each call that may
// copy device memory to the host, the element type of the destination and a
// value written in the source (`#pragma orrery device_value(V)` on the line
// before the call), so a value set by the user can be written there in the
// right representation (docs/simulate.md, "Running published codes").
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_PASSES_DEVICEREADS_H
#define ORRERY_PASSES_DEVICEREADS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace orrery {

/// The element type of the memory \p Dst points to, as the runtime names it:
/// f32, f64, i8..i64, u8..u64, or "bytes" for anything else (void,
/// structs, arrays of those).
std::string deviceReadType(const clang::Expr *Dst,
                           const clang::ASTContext &Ctx);

/// \p Element as the runtime names a value type: f32, f64, i8..i64,
/// u8..u64, or "bytes" for anything else.
std::string valueTypeOf(clang::QualType Element, const clang::ASTContext &Ctx);

/// The value of a `#pragma orrery device_value(V)` on the line before
/// \p Loc (blank lines and comments in between are not allowed), if any.
std::optional<std::string> devicePragmaValue(clang::SourceLocation Loc,
                                             const clang::SourceManager &SM);

} // namespace orrery

#endif
