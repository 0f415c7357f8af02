//===- fabric.cpp - libfabric resources of one context --------------------===//
#include "fabric.h"

#include "backoff.h"
#include "batch.h"
#include "error.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

namespace ramc {

static std::atomic<long> LiveObjects{0};
long liveTransportObjects() { return LiveObjects.load(); }
std::atomic<long> &liveObjectCount() { return LiveObjects; }

std::unique_ptr<Transport> createTransport() {
  return std::make_unique<Fabric>();
}

// Waits check their deadline at every poll and operations look at their
// peer's liveness, so the clock is read between every two polls: a
// CLOCK_MONOTONIC read costs 31 ns under kvm-clock here, a coarse one 3.7
// ns, and eight fine reads a round trip were a third of RAMC's 0.23 us over
// a raw fi_writedata ping-pong on shm. Deadlines are milliseconds; the
// coarse clock's tick (4 ms here) is added to each (transportClockTick).
double transportClock() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &T);
  return static_cast<double>(T.tv_sec) + static_cast<double>(T.tv_nsec) * 1e-9;
}

double transportClockTick() {
  static const double Tick = [] {
    timespec R;
    return clock_getres(CLOCK_MONOTONIC_COARSE, &R) == 0
               ? static_cast<double>(R.tv_sec) +
                     static_cast<double>(R.tv_nsec) * 1e-9
               : 0.01;
  }();
  return Tick;
}

std::string transportError(long Ret) {
  int E = static_cast<int>(Ret < 0 ? -Ret : Ret);
  return format("%s (%d)", fi_strerror(E), E);
}

static_assert(kTransportAgain == -FI_EAGAIN, "kTransportAgain is -FI_EAGAIN");
static_assert(sizeof(PeerAddr) == sizeof(fi_addr_t), "PeerAddr is fi_addr_t");

void closeFid(fid_t F) {
  if (F && fi_close(F) == 0)
    --LiveObjects;
}

static const char *const kProviderOrder[] = {
    "cxi", "verbs;ofi_rxm", "psm3", "psm2",        "opx",
    "efa", "sockets",       "shm",  "tcp;ofi_rxm", "udp;ofi_rxd"};

static int providerRank(const char *Name) {
  int I = 0;
  for (const char *P : kProviderOrder) {
    if (!std::strcmp(P, Name))
      return I;
    ++I;
  }
  return 100;
}

namespace {
struct Candidate {
  fi_info *Info;
  bool Event;
  bool Atomic;
  bool Msg;
};
} // namespace

static fi_info *makeHints(const FabricOptions &Opts, bool Event, bool Atomic,
                          bool Msg) {
  fi_info *H = fi_allocinfo();
  H->caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
  if (Msg) { // batches of aggregated puts (batch.h), in the order sent
    H->caps |= FI_MSG | FI_SEND | FI_RECV | FI_MULTI_RECV;
    H->tx_attr->msg_order = FI_ORDER_SAS;
    H->rx_attr->msg_order = FI_ORDER_SAS;
  }
  if (Event)
    H->caps |= FI_RMA_EVENT;
  if (Atomic)
    H->caps |= FI_ATOMIC;
  H->mode = 0; // RAMC never hands libfabric context memory (no FI_CONTEXT)
  H->ep_attr->type = FI_EP_RDM;
  H->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED |
                            FI_MR_PROV_KEY | FI_MR_ENDPOINT;
  H->domain_attr->threading = FI_THREAD_DOMAIN;
  if (Opts.DeliveryComplete)
    H->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
  if (!Opts.Provider.empty())
    H->fabric_attr->prov_name = strdup(Opts.Provider.c_str());
  return H;
}

