//===- fabric_order.cpp - where writes to a peer land in order ------------===//
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
// and every put notifies.
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

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

} // namespace ramc
