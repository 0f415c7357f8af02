//===- fabric_order.cpp - where and when writes to a peer land ------------===//
//
// A run of puts into one window may share one notification only where the
// data of writes to a peer lands in the order they were posted
// (notify_run.cpp). libfabric says whether writes are transmitted in order
// (FI_ORDER_RMA_WAW in msg_order) and, separately, up to which size their
// data is placed in order (max_order_waw_size). tcp;ofi_rxm grants the
// first and reports 0 for the second as soon as atomics are asked for (it
// emulates them with messages), although its writes to a peer travel one
// TCP connection that the target reads, and places, front to back. So RAMC
// relies on transmission order only for providers whose writes to a peer
// share one ordered connection placed in order (connectedProvider, the
// same that wake a blocked waiter, fabric_wait.cpp): TCP and verbs RC
// queue pairs under ofi_rxm (a verbs completion with immediate data follows
// the placement of every earlier write on its queue pair), and sockets.
// Elsewhere it takes the provider's data-ordering size; on shm that is 0,
// and runs are counted once their puts have completed (completionLandsAbove).
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include <cstring>

namespace ramc {

bool connectedProvider(const std::string &Provider) {
  return Provider == "tcp;ofi_rxm" || Provider == "verbs;ofi_rxm" ||
         Provider == "sockets";
}

size_t orderedWriteBytes(const fi_info *Info) {
  if (!(Info->tx_attr->msg_order & (FI_ORDER_WAW | FI_ORDER_RMA_WAW)))
    return 0;
  if (connectedProvider(Info->fabric_attr->prov_name))
    return Info->ep_attr->max_msg_size;
  return Info->ep_attr->max_order_waw_size;
}

// Delivered runs (notify_run.cpp) need each of their puts' completion to mean
// its data has landed. libfabric's shm reports a write larger than its
// inject size complete only once it has landed, whatever the completion
// flags: without CQ data it copies the write into the target's memory
// through cross-memory attach (or xpmem) from the initiator before it
// writes the completion; otherwise the target copies it and returns the
// command first (shm's smr_rma.c and smr_progress.c, libfabric 1.17.0 and
// 2.x). FI_DELIVERY_COMPLETE would turn the first path off, the target
// then copying every write: against a raw fi_write loop on shm
// (bench/ramc.sh, two runs of 10 interleaved rounds each), 8-64 KiB puts
// ran at 0.81-1.01x with the flag and 0.88-0.96x without, 128 KiB - 4 MiB
// at 0.88-1.01x and 0.94-1.07x. Elsewhere delivery costs a round trip.
size_t Fabric::completionLandsAbove() const {
  return Info ? ramc::completionLandsAbove(*Info) : SIZE_MAX;
}

size_t completionLandsAbove(const fi_info &Info) {
  return std::strcmp(Info.fabric_attr->prov_name, "shm") == 0
             ? Info.tx_attr->inject_size
             : SIZE_MAX;
}

} // namespace ramc
