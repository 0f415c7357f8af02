//===- InputFiles.h - Reading orrery-instrument's inputs once ----*- C++
//-*-===//
//
// Each input is read exactly once, here, and clang parses that text: an
// input that is a pipe (`<(cat x.cu)`) has no second reading to give.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_TOOL_INSTRUMENT_INPUTFILES_H
#define ORRERY_TOOL_INSTRUMENT_INPUTFILES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace orrery {

/// Inputs above 64 MiB are refused: no source file is that large, and
/// reading a device such as /dev/zero must end.
constexpr std::uint64_t MaxInputBytes = 64u << 20;

/// The content of the regular file or pipe at Path, or an error that names
/// the file and what to do (missing, a directory or device, too large, a
/// pipe that gave no data).
llvm::Expected<std::string> readInput(llvm::StringRef Path);

} // namespace orrery

#endif
