//===- Diagnostics.h - orrery-instrument's numbered diagnostics -*- C++ -*-===//
//
// Every diagnostic the tool adds carries a stable code, `[orrery-W00N]` or
// `[orrery-E00N]`, documented in docs/instrument.md.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_PASSES_DIAGNOSTICS_H
#define ORRERY_PASSES_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"

namespace orrery {

enum DiagCode : unsigned {
  DiagNotModeled = 1,        ///< W001: API call the tool does not model
  DiagMacroBody = 2,         ///< W002: call inside a macro body
  DiagDeviceCode = 3,        ///< W003: call or launch in device code
  DiagHostDevice = 4,        ///< W004: call in a __host__ __device__ function
  DiagArgSideEffects = 5,    ///< W005: annotation omitted (side effects)
  DiagLaunchSideEffects = 6, ///< W006: launch geometry with side effects
  DiagResultType = 7,        ///< W007: result type the ABI cannot carry
  DiagDeviceValue = 8,       ///< W008: unusable #pragma orrery device_value
  DiagAlreadyInstrumented = 101, ///< E001: input was already instrumented
  DiagEditConflict = 102,        ///< E002: conflicting rewrites
};

void reportWarning(clang::DiagnosticsEngine &DE, clang::SourceLocation Loc,
                   unsigned Code, llvm::StringRef Message);
void reportError(clang::DiagnosticsEngine &DE, clang::SourceLocation Loc,
                 unsigned Code, llvm::StringRef Message);

} // namespace orrery

#endif
