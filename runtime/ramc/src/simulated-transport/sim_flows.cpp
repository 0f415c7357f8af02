//===- sim_flows.cpp - RMA operations as SimGrid flows --------------------===//
#include "sim_flows.h"

#include "error.h"
#include "sim_world.h"

#include "orrery/sim/Api.h"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/version.h>
#include <xbt/signal.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#if SIMGRID_VERSION_MAJOR != 3 || SIMGRID_VERSION_MINOR < 32 ||                \
    SIMGRID_VERSION_MINOR > 33
#error                                                                         \
    "sim_flows.cpp hooks SimGrid 3.32's kernel signal CommImpl::on_completion; check it in this SimGrid version (newer ones offer Comm::on_completion_cb)"
#endif

// SimGrid 3.32 ends every communication in maestro, at its simulated end
// time, by firing this kernel signal (src/kernel/activity/CommImpl.cpp,
// CommImpl::post), whether or not an actor waits for it. No installed header
// declares it; the public on_completion signals of 3.32 fire only when an
// actor waits or tests, and one-sided RMA has nobody waiting at the target.
extern simgrid::xbt::signal<void(simgrid::kernel::activity::CommImpl const &)>
    KernelCommEnded __asm__(
        "_ZN7simgrid6kernel8activity8CommImpl13on_completionE");

