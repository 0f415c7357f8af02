//===- sim_transport.cpp - RAMC's transport under SimGrid -----------------===//
#include "sim_transport.h"

#include "backoff.h"
#include "context.h"
#include "error.h"
#include "sim_bench.h"
#include "sim_flows.h"
#include "sim_world.h"

#include "orrery/sim/Api.h"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cstring>

namespace ramc {

std::unique_ptr<Transport> createTransport() {
  return std::make_unique<sim::SimTransport>();
}

double transportClock() { return simgrid::s4u::Engine::get_clock(); }
double transportClockTick() { return 0; }

std::string transportError(long Ret) {
  int E = static_cast<int>(Ret < 0 ? -Ret : Ret);
  return format("%s (%d)", std::strerror(E), E);
}

long liveTransportObjects() { return sim::SimWorld::get().LiveObjects; }

} // namespace ramc

namespace ramc::sim {

namespace api = orrery::sim::api;
namespace s4u = simgrid::s4u;

void SimTransport::charge(const Overhead &O) {
  if (O.Seconds > 0)
    api::chargeCallOverhead(O.Seconds, O.Estimate);
}

bool SimTransport::open(const TransportOptions &Opts, std::string &Err) {
  SimWorld &W = SimWorld::get();
  Costs = W.costs();
  if (!chooseNotifyMode(Opts.Notify, Costs, Mode, Err))
    return false;
  Delivery = Opts.DeliveryComplete;
  Provider = "sim:" + Costs.Provider;
  Self = W.open(api::rank(), api::cpuHost(), Mode);
  Self->start();
  return true;
}

void SimTransport::close() {
  if (!Self)
    return;
  SimWorld::get().close(*Self);
  Self->stop();
  Self.reset();
  Peers.clear();
}

bool SimTransport::registerMemory(void *Buf, size_t Len, bool Counted,
                                  MemRegion &Out, std::string &) {
  charge(Costs.Registration);
  SimRegion &R =
      Self->Regions.add(Buf, Len, Counted && Mode == NotifyMode::MrCounter,
                        api::isDeviceMemory(Buf));
  Out = MemRegion();
  Out.Handle = &R;
  Out.Counter = R.Counted ? &R : nullptr;
  Out.Key = R.Key;
  Out.RemoteBase = reinterpret_cast<uintptr_t>(Buf);
  Out.Device = R.Device;
  ++SimWorld::get().LiveObjects;
  return true;
}

bool SimTransport::registerLocal(const void *, size_t, MemRegion &Out,
                                 std::string &) {
  Out = MemRegion(); // needsLocalMr() is false: never called
  return true;
}

void SimTransport::release(MemRegion &R) {
  if (R.Handle) {
    if (Self)
      Self->Regions.remove(R.Key);
    --SimWorld::get().LiveObjects;
  }
  R = MemRegion();
}

bool SimTransport::readCounter(const MemRegion &R, uint64_t &Count,
                               uint64_t &Errors) {
  if (!R.Counter)
    return false;
  Count = static_cast<const SimRegion *>(R.Counter)->Count;
  Errors = 0;
  return true;
}

std::vector<uint8_t> SimTransport::localAddress(std::string &) const {
  std::vector<uint8_t> A(sizeof(uint64_t));
  std::memcpy(A.data(), &Self->Id, sizeof(uint64_t));
  return A;
}

bool SimTransport::insertAddress(const std::vector<uint8_t> &Addr,
                                 PeerAddr &Out, std::string &Err) {
  uint64_t Id = 0;
  if (Addr.size() != sizeof(Id)) {
    Err = "not a simulated endpoint address";
    return false;
  }
  std::memcpy(&Id, Addr.data(), sizeof(Id));
  std::shared_ptr<SimEndpoint> E = SimWorld::get().find(Id);
  if (!E) {
    Err = "its endpoint is closed (it exited or destroyed its context)";
    return false;
  }
  Out = Peers.size();
  Peers.push_back(std::move(E));
  return true;
}

SimEndpoint *SimTransport::peer(PeerAddr Addr) const {
  return Addr < Peers.size() ? Peers[Addr].get() : nullptr;
}

long SimTransport::start(FlowKind K, const RmaOp &O, uint64_t Bytes) {
  SimEndpoint *To = peer(O.Peer);
  if (!To)
    return -EINVAL;
  auto F = std::make_unique<Flow>();
  F->Kind = K;
  F->Initiator = Self;
  F->Target = Peers[O.Peer];
  F->Op = O.Op;
  F->Local = O.Local;
  F->LocalDevice = O.Local && api::isDeviceMemory(O.Local);
  F->Len = O.Len;
  F->RAddr = O.RAddr;
  F->Key = O.Key;
  F->HasData = O.HasData;
  F->CqData = O.Data;
  if ((K == FlowKind::Batch || (K == FlowKind::Write && !O.Op)) &&
      !F->LocalDevice) {
    // Injected, or a batch (delivered to the target's next poll): the
    // source may be reused before the message is used.
    auto *Src = static_cast<const uint8_t *>(O.Local);
    F->Data.assign(Src, Src + O.Len);
  }
  if (F->LocalDevice && K == FlowKind::Write)
    api::chargeDeviceLeg(O.Local, static_cast<double>(O.Len), To->Rank,
                         /*Sending=*/true);
  s4u::Host *From = Self->Host, *Dst = To->Host;
  BenchPause B;
  reapFlows();
  send(std::move(F), From, Dst, Bytes);
  return 0;
}

long SimTransport::write(const RmaOp &O) {
  ++SimWorld::get().Stats.Writes;
  charge(Costs.Put + Costs.copy(static_cast<double>(O.Copied)));
  return start(FlowKind::Write, O, O.Len);
}

long SimTransport::read(const RmaOp &O) {
  ++SimWorld::get().Stats.Reads;
  if (O.Len > kSmallReadBytes) {
    charge(Costs.Get);
    return start(FlowKind::ReadRequest, O, kControlBytes);
  }
  return readSmall(O);
}

long SimTransport::readSmall(const RmaOp &O) {
  SimEndpoint *To = peer(O.Peer);
  if (!To)
    return -EINVAL;
  // One wait of the calling rank: the read's overhead and the poll that
  // collects its completion, then the round trip. The target's NIC answers
  // with the bytes as they are when the request arrives (a kernel timer
  // takes them then); the reply lands when the wait ends.
  double Overhead = Costs.Get.Seconds + Costs.Completion.Seconds;
  double Request = api::messageSeconds(Self->Host, To->Host, kControlBytes);
  double Reply = api::messageSeconds(To->Host, Self->Host, O.Len);
  // Shared with the timer, which outlives this call if the rank is killed.
  struct Pending {
    bool Ready = false;
    ReadAnswer Answer;
  };
  auto P = std::make_shared<Pending>();
  double At = s4u::Engine::get_clock() + Overhead + Request;
  std::shared_ptr<SimEndpoint> Target = Peers[O.Peer];
  simgrid::kernel::timer::Timer::set(At, [P, Target, O] {
    P->Answer = answerRead(*Target, O.Key, O.RAddr, O.Len);
    P->Ready = true;
  });
  api::chargeOverheadAndNetwork(Overhead,
                                Costs.Get.Estimate || Costs.Completion.Estimate,
                                Request + Reply);
  if (!P->Ready) // only when the round trip took no time at all
    P->Answer = answerRead(*To, O.Key, O.RAddr, O.Len);
  ReadAnswer &A = P->Answer;
  TxEvent E;
  E.Op = O.Op;
  E.Prepaid = true;
  E.Err = A.Err;
  E.Msg = std::move(A.Error);
  bool LocalDevice = api::isDeviceMemory(O.Local);
  if (!E.Err) {
    if (!LocalDevice && !A.Device && O.Len)
      std::memcpy(const_cast<void *>(O.Local), A.Bytes.data(), O.Len);
    if (LocalDevice)
      Self->Legs.push_back({O.Local, static_cast<double>(O.Len), To->Rank,
                            /*Sending=*/false});
    if (A.Device)
      Self->Legs.push_back({reinterpret_cast<const void *>(O.RAddr),
                            static_cast<double>(O.Len), To->Rank,
                            /*Sending=*/true});
  }
  Self->TxEvents.push_back(std::move(E));
  return 0;
}

long SimTransport::sendBatch(PeerAddr Peer, const void *Buf, size_t Len, void *,
                             void *Op) {
  ++SimWorld::get().Stats.Writes;
  // The puts were copied into the batch as they were staged.
  charge(Costs.Put + Costs.copy(static_cast<double>(Len)));
  RmaOp O;
  O.Local = Buf;
  O.Len = Len;
  O.Peer = Peer;
  O.Op = Op;
  return start(FlowKind::Batch, O, Len);
}

bool SimTransport::hostMemory(const void *Buf) const {
  return !api::isDeviceMemory(Buf);
}

long SimTransport::atomicInc(const RmaOp &O, bool) {
  ++SimWorld::get().Stats.Atomics;
  charge(Costs.Atomic);
  return start(FlowKind::Atomic, O, sizeof(uint64_t));
}

size_t SimTransport::progress(CompletionSink &Sink) {
  ++SimWorld::get().Stats.Polls;
  // One poll of the completion queues and counters, unless all it finds
  // was paid for already.
  bool Paid = !Self->TxEvents.empty() && Self->RxData.empty() &&
              Self->RxBatches.empty();
  for (const TxEvent &E : Self->TxEvents)
    Paid = Paid && E.Prepaid;
  if (!Paid) {
    // Batches are deposited (copied into their windows) as reported.
    Overhead Poll = Costs.Completion;
    for (const std::vector<uint8_t> &B : Self->RxBatches)
      Poll = Poll + Costs.copy(static_cast<double>(B.size()));
    charge(Poll);
  }
  // Device legs of what landed here are charged before it is reported.
  while (!Self->Legs.empty()) {
    std::vector<PendingLeg> Legs;
    Legs.swap(Self->Legs);
    for (const PendingLeg &L : Legs)
      api::chargeDeviceLeg(L.Buf, L.Bytes, L.Peer, L.Sending);
  }
  std::vector<TxEvent> Tx;
  std::vector<uint64_t> Rx;
  std::vector<std::vector<uint8_t>> Batches;
  Tx.swap(Self->TxEvents);
  Rx.swap(Self->RxData);
  Batches.swap(Self->RxBatches);
  for (const TxEvent &E : Tx) {
    if (E.Err)
      Sink.onTxError(E.Op, E.Err, E.Msg);
    else
      Sink.onTxDone(E.Op);
  }
  for (uint64_t D : Rx)
    Sink.onRemoteData(D);
  for (const std::vector<uint8_t> &B : Batches)
    Sink.onBatch(B.data(), B.size());
  return Tx.size() + Rx.size() + Batches.size();
}

void SimTransport::waitForEvent(Backoff &, const Deadline &D) {
  ++SimWorld::get().Stats.Waits;
  Self->wait(D.infinite() ? -1 : D.end());
}

void SimTransport::pollAgain(Backoff &) {
  // Each poll is a remote read, which takes simulated time. Should the
  // machine make it free, let time pass anyway, or the loop would never end.
  double Now = s4u::Engine::get_clock();
  if (Now == LastPoll) {
    BenchPause B;
    s4u::this_actor::sleep_for(1e-7);
    Now = s4u::Engine::get_clock();
  }
  LastPoll = Now;
}

std::string SimTransport::describe() const {
  return format("provider=%s notify=%s %s network=%s (simulated)",
                Provider.c_str(),
                Mode == NotifyMode::MrCounter ? "mr_counter" : "cq_data",
                Costs.str().c_str(), api::idealNetwork() ? "ideal" : "smpi");
}

} // namespace ramc::sim