bool Fabric::open(const FabricOptions &Opts, std::string &Err) {
  applyProviderDefaults(Opts.Provider);
  std::vector<fi_info *> Lists;
  std::vector<Candidate> Cands;
  for (int E = 1; E >= 0; --E) {
    if (E && Opts.Notify == NotifyMode::CqData)
      continue;
    for (int A = 1; A >= 0; --A) {
      // Messages where the provider has them (every provider RAMC knows
      // does); without, puts are not aggregated.
      for (int M = 1; M >= 0; --M) {
        fi_info *H = makeHints(Opts, E, A, M);
        fi_info *L = nullptr;
        int Rc = fi_getinfo(FI_VERSION(1, 17), nullptr, nullptr, 0, H, &L);
        fi_freeinfo(H);
        if (Rc || !L)
          continue;
        Lists.push_back(L);
        for (fi_info *I = L; I; I = I->next)
          if (!(I->mode & (FI_CONTEXT | FI_CONTEXT2 | FI_RX_CQ_DATA)))
            Cands.push_back({I, E != 0, A != 0, M != 0});
        break;
      }
    }
  }
  const Candidate *Best = nullptr;
  for (const Candidate &C : Cands) {
    if (!Best) {
      Best = &C;
      continue;
    }
    int RC = providerRank(C.Info->fabric_attr->prov_name);
    int RB = providerRank(Best->Info->fabric_attr->prov_name);
    bool Better = RC != RB                 ? RC < RB
                  : C.Event != Best->Event ? C.Event
                  : C.Msg != Best->Msg     ? C.Msg
                                           : C.Atomic > Best->Atomic;
    if (Better)
      Best = &C;
  }
  if (Best) {
    Info = fi_dupinfo(Best->Info);
    Atomics = Best->Atomic;
    Msg = Best->Msg;
  }
  bool HaveEvent = Best && Best->Event;
  for (fi_info *L : Lists)
    fi_freeinfo(L);
  if (!Info) {
    Err = format("fi_getinfo found no provider%s%s with FI_RMA on FI_EP_RDM",
                 Opts.Provider.empty() ? "" : " named ", Opts.Provider.c_str());
    if (Opts.Notify == NotifyMode::MrCounter)
      Err += " and FI_RMA_EVENT (needed by notify mode mr_counter)";
    return false;
  }
  ProvName = Info->fabric_attr->prov_name;
  MrMode = Info->domain_attr->mr_mode;
  // Testing hook: RAMC_FORCE_MR_MODE=local behaves as if the provider asked
  // for FI_MR_LOCAL (verbs does; no provider here does), so that the
  // registration of local buffers runs on these machines. (FI_MR_ENDPOINT
  // cannot be forced: these providers refuse fi_mr_bind to an endpoint.)
  if (const char *F = std::getenv("RAMC_FORCE_MR_MODE"))
    if (std::strstr(F, "local"))
      MrMode |= FI_MR_LOCAL;
  InjectSize = Info->tx_attr->inject_size;
  MaxMsg = Info->ep_attr->max_msg_size;
  OrderedWrite = orderedWriteBytes(Info);
  Delivery = Opts.DeliveryComplete;
  Direct = Opts.DirectWrites && directWrites(*Info);

  if (ProvName == "shm")
    removeStaleShmRegions();
  int Rc = fi_fabric(Info->fabric_attr, &Fab, nullptr);
  if (!Rc) {
    ++LiveObjects;
    Rc = fi_domain(Fab, Info, &Dom, nullptr);
    LiveObjects += !Rc;
  }
  if (Rc) {
    Err = format("opening provider %s failed: %s", ProvName.c_str(),
                 transportError(Rc).c_str());
    return false;
  }
  Rc = openCompletionQueue(Opts.Wait, Err);
  if (Rc == 1)
    return false;
  fi_av_attr AvAttr{};
  AvAttr.type = Info->domain_attr->av_type;
  if (!Rc) {
    Rc = fi_av_open(Dom, &AvAttr, &Av, nullptr);
    LiveObjects += !Rc;
  }
  if (!Rc) {
    Rc = fi_endpoint(Dom, Info, &Ep, nullptr);
    LiveObjects += !Rc;
  }
  if (!Rc)
    Rc = fi_ep_bind(Ep, &Av->fid, 0);
  if (!Rc)
    Rc = fi_ep_bind(Ep, &Cq->fid, FI_TRANSMIT | FI_RECV);
  if (!Rc)
    Rc = fi_enable(Ep);
  if (!Rc && Msg) {
    // A multi-receive buffer is handed back once it has less room left
    // than the largest batch. (Set after fi_enable: shm 1.17 crashes when
    // it is set before.)
    size_t Min = kMaxBatchBytes;
    Rc = fi_setopt(&Ep->fid, FI_OPT_ENDPOINT, FI_OPT_MIN_MULTI_RECV, &Min,
                   sizeof(Min));
  }
  if (Rc) {
    Err = format("setting up the endpoint on provider %s failed: %s",
                 ProvName.c_str(), transportError(Rc).c_str());
    return false;
  }
  if (Msg && !postReceiveBuffers(Err))
    return false;

  std::string Why = "the provider does not grant FI_RMA_EVENT";
  if (HaveEvent && tryCounters(Why)) {
    Mode = NotifyMode::MrCounter;
    if (Opts.Notify == NotifyMode::CqData)
      Mode = NotifyMode::CqData;
  } else if (Opts.Notify == NotifyMode::MrCounter) {
    Err = format("notify mode mr_counter is not available on provider %s: %s",
                 ProvName.c_str(), Why.c_str());
    return false;
  } else {
    Mode = NotifyMode::CqData;
  }
  // MR counters do not wake a CQ's waiter: poll for them.
  if (Mode == NotifyMode::MrCounter && Opts.Wait != WaitMode::Block)
    WaitFd = false;
  if (Mode == NotifyMode::CqData && Info->domain_attr->cq_data_size < 4) {
    Err = format("provider %s offers %zu bytes of remote CQ data; notify mode "
                 "cq_data needs 4",
                 ProvName.c_str(), Info->domain_attr->cq_data_size);
    return false;
  }
  return true;
}

