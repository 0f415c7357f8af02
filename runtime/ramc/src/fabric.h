//===- fabric.h - libfabric resources of one context ------------*- C++ -*-===//
//
// Opens fabric, domain, endpoint, address vector and completion queues on
// the chosen provider, decides the notification mode, registers memory
// honouring the provider's mr_mode, and drains completions into a sink.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_FABRIC_H
#define RAMC_SRC_FABRIC_H

#include <cstdint>
#include <string>
#include <vector>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

namespace ramc {

enum class NotifyMode { Auto = 0, MrCounter = 1, CqData = 2 };

struct FabricOptions {
  std::string Provider; // empty: best available
  NotifyMode Notify = NotifyMode::Auto;
  bool DeliveryComplete = false;
};

/// A registered memory region; Cntr counts remote writes in MR_COUNTER mode.
struct MemRegion {
  fid_mr *Mr = nullptr;
  fid_cntr *Cntr = nullptr;
  void *Desc = nullptr;
  uint64_t Key = 0;
  uint64_t RemoteBase = 0; // address a peer uses for offset 0
};

/// Receives what Fabric::progress drains.
class CompletionSink {
public:
  virtual ~CompletionSink() = default;
  virtual void onTxDone(void *Op) = 0;
  virtual void onTxError(void *Op, int Err, const std::string &Msg) = 0;
  virtual void onRemoteData(uint64_t Data) = 0;
  virtual void onRxError(int Err, const std::string &Msg) = 0;
};

class Fabric {
public:
  Fabric() = default;
  Fabric(const Fabric &) = delete;
  Fabric &operator=(const Fabric &) = delete;
  ~Fabric() { close(); }

  bool open(const FabricOptions &Opts, std::string &Err);
  void close();

  /// Registers [Buf, Buf+Len) for remote (and local) access; with Counted
  /// in MR_COUNTER mode, binds a fresh counter to count remote writes.
  bool registerMemory(void *Buf, size_t Len, bool Counted, MemRegion &Out,
                      std::string &Err);
  void release(MemRegion &R);
  /// Registers a local buffer for FI_MR_LOCAL providers (Desc only).
  bool registerLocal(const void *Buf, size_t Len, MemRegion &Out,
                     std::string &Err);

  std::vector<uint8_t> localAddress(std::string &Err) const;
  bool insertAddress(const std::vector<uint8_t> &Addr, fi_addr_t &Out,
                     std::string &Err);

  /// Drains both completion queues once. Returns entries processed.
  size_t progress(CompletionSink &Sink);

  fid_ep *ep() const { return Ep; }
  NotifyMode notify() const { return Mode; }
  size_t injectSize() const { return InjectSize; }
  size_t maxMsgSize() const { return MaxMsg; }
  bool needsLocalMr() const { return MrMode & FI_MR_LOCAL; }
  bool hasAtomics() const { return Atomics; }
  bool deliveryComplete() const { return Delivery; }
  const std::string &providerName() const { return ProvName; }
  uint64_t mrMode() const { return MrMode; }
  std::string describe() const;

private:
  fi_info *choose(fi_info *List) const;
  bool tryCounters(std::string &Why);
  bool bindAndEnable(fid_mr *Mr, fid_cntr *Cntr, std::string &Err);

  fi_info *Info = nullptr;
  fid_fabric *Fab = nullptr;
  fid_domain *Dom = nullptr;
  fid_ep *Ep = nullptr;
  fid_av *Av = nullptr;
  fid_cq *TxCq = nullptr;
  fid_cq *RxCq = nullptr;
  NotifyMode Mode = NotifyMode::CqData;
  size_t InjectSize = 0;
  size_t MaxMsg = 0;
  uint64_t MrMode = 0;
  uint64_t NextKey = 1;
  bool Atomics = false;
  bool Delivery = false;
  std::string ProvName;
};

/// libfabric objects (fabrics, domains, endpoints, AVs, CQs, MRs, counters)
/// opened by RAMC and not yet closed, over all contexts.
long liveFabricObjects();

/// Provider-specific defaults applied before fi_getinfo (see cxi_tuning.cpp).
void applyProviderDefaults(const std::string &Provider);
/// Removes /dev/shm regions left by a dead process with this process's PID
/// (shm provider); returns how many (see shm_cleanup.cpp).
int removeStaleShmRegions();

/// Provider-specific facts appended to Fabric::describe() (CXI ordering).
std::string providerNotes(const std::string &Provider);

} // namespace ramc

#endif
