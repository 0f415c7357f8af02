//===- PayloadCopies.cpp - SMPI's payload copies, filtered ----------------===//
//
// SMPI calls one function to copy a message's payload once both ends are
// matched (smpi_comm_set_copy_data_callback). It is handed the source buffer
// only. For a send below smpi/send-is-detached-thresh (64 KiB by default:
// most halo rows) the source is SMPI's own heap copy of the sender's buffer,
// so whether the payload came from device memory cannot be told from it; the
// destination can: a simulated GPU's array. SimGrid 3.32 does not install
// the header of its communication object (CommImpl), but exports the setter
// of the destination buffer; its effect on the object, observed once, shows
// where the destination is kept. Where that cannot be learnt the payload is
// copied, as SMPI does.
//
//===----------------------------------------------------------------------===//

#include "PayloadCopies.h"
#include "gpu/DeviceExecutor.h"
#include "gpu/DeviceMemory.h"
#include "ranks/SharedHost.h"

#include <smpi/smpi.h>

#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

// simgrid::kernel::activity::CommImpl::set_dst_buff(unsigned char *,
// size_t *), exported by libsimgrid 3.32 (a member function: the object is
// the first argument, the returned reference a pointer).
extern "C" void *orrerySetCommDestination(
    void *Comm, unsigned char *Buff,
    std::size_t *Size) __asm__("_ZN7simgrid6kernel8activity8CommImpl12set_dst_"
                               "buffEPhPm");

namespace orrery::sim {
namespace {

using CommImpl = simgrid::kernel::activity::CommImpl;

constexpr std::ptrdiff_t NotLearnt = -1, Unknown = -2;
std::ptrdiff_t DestinationOffset = NotLearnt;

/// Finds where \p Comm keeps its destination buffer: the setter is called
/// with two markers, the words that change are the buffer's and its size
/// pointer's, and every changed word is put back. The object is read only
/// within its heap block (malloc_usable_size).
std::ptrdiff_t learnDestinationOffset(CommImpl *Comm) {
  std::size_t Bytes = malloc_usable_size(Comm);
  if (Bytes < 4 * sizeof(void *) || Bytes > 4096)
    return Unknown;
  std::size_t Words = Bytes / sizeof(std::uintptr_t);
  std::vector<std::uintptr_t> Before(Words), After(Words);
  std::memcpy(Before.data(), Comm, Words * sizeof(std::uintptr_t));
  unsigned char BuffMarker = 0;
  std::size_t SizeMarker = 0;
  orrerySetCommDestination(Comm, &BuffMarker, &SizeMarker);
  std::memcpy(After.data(), Comm, Words * sizeof(std::uintptr_t));
  std::ptrdiff_t BuffAt = Unknown;
  int Changed = 0, Sizes = 0;
  for (std::size_t I = 0; I < Words; ++I) {
    if (Before[I] == After[I])
      continue;
    ++Changed;
    if (After[I] == reinterpret_cast<std::uintptr_t>(&BuffMarker))
      BuffAt = static_cast<std::ptrdiff_t>(I * sizeof(std::uintptr_t));
    else if (After[I] == reinterpret_cast<std::uintptr_t>(&SizeMarker))
      ++Sizes;
    std::memcpy(reinterpret_cast<char *>(Comm) + I * sizeof(std::uintptr_t),
                &Before[I], sizeof(std::uintptr_t));
  }
  // The buffer and its size pointer, each once, and nothing else: anything
  // else is a layout this code does not know.
  return Changed <= 2 && Sizes <= 1 && BuffAt >= 0 ? BuffAt : Unknown;
}

void *destinationOf(CommImpl *Comm) {
  if (DestinationOffset == NotLearnt)
    DestinationOffset = learnDestinationOffset(Comm);
  if (DestinationOffset < 0)
    return nullptr;
  void *P = nullptr;
  std::memcpy(&P, reinterpret_cast<char *>(Comm) + DestinationOffset, sizeof P);
  return P;
}

/// The shared block of zeros sends from device memory read instead
/// (noDataSource): never written, its pages appear as reads touch them.
constexpr std::size_t ZeroSourceBytes = 1 << 20;
const char *ZeroSource = nullptr;

bool inZeroSource(const void *P) {
  auto *C = static_cast<const char *>(P);
  return ZeroSource && C >= ZeroSource && C < ZeroSource + ZeroSourceBytes;
}

/// Simulated device memory that no real GPU backs: no data. (Managed
/// memory holds what host code wrote there.)
bool deviceWithoutData(const Allocation *A) {
  return A && A->Kind == MemoryKind::Device &&
         !deviceExecutor().hostReachable();
}

/// Memory whose contents nothing reads in this run: device memory without
/// data, shared host blocks, the zero source. \p Once: a pointer asked
/// about once (SMPI's heap copy of a payload), not remembered.
bool holdsNoData(const void *P, bool Once) {
  const DeviceMemory &M = DeviceMemory::get();
  return deviceWithoutData(Once ? M.findOnce(P) : M.find(P)) ||
         shared_host::contains(P) || inZeroSource(P);
}

/// SMPI's copy step. Shared host blocks hold no meaningful data either;
/// copying them would cost a memcpy per message (a host-staged ping-pong of
/// 1 GiB messages spent minutes of wall time in it) and change no simulated
/// time. A skipped copy still goes through SMPI's function with no bytes,
/// which frees its heap copy of a detached send's payload.
void copyUnlessNoData(smx_activity_t Activity, void *Buff, size_t Size) {
  // smx_activity_t is the comm's activity (CommImpl derives from it alone).
  auto *Comm = reinterpret_cast<CommImpl *>(Activity);
  if (holdsNoData(Buff, /*Once=*/true))
    return; // never a detached send's heap copy: nothing to free
  void *Destination = destinationOf(Comm);
  if (Destination && holdsNoData(Destination, /*Once=*/false))
    Size = 0;
  smpi_comm_copy_buffer_callback(Comm, Buff, Size);
}

} // namespace

const void *noDataSource(const void *Buf, int Count, MPI_Datatype Type) {
  if (!Buf || Count <= 0 || !deviceWithoutData(DeviceMemory::get().find(Buf)))
    return Buf;
  // The bytes the send reads: from the type's true lower bound to the end
  // of its last element.
  MPI_Aint Lb = 0, Extent = 0, TrueLb = 0, TrueExtent = 0;
  if (MPI_Type_get_extent(Type, &Lb, &Extent) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(Type, &TrueLb, &TrueExtent) != MPI_SUCCESS ||
      TrueLb < 0 || Extent < 0 || TrueExtent < 0)
    return Buf;
  auto Span =
      static_cast<std::size_t>(TrueLb) +
      static_cast<std::size_t>(Count - 1) * static_cast<std::size_t>(Extent) +
      static_cast<std::size_t>(TrueExtent);
  if (Span > ZeroSourceBytes)
    return Buf; // a rendezvous send: SMPI does not read it (copyUnlessNoData)
  if (!ZeroSource)
    ZeroSource = static_cast<const char *>(std::calloc(1, ZeroSourceBytes));
  return ZeroSource ? ZeroSource : Buf;
}

void installCopyFilter() {
  static bool Installed = false;
  if (!Installed)
    smpi_comm_set_copy_data_callback(copyUnlessNoData);
  Installed = true;
}

} // namespace orrery::sim
