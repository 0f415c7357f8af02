//===- RecordedReads.h - Device values a native run read --------*- C++ -*-===//
//
// A simulated GPU holds no data, so a program's control flow on values it
// copies back (a solver's residual, a particle count) needs values from
// somewhere. A native run on a real GPU records them: with
// ORRERY_RECORD_READS=FILE set, liborrery-native writes, per rank, every
// value each device-to-host read site got, in order (and each result of an
// MPI reduction, scan or broadcast). orrery-run --replay-reads FILE hands
// the files to liborrery-sim, which gives each site's reads those values
// again: measured once at small scale, the program runs the real iteration
// counts at any scale.
//
// The file (one per rank, JSON; docs/simulate.md):
//
//   {"schema": "orrery-device-reads/1", "rank": 0, "world_size": 2,
//    "sites": [{"file": "solver.c", "line": 40, "column": 5,
//               "api": "cudaMemcpy", "type": "f64", "bytes": 8,
//               "reads": 12, "values": [["1", 1], ["0.5", 1], ...]}],
//    "unrecorded": 0}
//
// "values" holds runs of equal values (value, count) in read order. A value
// is a number in the site's element type, or "bytes:0x..." for a read
// whose elements differ (the buffer's bytes in memory order, at most
// MaxRecordedBytes of them).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_SUPPORT_RECORDEDREADS_H
#define ORRERY_SUPPORT_RECORDEDREADS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace orrery::support {

/// The schema name written into and checked in every recorded file.
inline constexpr const char *RecordedReadsSchema = "orrery-device-reads/1";

/// The most bytes of one read a file keeps when its elements differ (a
/// host-side reduction over per-block partial sums); longer reads keep
/// their first MaxRecordedBytes, repeated on replay.
inline constexpr std::size_t MaxRecordedBytes = 4096;

struct RecordedSite {
  std::string File; ///< as the instrumenter named it
  unsigned Line = 0, Column = 0;
  std::string Api, Type;   ///< the call and the element type (f64, ..., bytes)
  std::uint64_t Bytes = 0; ///< bytes of the last read
  std::uint64_t Reads = 0; ///< the sum of the runs' counts
  std::vector<std::pair<std::string, std::uint64_t>> Values;

  /// Appends a read of \p Value (extends the last run when equal).
  void add(const std::string &Value);
};

struct RecordedReads {
  int Rank = 0, WorldSize = 1;
  std::vector<RecordedSite> Sites;
  /// Reads the recorder could not take: a destination in device memory,
  /// or an asynchronous copy never synchronised before exit.
  std::uint64_t Unrecorded = 0;
};

/// Bytes of one element of a device read's value type (f32, f64, i8..i64,
/// u8..u64, as orrery_read_hint names it); 0 for "bytes" (no element type).
std::size_t valueTypeBytes(const std::string &Type);

/// The text of \p N bytes at \p Data read as \p Type: a number when every
/// element is equal (or N is one element), else "bytes:0x..." (at most
/// MaxRecordedBytes).
std::string recordedValue(const std::string &Type, const unsigned char *Data,
                          std::size_t N);

/// \p R as the JSON text of a recorded file.
std::string recordedReadsJson(const RecordedReads &R);

/// Parses the text of a recorded file named \p Path; false with \p Error
/// naming the file and the entry at fault.
bool parseRecordedReads(const std::string &Text, const std::string &Path,
                        RecordedReads &Out, std::string &Error);

/// Reads and parses \p Path.
bool readRecordedReads(const std::string &Path, RecordedReads &Out,
                       std::string &Error);

} // namespace orrery::support

#endif