namespace ramc::sim {

namespace s4u = simgrid::s4u;

namespace {

struct FlowTable {
  std::unordered_map<const void *, std::unique_ptr<Flow>> InFlight;
  std::vector<s4u::CommPtr> Ended;
  bool Hooked = false;
};

FlowTable &table() {
  // Never destroyed: SimGrid may end communications during its teardown.
  static FlowTable *T = new FlowTable;
  return *T;
}

const char *kindName(FlowKind K) {
  switch (K) {
  case FlowKind::Write:
    return "write";
  case FlowKind::Atomic:
    return "atomic increment";
  case FlowKind::ReadRequest:
  case FlowKind::ReadReply:
    return "read";
  case FlowKind::Batch:
    return "batch of aggregated puts";
  }
  return "operation";
}

/// Queues the initiator's completion of F (Err = 0) or its failure.
void complete(Flow &F, int Err = 0, std::string Msg = {}) {
  if (!F.Op && !Err)
    return; // injected writes report nothing
  F.Initiator->TxEvents.push_back({F.Op, Err, std::move(Msg)});
  F.Initiator->wake();
}

std::string closedMessage(const Flow &F) {
  return format("rank %d closed its RAMC endpoint (it exited or destroyed "
                "its context) before the %s from rank %d arrived",
                F.Target->Rank, kindName(F.Kind), F.Initiator->Rank);
}

/// A write or atomic increment reaches the target's NIC.
void landWrite(Flow &F) {
  SimEndpoint &To = *F.Target;
  if (!To.Open)
    return complete(F, ENOTCONN, closedMessage(F));
  std::string Why;
  SimRegion *R = To.Regions.check(F.Key, F.RAddr, F.Len, Why);
  if (!R)
    return complete(F, EACCES,
                    format("rank %d refused the %s: %s", To.Rank,
                           kindName(F.Kind), Why.c_str()));
  // A tracked write reads its source when it lands; if the initiator closed
  // its endpoint meanwhile, that buffer may be gone: nothing lands.
  if (F.Kind == FlowKind::Write && F.Data.empty() && !F.Initiator->Open)
    return;
  auto *Dst = reinterpret_cast<uint8_t *>(F.RAddr);
  if (F.Kind == FlowKind::Atomic) {
    if (!R->Device) {
      uint64_t V;
      std::memcpy(&V, Dst, sizeof(V));
      ++V;
      std::memcpy(Dst, &V, sizeof(V));
    }
  } else if (!R->Device && !F.LocalDevice && F.Len) {
    std::memcpy(Dst, F.Data.empty() ? F.Local : F.Data.data(), F.Len);
  }
  if (R->Counted)
    ++R->Count;
  if (F.HasData && To.Mode == NotifyMode::CqData)
    To.RxData.push_back(F.CqData);
  if (R->Device)
    To.Legs.push_back({Dst, static_cast<double>(F.Len), F.Initiator->Rank,
                       /*Sending=*/false});
  To.wake();
  complete(F);
}

/// A batch reaches the target: it waits in the receive queue for the
/// target's next progress(), which deposits its puts (as libfabric's
/// receive completions do).
void landBatch(Flow &F) {
  SimEndpoint &To = *F.Target;
  if (!To.Open)
    return complete(F, ENOTCONN, closedMessage(F));
  To.RxBatches.push_back(std::move(F.Data));
  To.wake();
  complete(F);
}

/// A read request reaches the target's NIC: the reply carries the bytes as
/// they are now (or the failure).
void serveRead(std::unique_ptr<Flow> F) {
  SimEndpoint &To = *F->Target;
  ReadAnswer A = answerRead(To, F->Key, F->RAddr, F->Len);
  F->Err = A.Err;
  F->Error = std::move(A.Error);
  F->Data = std::move(A.Bytes);
  F->RemoteDevice = A.Device;
  F->Kind = FlowKind::ReadReply;
  uint64_t Bytes = F->Err ? kControlBytes : F->Len;
  s4u::Host *From = To.Host, *Back = F->Initiator->Host;
  send(std::move(F), From, Back, Bytes);
}

/// A read reply reaches the initiator.
void landRead(Flow &F) {
  SimEndpoint &Me = *F.Initiator;
  if (!Me.Open)
    return; // the context is gone, and with it the destination
  if (F.Err)
    return complete(F, F.Err, F.Error);
  if (!F.LocalDevice && !F.RemoteDevice && F.Len)
    std::memcpy(const_cast<void *>(F.Local), F.Data.data(), F.Len);
  double Bytes = static_cast<double>(F.Len);
  if (F.LocalDevice)
    Me.Legs.push_back({F.Local, Bytes, F.Target->Rank, /*Sending=*/false});
  if (F.RemoteDevice)
    Me.Legs.push_back({reinterpret_cast<const void *>(F.RAddr), Bytes,
                       F.Target->Rank, /*Sending=*/true});
  complete(F);
}

/// F arrived where it was sent.
void arrive(std::unique_ptr<Flow> F) {
  switch (F->Kind) {
  case FlowKind::Write:
  case FlowKind::Atomic:
    landWrite(*F);
    break;
  case FlowKind::ReadRequest:
    serveRead(std::move(F));
    break;
  case FlowKind::ReadReply:
    landRead(*F);
    break;
  case FlowKind::Batch:
    landBatch(*F);
    break;
  }
}

void onCommEnded(const simgrid::kernel::activity::CommImpl &C) {
  FlowTable &T = table();
  auto It = T.InFlight.find(static_cast<const void *>(&C));
  if (It == T.InFlight.end())
    return; // not ours (an MPI message, a device leg)
  std::unique_ptr<Flow> F = std::move(It->second);
  T.InFlight.erase(It);
  T.Ended.push_back(std::move(F->Comm));
  arrive(std::move(F));
}

void startFlow(std::unique_ptr<Flow> F, s4u::Host *From, s4u::Host *To,
               uint64_t Bytes) {
  FlowTable &T = table();
  if (!T.Hooked) {
    T.Hooked = true;
    KernelCommEnded.connect(&onCommEnded);
  }
  // SimGrid 3.32 never ends a flow of 0 bytes.
  s4u::CommPtr C = s4u::Comm::sendto_async(From, To, Bytes ? Bytes : 1);
  // The flow cannot end before this: ends are handled after the actors of
  // the current instant ran.
  const void *Key = C->get_impl();
  F->Comm = std::move(C);
  T.InFlight.emplace(Key, std::move(F));
}

} // namespace

ReadAnswer answerRead(SimEndpoint &To, uint64_t Key, uint64_t RAddr,
                      size_t Len) {
  ReadAnswer A;
  std::string Why;
  if (!To.Open) {
    A.Err = ENOTCONN;
    A.Error = format("rank %d closed its RAMC endpoint (it exited or "
                     "destroyed its context)",
                     To.Rank);
  } else if (SimRegion *R = To.Regions.check(Key, RAddr, Len, Why)) {
    A.Device = R->Device;
    if (!R->Device) {
      auto *Src = reinterpret_cast<const uint8_t *>(RAddr);
      A.Bytes.assign(Src, Src + Len);
    }
  } else {
    A.Err = EACCES;
    A.Error = format("rank %d refused the read: %s", To.Rank, Why.c_str());
  }
  return A;
}

uint64_t flowThreshold() {
  static const uint64_t Bytes = [] {
    const char *V = std::getenv("RAMC_SIM_FLOW_BYTES");
    return V && *V ? std::strtoull(V, nullptr, 10) : 256;
  }();
  return Bytes;
}

void send(std::unique_ptr<Flow> F, s4u::Host *From, s4u::Host *To,
          uint64_t Bytes) {
  SimWorld::Counters &Stats = SimWorld::get().Stats;
  if (Bytes > flowThreshold()) {
    ++Stats.Flows;
    return startFlow(std::move(F), From, To, Bytes);
  }
  ++Stats.Timed;
  double At = s4u::Engine::get_clock() +
              orrery::sim::api::messageSeconds(From, To, Bytes);
  Flow *Message = F.release();
  simgrid::kernel::timer::Timer::set(
      At, [Message] { arrive(std::unique_ptr<Flow>(Message)); });
}

void reapFlows() { table().Ended.clear(); }

size_t flowsInFlight() { return table().InFlight.size(); }

} // namespace ramc::sim
