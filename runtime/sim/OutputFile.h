//===- OutputFile.h - Writing result files whole or not at all --*- C++ -*-===//

#ifndef ORRERY_SIM_OUTPUTFILE_H
#define ORRERY_SIM_OUTPUTFILE_H

#include <string>

namespace orrery::sim {

/// Writes \p Text to a temporary file beside \p Path and renames it over
/// \p Path, so a reader never sees a partial file. False with \p Error set
/// (naming the path) on failure.
bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Error);

} // namespace orrery::sim

#endif // ORRERY_SIM_OUTPUTFILE_H
