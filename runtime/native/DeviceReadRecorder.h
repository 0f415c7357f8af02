//===- DeviceReadRecorder.h - Values a native run copied back ---*- C++ -*-===//
//
// With ORRERY_RECORD_READS=FILE (%r: the rank, %p: the process id) a native
// run writes, at exit, every value each device-to-host read site got, in
// order (orrery/support/RecordedReads.h); orrery-run --replay-reads gives a
// simulation those values again. A blocking copy is read when it returns;
// an asynchronous one when the program synchronises with its stream
// (cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize on an
// event recorded on that stream after it). Destinations in device memory
// are not read (the driver says where a pointer lives).
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_DEVICEREADRECORDER_H
#define ORRERY_RUNTIME_NATIVE_DEVICEREADRECORDER_H

#include "orrery/hooks.h"

#include <cstddef>

namespace orrery::native {

/// Whether ORRERY_RECORD_READS is set (the other calls do nothing if not).
bool recordingReads();
/// orrery_read_hint: \p Site's next call may read device memory into host
/// memory holding \p Type elements.
void readHint(const orrery_site *Site, const char *Type);
/// orrery_cuda_begin of \p Site: its destination, cudaMemcpyKind or other
/// aux value, and stream (or event, for event calls).
void readBegin(const orrery_site *Site, const orrery_buf &Dst, long long Aux,
               const void *Stream);
/// The end of \p Site's call with \p Result (0: success).
void readEnd(const orrery_site *Site, long long Result);
/// Records that \p Site read \p Bytes at \p Data, elements of \p Type, now
/// (an MPI result whose call completed: MpiResultRecorder.h).
void recordRead(const orrery_site *Site, const char *Type,
                const unsigned char *Data, std::size_t Bytes);

} // namespace orrery::native

#endif