bool Fabric::tryCounters(std::string &Why) {
  static uint64_t Probe[8];
  MemRegion R;
  NotifyMode Saved = Mode;
  Mode = NotifyMode::MrCounter;
  bool Ok = registerMemory(Probe, sizeof(Probe), true, R, Why);
  release(R);
  Mode = Saved;
  return Ok;
}

// FI_MR_ENDPOINT (bind the MR to the endpoint, then enable it) is what CXI
// requires; no provider on the development machines does, so that branch is
// WRITTEN BUT NOT RUN (docs/ramc.md, "CXI"). The counter branch runs on
// sockets.
bool Fabric::bindAndEnable(fid_mr *Mr, fid_cntr *Cntr, std::string &Err) {
  int Rc;
  if (Cntr && (Rc = fi_mr_bind(Mr, &Cntr->fid, FI_REMOTE_WRITE))) {
    Err = "fi_mr_bind(counter) failed: " + transportError(Rc);
    return false;
  }
  if ((MrMode & FI_MR_ENDPOINT) && (Rc = fi_mr_bind(Mr, &Ep->fid, 0))) {
    Err = "fi_mr_bind(endpoint) failed: " + transportError(Rc);
    return false;
  }
  if (Cntr || (MrMode & FI_MR_ENDPOINT)) {
    Rc = fi_mr_enable(Mr);
    if (Rc && !(Rc == -FI_ENOSYS && !(MrMode & FI_MR_ENDPOINT))) {
      Err = "fi_mr_enable failed: " + transportError(Rc);
      return false;
    }
  }
  return true;
}

bool Fabric::registerMemory(void *Buf, size_t Len, bool Counted, MemRegion &Out,
                            std::string &Err) {
  Out = MemRegion();
  bool WithCounter = Counted && Mode == NotifyMode::MrCounter;
  uint64_t Access = FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE;
  fid_mr *Mr = nullptr;
  int Rc = fi_mr_reg(Dom, Buf, Len, Access, 0, NextKey++,
                     WithCounter ? FI_RMA_EVENT : 0, &Mr, nullptr);
  LiveObjects += !Rc;
  if (Rc) {
    Err = format("fi_mr_reg of %zu bytes failed: %s", Len,
                 transportError(Rc).c_str());
    return false;
  }
  Out.Handle = Mr;
  fid_cntr *Cntr = nullptr;
  if (WithCounter) {
    fi_cntr_attr A{};
    A.events = FI_CNTR_EVENTS_COMP;
    A.wait_obj = FI_WAIT_NONE;
    Rc = fi_cntr_open(Dom, &A, &Cntr, nullptr);
    LiveObjects += !Rc;
    if (Rc) {
      Err = "fi_cntr_open failed: " + transportError(Rc);
      release(Out);
      return false;
    }
    Out.Counter = Cntr;
  }
  if (!bindAndEnable(Mr, Cntr, Err)) {
    release(Out);
    return false;
  }
  Out.Key = fi_mr_key(Mr);
  Out.Desc = fi_mr_desc(Mr);
  Out.RemoteBase =
      (MrMode & FI_MR_VIRT_ADDR) ? reinterpret_cast<uintptr_t>(Buf) : 0;
  return true;
}

