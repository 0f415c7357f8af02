//===- sim_transport.h - RAMC's transport under SimGrid --------*- C++ -*-===//
//
// The Transport of libramc-sim (transport.h): each context of each rank owns
// a SimEndpoint on the rank's CPU host; writes, atomics and large reads are
// one-sided messages between CPU hosts (sim_flows.h), small reads round
// trips the calling rank waits for; the per-call software overheads of the
// machine file's network.ramc section are charged to the calling rank
// first; device buffers charge the device legs GPU-aware MPI would;
// deadlines are simulated time; waiting blocks the rank's actor until
// something arrives for it.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_TRANSPORT_H
#define RAMC_SRC_SIM_SIM_TRANSPORT_H

#include "batch.h"
#include "sim_costs.h"
#include "sim_endpoint.h"
#include "sim_flows.h"
#include "transport.h"

#include <memory>
#include <string>
#include <vector>

namespace ramc::sim {

/// Reads up to this size are round trips timed by the calling rank's own
/// wait; larger ones a request and a reply message (sim_flows.h).
constexpr size_t kSmallReadBytes = 4096;

class SimTransport final : public Transport {
public:
  SimTransport() = default;
  ~SimTransport() override { close(); }

  bool open(const TransportOptions &Opts, std::string &Err) override;
  void close() override;

  bool registerMemory(void *Buf, size_t Len, bool Counted, MemRegion &Out,
                      std::string &Err) override;
  bool registerLocal(const void *Buf, size_t Len, MemRegion &Out,
                     std::string &Err) override;
  void release(MemRegion &R) override;
  bool readCounter(const MemRegion &R, uint64_t &Count,
                   uint64_t &Errors) override;

  std::vector<uint8_t> localAddress(std::string &Err) const override;
  bool insertAddress(const std::vector<uint8_t> &Addr, PeerAddr &Out,
                     std::string &Err) override;

  long write(const RmaOp &Op) override;
  long read(const RmaOp &Op) override;
  long atomicInc(const RmaOp &Op, bool DeliveryComplete) override;
  /// A message like a write of Len bytes, delivered to the target's next
  /// progress().
  long sendBatch(PeerAddr Peer, const void *Buf, size_t Len, void *Desc,
                 void *Op) override;

  size_t progress(CompletionSink &Sink) override;
  void waitForEvent(Backoff &B, const Deadline &D) override;
  void pollAgain(Backoff &B) override;

  NotifyMode notify() const override { return Mode; }
  size_t injectSize() const override { return Costs.InjectSize; }
  size_t maxMsgSize() const override { return size_t(1) << 40; }
  /// Batches as natively (the front end decides alike).
  size_t batchLimit() const override { return kMaxBatchBytes; }
  bool hostMemory(const void *Buf) const override;
  bool needsLocalMr() const override { return false; }
  bool hasAtomics() const override { return true; }
  bool deliveryComplete() const override { return Delivery; }
  const std::string &providerName() const override { return Provider; }
  std::string describe() const override;
  /// Every rank's control region lives in one process: keep it small.
  size_t defaultMaxWindows() const override { return 64; }
  unsigned scratchSlots() const override { return 2; }

private:
  /// The peer at Addr (insertAddress), or nullptr.
  SimEndpoint *peer(PeerAddr Addr) const;
  /// Charges a per-call overhead to the calling rank.
  static void charge(const Overhead &O);
  /// Starts a flow of kind K for Op to its peer: Bytes on the wire.
  long start(FlowKind K, const RmaOp &Op, uint64_t Bytes);
  /// A read of at most kSmallReadBytes: a computed round trip within the
  /// call (not flows: polls of status words and boards are the most
  /// frequent operations of relaxed synchronization, and too small to load
  /// the network).
  long readSmall(const RmaOp &Op);

  SimCosts Costs;
  NotifyMode Mode = NotifyMode::CqData;
  bool Delivery = false;
  std::string Provider;
  std::shared_ptr<SimEndpoint> Self;
  std::vector<std::shared_ptr<SimEndpoint>> Peers;
  double LastPoll = -1;
};

} // namespace ramc::sim

#endif
