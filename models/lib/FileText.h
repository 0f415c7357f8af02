//===- FileText.h - Bounded reading of a machine file ------------*- C++
//-*-===//
//
// Internal helper of the machine-file reader: reads a file once, refusing
// what cannot be a machine file (a directory, a device such as /dev/zero)
// and anything larger than MaxMachineFileBytes, so a wrong path can neither
// hang the reader nor run it out of memory.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_LIB_FILETEXT_H
#define ORRERY_MODELS_LIB_FILETEXT_H

#include <cstddef>
#include <string>

namespace orrery::models::detail {

/// Machine files are a few kilobytes; 4 MiB leaves room for generated ones.
constexpr std::size_t MaxMachineFileBytes = 4u << 20;

/// Reads Path (a regular file or a pipe) into Text. On failure returns false
/// and sets Error to what is wrong and what to do.
bool readMachineFileText(const std::string &Path, std::string &Text,
                         std::string &Error);

} // namespace orrery::models::detail

#endif
