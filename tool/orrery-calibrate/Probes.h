//===- Probes.h - Running probe programs and reading their samples -*- C++ -*-//
//
// A probe prints one line per measurement, "NAME BYTES SECONDS"; other lines
// are ignored. MPI probes run under the user's launcher (the words after
// "--"), others directly.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_TOOL_CALIBRATE_PROBES_H
#define ORRERY_TOOL_CALIBRATE_PROBES_H

#include "Fit.h"

#include <map>
#include <string>
#include <vector>

namespace orrery::calibrate {

struct ProbeSpec {
  std::string Name;       ///< "pingpong", "memcpy"
  std::string Executable; ///< bin/orrery-probe-NAME
  bool Mpi = false;       ///< run under the launcher
};

/// The probes this version knows, in the order they run.
std::vector<std::string> knownProbes();

/// Quotes \p Word for /bin/sh.
std::string shellQuote(const std::string &Word);

/// A probe's samples by name ("pingpong", "h2d_pinned", "triad", ...).
using NamedSamples = std::map<std::string, std::vector<Sample>>;

/// Runs \p Command (already quoted) and collects its "NAME BYTES SECONDS"
/// lines by name (lines starting with '#' are comments). Returns its wait
/// status, or -1 when it cannot be started.
int readProbeSamples(const std::string &Command, NamedSamples &Out);

/// How a nonzero wait status \p Status ended, for messages ("exited with
/// status 2", "was killed by signal 9").
std::string exitDescription(int Status);

/// Runs \p Command (already quoted), collecting the lines of \p Name into
/// \p Out. False with \p Error naming the probe, the command and its status.
bool runProbe(const std::string &Name, const std::string &Command,
              std::vector<Sample> &Out, std::string &Error);

} // namespace orrery::calibrate

#endif // ORRERY_TOOL_CALIBRATE_PROBES_H