bool Fabric::registerLocal(const void *Buf, size_t Len, MemRegion &Out,
                           std::string &Err) {
  Out = MemRegion();
  fid_mr *Mr = nullptr;
  int Rc = fi_mr_reg(Dom, Buf, Len, FI_READ | FI_WRITE, 0, NextKey++, 0, &Mr,
                     nullptr);
  LiveObjects += !Rc;
  if (Rc) {
    Err = format("fi_mr_reg of local buffer (%zu bytes) failed: %s", Len,
                 transportError(Rc).c_str());
    return false;
  }
  Out.Handle = Mr;
  if (!bindAndEnable(Mr, nullptr, Err)) {
    release(Out);
    return false;
  }
  Out.Desc = fi_mr_desc(Mr);
  return true;
}

void Fabric::release(MemRegion &R) {
  if (R.Handle)
    closeFid(&static_cast<fid_mr *>(R.Handle)->fid);
  if (R.Counter)
    closeFid(&static_cast<fid_cntr *>(R.Counter)->fid);
  R = MemRegion();
}

bool Fabric::readCounter(const MemRegion &R, uint64_t &Count,
                         uint64_t &Errors) {
  if (!R.Counter)
    return false;
  auto *Cntr = static_cast<fid_cntr *>(R.Counter);
  Count = fi_cntr_read(Cntr);
  Errors = fi_cntr_readerr(Cntr);
  return true;
}

std::vector<uint8_t> Fabric::localAddress(std::string &Err) const {
  std::vector<uint8_t> A(256);
  size_t Len = A.size();
  int Rc = fi_getname(&Ep->fid, A.data(), &Len);
  if (Rc == -FI_ETOOSMALL) {
    A.resize(Len);
    Rc = fi_getname(&Ep->fid, A.data(), &Len);
  }
  if (Rc) {
    Err = "fi_getname failed: " + transportError(Rc);
    return {};
  }
  A.resize(Len);
  return A;
}

bool Fabric::insertAddress(const std::vector<uint8_t> &Addr, PeerAddr &Out,
                           std::string &Err) {
  int Rc = fi_av_insert(Av, Addr.data(), 1, &Out, 0, nullptr);
  if (Rc != 1) {
    Err = "fi_av_insert failed: " + transportError(Rc < 0 ? Rc : -FI_EINVAL);
    return false;
  }
  return true;
}

long Fabric::write(const RmaOp &O) {
  if (!O.Op)
    return O.HasData
               ? fi_inject_writedata(Ep, O.Local, O.Len, O.Data, O.Peer,
                                     O.RAddr, O.Key)
               : fi_inject_write(Ep, O.Local, O.Len, O.Peer, O.RAddr, O.Key);
  return O.HasData ? fi_writedata(Ep, O.Local, O.Len, O.Desc, O.Data, O.Peer,
                                  O.RAddr, O.Key, O.Op)
                   : fi_write(Ep, O.Local, O.Len, O.Desc, O.Peer, O.RAddr,
                              O.Key, O.Op);
}

long Fabric::read(const RmaOp &O) {
  return fi_read(Ep, const_cast<void *>(O.Local), O.Len, O.Desc, O.Peer,
                 O.RAddr, O.Key, O.Op);
}

// libfabric 1.17's shm provider (up to at least 1.20) returns the bounce
// buffer of an atomic issued with FI_DELIVERY_COMPLETE to the target's
// inject pool twice: the target frees it once it applied the atomic
// (smr_progress_inject_atomic frees it unless the operation fetches), and
// the initiator again when it processes the target's response
// (smr_progress_resp_entry). Two later operations then share one buffer: an
// injected put's first 8 bytes become the next atomic's operand (1), or an
// atomic adds a put's payload to the counter. A fetching atomic also waits
// for the target's response (so its completion means the target applied
// it), but there only the initiator frees the buffer. So where an atomic
// must complete at the target, RAMC issues fetch-and-add on shm, landing the
// old value in O.Result; test/ramc/mixed.test catches a regression.
static bool atomicsNeedFetchForDelivery(const std::string &Provider) {
  return Provider == "shm";
}

long Fabric::atomicInc(const RmaOp &O, bool DeliveryComplete) {
  uint64_t Flags = FI_COMPLETION;
  bool Fetch =
      DeliveryComplete && O.Result && atomicsNeedFetchForDelivery(ProvName);
  if (DeliveryComplete && !Fetch)
    Flags |= FI_DELIVERY_COMPLETE;
  fi_ioc Ioc{const_cast<void *>(O.Local), 1};
  void *Descs[1] = {O.Desc};
  fi_rma_ioc RIoc{O.RAddr, 1, O.Key};
  fi_msg_atomic Msg{};
  Msg.msg_iov = &Ioc;
  Msg.desc = Descs;
  Msg.iov_count = 1;
  Msg.addr = O.Peer;
  Msg.rma_iov = &RIoc;
  Msg.rma_iov_count = 1;
  Msg.context = O.Op;
  Msg.datatype = FI_UINT64;
  Msg.op = FI_SUM;
  if (!Fetch)
    return fi_atomicmsg(Ep, &Msg, Flags);
  fi_ioc Res{O.Result, 1};
  void *ResDescs[1] = {O.Desc};
  return fi_fetch_atomicmsg(Ep, &Msg, &Res, ResDescs, 1, Flags);
}

