//===- OutputFile.h - Writing result files whole or not at all --*- C++ -*-===//

#ifndef ORRERY_SIM_OUTPUTFILE_H
#define ORRERY_SIM_OUTPUTFILE_H

#include "orrery/trace/TraceFile.h"

namespace orrery::sim {

/// Writes a file whole or not at all (shared with liborrery-native).
using trace::writeFileAtomically;

} // namespace orrery::sim

#endif // ORRERY_SIM_OUTPUTFILE_H
