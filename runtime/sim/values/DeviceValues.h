//===- DeviceValues.h - Device memory the host reads -----------*- C++ -*-===//
//
// Simulated GPUs hold no data, so what a program copies back from device
// memory is unknown: by default zeros, which end every convergence loop after
// one iteration. Users set the value read at a source location without
// touching the program -- orrery-run --device-value FILE:LINE=VALUE or a YAML
// file, passed here as ORRERY_DEVICE_VALUES -- or with `#pragma orrery
// device_value(V)` before the call. The value is written in the
// destination's element type (the instrumenter tells it, orrery_read_hint),
// and every read site is listed in the report with what it got.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_SIM_DEVICEVALUES_H
#define ORRERY_SIM_DEVICEVALUES_H

#include "ranks/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace orrery::sim {

/// Reads ORRERY_DEVICE_VALUES (a JSON file orrery-run writes: a list of
/// {"file", "line", "value", "origin"}); exits naming the file when it is
/// unreadable.
void loadDeviceValues();

/// Fills \p Bytes of host memory at \p Dst, the destination of a copy out of
/// device memory by the calling rank inside its innermost open site, and
/// records the read for the report. Large shared host blocks are left
/// untouched unless a value is set.
void deviceRead(Rank &R, void *Dst, std::size_t Bytes);

/// Whether any value may replace an MPI result: the user set one
/// (--device-value, --device-values) or a recording is replayed.
bool resultValuesGiven();

/// The result \p Result (an MPI buffer) of a reduction, scan or broadcast at
/// \p Site: when the user set a value at the site's line or at a caller's,
/// or a replayed recording has the site's results, it is chosen now, in call
/// order, and written over the computed result when the call returns (\p
/// Request null) or, for a nonblocking call, when a wait or test completes the
/// request the program keeps at \p Request. Control flow that ends on a global
/// count or norm (a particle loop, a solver whose residual lives in managed
/// memory) reaches its decision through such a call, where no device read is
/// seen.
void mpiResultBegin(Rank &R, const orrery_site *Site, const orrery_buf &Result,
                    const void *Request);
/// At the end of each MPI call of \p R: writes the results that are there
/// now (the call's own, and those whose requests it completed: the
/// program's request is MPI_REQUEST_NULL again).
void mpiResultsCompleted(Rank &R);

/// What the kernel \p Func launched (\p Launch: its site and
/// orrery_launch_value's pragma) with arguments \p Args leaves in memory the
/// host reads directly (managed or mapped pinned memory): a value set at
/// FILE:LINE@ARG (or `#pragma orrery device_value(ARG=VALUE)` before the
/// launch) is written, at the launch,
/// into the first element its pointer argument ARG points to, in the
/// element type the kernel registry names. Skeleton mode only.
void kernelOutputs(Rank &R, const PendingLaunch &Launch, const void *Func,
                   void **Args);

/// \p Text in \p Type's representation (f32, f64, i8-i64, u8-u64, bytes):
/// \p Out holds one element; for "bytes", a byte value or a 0x pattern of
/// any length. False if it does not parse or does not fit the type (a
/// float past FLT_MAX, an integer past its width).
bool encodeDeviceValue(const std::string &Type, const std::string &Text,
                       std::vector<unsigned char> &Out);

/// Report warnings for values that no read used.
void warnUnusedDeviceValues(Report &Rep);

} // namespace orrery::sim

#endif // ORRERY_SIM_DEVICEVALUES_H
