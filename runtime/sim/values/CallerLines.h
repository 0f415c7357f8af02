//===- CallerLines.h - Source lines of the program's calling frames -*- C++
//-*-===//
//
// A value for a device read or an MPI result may name the line where the
// program calls a helper that makes the read (TeaLeaf's and Quicksilver's
// reductions all pass through one helper): the runtime then needs the
// source lines of the frames that led to the read. They come from the call
// stack (glibc's backtrace) and the program's line tables (orrery-cxx
// compiles simulated programs with -gline-tables-only), read by
// llvm-symbolizer, which runs as one child process for the whole
// simulation and answers each code address once.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SIM_CALLERLINES_H
#define ORRERY_SIM_CALLERLINES_H

#include <string>
#include <vector>

namespace orrery::sim {

struct SourceLine {
  std::string File; ///< as the line table names it
  unsigned Line = 0;
};

/// The source lines of the calling program's frames, innermost first
/// (lines of calls inlined into a frame come before the frame's own line);
/// frames without line information are left out. Empty, with \p Why set
/// once, when the lines cannot be read (no llvm-symbolizer).
std::vector<SourceLine> callerLines(std::string &Why);

} // namespace orrery::sim

#endif
