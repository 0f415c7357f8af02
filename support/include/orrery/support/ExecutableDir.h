//===- ExecutableDir.h - Where the running program lives ---------*- C++ -*-===//
//
// Tools find their companions (orrery-plot, the probes, an installed lib/)
// next to their own executable.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SUPPORT_EXECUTABLEDIR_H
#define ORRERY_SUPPORT_EXECUTABLEDIR_H

#include <string>

namespace orrery::support {

/// The directory of the running executable (/proc/self/exe, links
/// resolved), or an empty string when it cannot be read.
std::string executableDir();

} // namespace orrery::support

#endif
