//===- ValueChoice.h - Choosing the value one read gets ---------*- C++ -*-===//
//
// Shared by the places a simulated run writes a value the program reads
// (DeviceValues.cpp: device-to-host copies; ResultValues.cpp: MPI results
// and what kernels leave behind): the user's values, where a rank is in a
// schedule or a recording, and the report's row of each read.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SIM_VALUECHOICE_H
#define ORRERY_SIM_VALUECHOICE_H

#include "orrery/support/DeviceValueSpec.h"
#include "ranks/Runtime.h"

#include <cstddef>
#include <string>
#include <vector>

namespace orrery::sim {

/// A value the user set (--device-value, --device-values): where and what
/// (FILE:LINE@ARG names a kernel launch's pointer parameter; Arg is empty
/// for reads and MPI results), and whether a site used it.
struct UserValue : support::DeviceValueSpec {
  bool Used = false;
  bool IsSite = false; ///< it named a read site's own line
};

std::vector<UserValue> &userValues();

/// Whether --device-value's \p Given names \p SiteFile: the file as given
/// to the instrumenter, or a path ending in it.
bool sameFile(const std::string &Given, const char *SiteFile);

/// The user's value for \p Site (not a kernel output): one set at the line
/// of a caller on the call stack (the nearest, named in \p Via) wins over
/// one set at the site's own line.
UserValue *userValueFor(const orrery_site *Site, std::string &Via);

/// Whether a replayed recording (--replay-reads) has \p Site's reads for
/// \p R.
bool hasRecording(const orrery_site *Site, Rank &R);

/// What one read of a site by a rank gets.
struct Chosen {
  std::string Spec;   ///< the value or schedule in force ("" none)
  std::string Source; ///< where it came from
  std::string Text;   ///< this read's value ("" or "keep": none written)
  std::string Site;   ///< FILE:LINE:COLUMN of the read
  std::string Via;    ///< the caller's line whose value it took, or ""
  /// The report's row (and the warnings' name for the read).
  std::string key() const { return Via.empty() ? Site : Site + " via " + Via; }
};

/// The next value of \p R's reads of \p Site: \p User's, else a recording,
/// else \p Pragma's (a schedule steps on per read).
Chosen chooseValue(Rank &R, const orrery_site *Site, UserValue *User,
                   const std::string &Via, const char *Pragma);

/// Encodes \p C's value as \p Type into \p E (a warning and no value when
/// it does not fit); false when nothing is to be written.
bool encodeChosen(Chosen &C, const std::string &Type,
                  std::vector<unsigned char> &E);

/// Counts one read of \p Bytes at \p Site in the report's device reads,
/// made by \p Api (the site's call when null).
void recordRead(const Chosen &C, const orrery_site *Site,
                const std::string &Type, double Bytes,
                const char *Api = nullptr);

/// Writes \p E over \p Bytes at \p Dst, element after element (a tail
/// shorter than one element is zeroed).
void fill(void *Dst, std::size_t Bytes, const std::vector<unsigned char> &E);

} // namespace orrery::sim

#endif
