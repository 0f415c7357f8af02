//===- MallocTuning.cpp - Keep the simulator's heap from churning --------===//
//
// SMPI allocates and frees message and collective buffers of up to
// megabytes on every call. With glibc's defaults the heap is trimmed each
// time the free space at its top exceeds 128 KiB, and grown back (and the
// pages faulted in, zeroed) on the next call: OSU's osu_iallreduce -d cuda
// on 8 ranks spent 57 of its 148 s in the kernel. Keeping up to 128 MiB of
// free heap makes the run 54.9 s against 148.1 s, with bit-identical
// results (docs/performance.md, "Allocator settings"). A
// setting the user made through the environment (the trim threshold or top pad
// in GLIBC_TUNABLES, MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_) wins. (orrery-run
// sets GLIBC_TUNABLES' tcache count.)
//
//===----------------------------------------------------------------------===//

#include <malloc.h>

#include <cstdlib>
#include <cstring>

namespace {

constexpr int TrimThreshold = 128 << 20;
constexpr int TopPad = 16 << 20;

__attribute__((constructor)) void tuneMalloc() {
  const char *Tunables = std::getenv("GLIBC_TUNABLES");
  if ((Tunables && (std::strstr(Tunables, "glibc.malloc.trim_threshold") ||
                    std::strstr(Tunables, "glibc.malloc.top_pad"))) ||
      std::getenv("MALLOC_TRIM_THRESHOLD_") || std::getenv("MALLOC_TOP_PAD_"))
    return;
  mallopt(M_TRIM_THRESHOLD, TrimThreshold);
  mallopt(M_TOP_PAD, TopPad);
}

} // namespace
