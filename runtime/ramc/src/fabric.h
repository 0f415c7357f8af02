//===- fabric.h - libfabric resources of one context ------------*- C++ -*-===//
//
// The libfabric transport (transport.h): opens fabric, domain, endpoint,
// address vector and completion queue on the chosen provider, decides the
// notification mode, registers memory honouring the provider's mr_mode,
// posts RMA operations and drains completions into a sink.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_FABRIC_H
#define RAMC_SRC_FABRIC_H

#include "transport.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

namespace ramc {

using FabricOptions = TransportOptions;

class Fabric final : public Transport {
public:
  Fabric() = default;
  Fabric(const Fabric &) = delete;
  Fabric &operator=(const Fabric &) = delete;
  ~Fabric() override { close(); }

  bool open(const FabricOptions &Opts, std::string &Err) override;
  void close() override;

  /// Registers [Buf, Buf+Len) for remote (and local) access; with Counted
  /// in MR_COUNTER mode, binds a fresh counter to count remote writes.
  bool registerMemory(void *Buf, size_t Len, bool Counted, MemRegion &Out,
                      std::string &Err) override;
  void release(MemRegion &R) override;
  /// Registers a local buffer for FI_MR_LOCAL providers (Desc only).
  bool registerLocal(const void *Buf, size_t Len, MemRegion &Out,
                     std::string &Err) override;
  bool readCounter(const MemRegion &R, uint64_t &Count,
                   uint64_t &Errors) override;

  std::vector<uint8_t> localAddress(std::string &Err) const override;
  bool insertAddress(const std::vector<uint8_t> &Addr, PeerAddr &Out,
                     std::string &Err) override;

  /// fi_write / fi_writedata, or their fi_inject_ forms when Op.Op is null.
  long write(const RmaOp &Op) override;
  long read(const RmaOp &Op) override;
  /// process_vm_writev into the peer (fabric_direct.cpp).
  long writeDirect(const RmaOp &Op, uint32_t Pid) override;
  bool writesDirectly() const override { return Direct; }
  long atomicInc(const RmaOp &Op, bool DeliveryComplete) override;
  /// fi_send, or fi_inject when Op is null.
  long sendBatch(PeerAddr Peer, const void *Buf, size_t Len, void *Desc,
                 void *Op) override;

  /// Drains the completion queue once (fabric_progress.cpp). Returns
  /// entries processed.
  size_t progress(CompletionSink &Sink) override;
  void waitForEvent(Backoff &B, const Deadline &D) override;
  void pollAgain(Backoff &B) override;

  NotifyMode notify() const override { return Mode; }
  size_t injectSize() const override { return InjectSize; }
  size_t maxMsgSize() const override { return MaxMsg; }
  size_t orderedWriteSize() const override { return OrderedWrite; }
  size_t completionLandsAbove() const override;
  size_t batchLimit() const override;
  bool needsLocalMr() const override { return MrMode & FI_MR_LOCAL; }
  bool hasAtomics() const override { return Atomics; }
  bool deliveryComplete() const override { return Delivery; }
  const std::string &providerName() const override { return ProvName; }
  uint64_t mrMode() const { return MrMode; }
  bool peersAreProcesses() const override { return true; }
  bool cpusShared() const override;
  bool waitsBlock() const override { return WaitFd; }
  std::string describe() const override;

private:
  fi_info *choose(fi_info *List) const;
  bool tryCounters(std::string &Why);
  bool bindAndEnable(fid_mr *Mr, fid_cntr *Cntr, std::string &Err);
  /// Opens Cq, with a file descriptor to block on where Wait asks for one
  /// and the provider has it (fabric_wait.cpp). Returns 0, 1 with Err set
  /// (Wait is Block and the provider has none), or a negative libfabric
  /// error.
  int openCompletionQueue(WaitMode Wait, std::string &Err);
  /// Blocks until the completion queue has something, or for at most a
  /// millisecond (MR counters, barrier releases do not wake it), never past
  /// D.
  void block(const Deadline &D);
  /// Batches arrive in multi-receive buffers (FI_MULTI_RECV), each handed
  /// back by the provider once nearly full and then posted again.
  bool postReceiveBuffers(std::string &Err);
  long repost(size_t Index);
  void rxReleased(void *Context, CompletionSink &Sink);

  static constexpr size_t kRxBuffers = 2;
  static constexpr size_t kRxBufferBytes = 512 * 1024;
  struct RxBuffer {
    std::unique_ptr<uint8_t[]> Data;
    MemRegion Mr;
  };
  std::vector<RxBuffer> RxBuffers;

  fi_info *Info = nullptr;
  fid_fabric *Fab = nullptr;
  fid_domain *Dom = nullptr;
  fid_ep *Ep = nullptr;
  fid_av *Av = nullptr;
  /// One completion queue for sends and receives (fabric_progress.cpp):
  /// each read of a queue is a pass of the provider's progress engine (on
  /// tcp, a poll() of its sockets), so a waiter reading two queues paid
  /// two passes per look.
  fid_cq *Cq = nullptr;
  bool WaitFd = false; // waits block on CqFd once they have spun
  int CqFd = -1;
  NotifyMode Mode = NotifyMode::CqData;
  size_t InjectSize = 0;
  size_t MaxMsg = 0;
  size_t OrderedWrite = 0;
  uint64_t MrMode = 0;
  uint64_t NextKey = 1;
  bool Atomics = false;
  bool Msg = false;
  bool Delivery = false;
  bool Direct = false; // writeDirect may copy (directWrites, and permitted)
  std::string ProvName;
};

/// libfabric objects RAMC opened and has not closed yet
/// (ramc_debug_live_objects); whoever opens one counts it.
std::atomic<long> &liveObjectCount();
/// fi_close that keeps that count.
void closeFid(fid_t F);

/// Provider-specific defaults applied before fi_getinfo (see cxi_tuning.cpp).
void applyProviderDefaults(const std::string &Provider);
/// Removes /dev/shm regions left by a dead process with this process's PID
/// (shm provider); returns how many (see shm_cleanup.cpp).
int removeStaleShmRegions();

/// Whether Provider reaches each peer over one connection (a TCP socket, a
/// verbs RC queue pair): a peer's operation then makes the completion
/// queue's descriptor readable (fabric_wait.cpp), and writes to a peer land
/// in the order they were posted (fabric_order.cpp).
bool connectedProvider(const std::string &Provider);

/// The largest write whose data lands at a peer after that of every write
/// posted to it before, on Info's provider; 0: none (fabric_order.cpp).
size_t orderedWriteBytes(const fi_info *Info);
/// The size above which the provider reports a write complete only once
/// its data has landed, whatever the completion flags (SIZE_MAX: none).
size_t completionLandsAbove(const fi_info &Info);

/// Whether a write's remote address on Info's provider is the target's
/// virtual address and the provider itself writes peers' memory by
/// cross-memory attach, so that RAMC may too (fabric_direct.cpp).
bool directWrites(const fi_info &Info);

/// Provider-specific facts appended to Fabric::describe() (CXI ordering).
std::string providerNotes(const std::string &Provider);

} // namespace ramc

#endif
