//===- FabricOrderTest.cpp - where and when writes to a peer land ---------===//
#include "fabric.h"

#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <rdma/fabric.h>

using namespace ramc;

namespace {

/// An fi_info as fi_getinfo would return it for Provider.
struct FakeInfo {
  fi_info *Info = fi_allocinfo();
  FakeInfo(const char *Provider, uint64_t Order, size_t Inject) {
    Info->fabric_attr->prov_name = strdup(Provider);
    Info->tx_attr->msg_order = Order;
    Info->tx_attr->inject_size = Inject;
    Info->ep_attr->max_msg_size = 1 << 30;
    Info->ep_attr->max_order_waw_size = 4096;
  }
  ~FakeInfo() { fi_freeinfo(Info); }
};

} // namespace

TEST(FabricOrderTest, ConnectedProvidersOrderWritesOfAnySize) {
  FakeInfo Tcp("tcp;ofi_rxm", FI_ORDER_RMA_WAW, 64);
  EXPECT_EQ(orderedWriteBytes(Tcp.Info), Tcp.Info->ep_attr->max_msg_size);
  FakeInfo Sockets("sockets", FI_ORDER_WAW, 64);
  EXPECT_EQ(orderedWriteBytes(Sockets.Info),
            Sockets.Info->ep_attr->max_msg_size);
}

TEST(FabricOrderTest, OtherProvidersOrderUpToTheirDataOrderingSize) {
  FakeInfo Cxi("cxi", FI_ORDER_RMA_WAW, 192);
  EXPECT_EQ(orderedWriteBytes(Cxi.Info), Cxi.Info->ep_attr->max_order_waw_size);
}

TEST(FabricOrderTest, NoOrderWithoutWriteAfterWrite) {
  FakeInfo Shm("shm", FI_ORDER_SAS, 4096);
  EXPECT_EQ(orderedWriteBytes(Shm.Info), 0u);
  FakeInfo Tcp("tcp;ofi_rxm", FI_ORDER_SAS, 64);
  EXPECT_EQ(orderedWriteBytes(Tcp.Info), 0u);
}

TEST(FabricOrderTest, ShmCompletesWritesBeyondItsInjectSizeOnceLanded) {
  FakeInfo Shm("shm", FI_ORDER_SAS, 4096);
  EXPECT_EQ(completionLandsAbove(*Shm.Info), Shm.Info->tx_attr->inject_size);
  // Elsewhere only FI_DELIVERY_COMPLETE says a write has landed.
  FakeInfo Tcp("tcp;ofi_rxm", FI_ORDER_RMA_WAW, 64);
  EXPECT_EQ(completionLandsAbove(*Tcp.Info), SIZE_MAX);
  FakeInfo Cxi("cxi", FI_ORDER_RMA_WAW, 192);
  EXPECT_EQ(completionLandsAbove(*Cxi.Info), SIZE_MAX);
}

TEST(FabricOrderTest, RamcWritesDirectlyOnlyWhereShmAddressesAreVirtual) {
  FakeInfo Shm("shm", FI_ORDER_SAS, 4096);
  Shm.Info->domain_attr->mr_mode = FI_MR_VIRT_ADDR;
  EXPECT_TRUE(directWrites(*Shm.Info));
  Shm.Info->domain_attr->mr_mode = FI_MR_PROV_KEY; // offsets into the region
  EXPECT_FALSE(directWrites(*Shm.Info));
  FakeInfo Tcp("tcp;ofi_rxm", FI_ORDER_RMA_WAW, 64);
  Tcp.Info->domain_attr->mr_mode = FI_MR_VIRT_ADDR;
  EXPECT_FALSE(directWrites(*Tcp.Info));
}