void Fabric::pollAgain(Backoff &B) { B.pause(); }

bool Fabric::postReceiveBuffers(std::string &Err) {
  RxBuffers.resize(kRxBuffers);
  for (RxBuffer &B : RxBuffers) {
    B.Data.reset(new uint8_t[kRxBufferBytes]);
    if ((MrMode & FI_MR_LOCAL) &&
        !registerLocal(B.Data.get(), kRxBufferBytes, B.Mr, Err))
      return false;
  }
  for (size_t I = 0; I < RxBuffers.size(); ++I) {
    long Rc = repost(I);
    if (Rc) {
      Err = format("posting a receive buffer for aggregated puts on provider "
                   "%s failed: %s (RAMC_AGG_BYTES=0 does not avoid it; "
                   "report this provider)",
                   ProvName.c_str(), transportError(Rc).c_str());
      return false;
    }
  }
  return true;
}

long Fabric::repost(size_t I) {
  RxBuffer &B = RxBuffers[I];
  iovec Iov{B.Data.get(), kRxBufferBytes};
  void *Desc = B.Mr.Desc;
  fi_msg M{};
  M.msg_iov = &Iov;
  M.desc = &Desc;
  M.iov_count = 1;
  M.addr = FI_ADDR_UNSPEC;
  M.context = reinterpret_cast<void *>(static_cast<uintptr_t>(I + 1));
  long Rc;
  // Progress may be needed before the provider takes the buffer back.
  for (int Try = 0;
       (Rc = fi_recvmsg(Ep, &M, FI_MULTI_RECV)) == -FI_EAGAIN && Try < 1000;
       ++Try)
    fi_cq_read(Cq, nullptr, 0);
  return Rc;
}

long Fabric::sendBatch(PeerAddr Peer, const void *Buf, size_t Len, void *Desc,
                       void *Op) {
  if (!Op)
    return fi_inject(Ep, Buf, Len, Peer);
  return fi_send(Ep, Buf, Len, Desc, Peer, Op);
}

size_t Fabric::batchLimit() const {
  return Msg ? std::min(kMaxBatchBytes, MaxMsg) : 0;
}

void Fabric::close() {
  if (Ep)
    closeFid(&Ep->fid);
  for (RxBuffer &B : RxBuffers)
    release(B.Mr);
  RxBuffers.clear();
  if (Av)
    closeFid(&Av->fid);
  if (Cq)
    closeFid(&Cq->fid);
  WaitFd = false;
  CqFd = -1;
  if (Dom)
    closeFid(&Dom->fid);
  if (Fab)
    closeFid(&Fab->fid);
  if (Info)
    fi_freeinfo(Info);
  Ep = nullptr;
  Av = nullptr;
  Cq = nullptr;
  Dom = nullptr;
  Fab = nullptr;
  Info = nullptr;
}

std::string Fabric::describe() const {
  std::string MrBits;
  struct {
    uint64_t Bit;
    const char *Name;
  } Bits[] = {{FI_MR_LOCAL, "local"},
              {FI_MR_VIRT_ADDR, "virt_addr"},
              {FI_MR_ALLOCATED, "allocated"},
              {FI_MR_PROV_KEY, "prov_key"},
              {FI_MR_ENDPOINT, "endpoint"}};
  for (auto &B : Bits)
    if (MrMode & B.Bit)
      MrBits += (MrBits.empty() ? "" : ",") + std::string(B.Name);
  return format("provider=%s notify=%s mr_mode=[%s] inject=%zu atomics=%s "
                "delivery_complete=%s messages=%s wait=%s",
                ProvName.c_str(),
                Mode == NotifyMode::MrCounter ? "mr_counter" : "cq_data",
                MrBits.c_str(), InjectSize, Atomics ? "yes" : "no",
                Delivery ? "yes" : "no", Msg ? "yes" : "no",
                WaitFd ? "fd" : "poll") +
         describeSpin() + providerNotes(ProvName);
}

} // namespace ramc
