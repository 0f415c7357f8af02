//===- sim_flows.h - RMA operations as SimGrid flows -----------*- C++ -*-===//
//
// Every simulated RMA operation is a one-sided message between two CPU
// hosts, with no receiver actor (RDMA needs none): larger than
// flowThreshold() bytes, a SimGrid flow (s4u::Comm::sendto_async) that
// shares the links of its route with every other flow; up to that size, a
// timed message that arrives messageSeconds() later (latency plus bytes over
// bandwidth, no contention: such messages barely load a link, and SimGrid
// 3.32 pays for every host-to-host flow a scan of all flows in flight when
// it ends - quadratic in the number of ranks).
//
// When the message arrives the simulated NIC acts in maestro: a write lands
// (the bytes are copied - all ranks share one address space - the target's
// counter or CQ data records it, the target is woken), a read request is
// answered by a reply, a read reply lands in the initiator's buffer; the
// initiator's completion is queued for its next progress(). Errors (a
// closed endpoint, a released key, an access outside the region) are
// completions with an error, as libfabric reports them.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_FLOWS_H
#define RAMC_SRC_SIM_SIM_FLOWS_H

#include "sim_endpoint.h"

#include <simgrid/s4u/Comm.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ramc::sim {

enum class FlowKind { Write, Atomic, ReadRequest, ReadReply, Batch };

/// Bytes a read request, or a reply carrying a failure, adds to the route's
/// latency: none (they are timed messages, never flows).
constexpr uint64_t kControlBytes = 0;

struct Flow {
  FlowKind Kind = FlowKind::Write;
  std::shared_ptr<SimEndpoint> Initiator, Target;
  /// The initiator's operation context; nullptr for an injected write.
  void *Op = nullptr;
  /// Source of a write (read when it lands), destination of a read.
  const void *Local = nullptr;
  bool LocalDevice = false;
  /// The source of an injected write (copied when issued), the bytes a
  /// read reply carries, or a batch of aggregated puts (copied when sent).
  std::vector<uint8_t> Data;
  size_t Len = 0;
  uint64_t RAddr = 0;
  uint64_t Key = 0;
  bool HasData = false;
  uint64_t CqData = 0;
  /// A read reply that carries a failure instead of data.
  int Err = 0;
  std::string Error;
  bool RemoteDevice = false;
  simgrid::s4u::CommPtr Comm;
};

/// What a target's NIC answers to a read of Len bytes at RAddr of the
/// region Key: the bytes as they are now, or why it refuses.
struct ReadAnswer {
  int Err = 0;
  std::string Error;
  std::vector<uint8_t> Bytes; ///< empty for device memory
  bool Device = false;
};
ReadAnswer answerRead(SimEndpoint &To, uint64_t Key, uint64_t RAddr,
                      size_t Len);

/// Sends F as a message of Bytes from From to To. Callable from rank actors
/// (bracket it with BenchPause) and from maestro.
void send(std::unique_ptr<Flow> F, simgrid::s4u::Host *From,
          simgrid::s4u::Host *To, uint64_t Bytes);

/// Messages up to this size are timed, larger ones flows
/// (RAMC_SIM_FLOW_BYTES, default 256).
uint64_t flowThreshold();

/// Releases the handles of flows that ended (call from rank actors: SimGrid
/// warns when a running communication's handle is dropped, and in maestro
/// the one ending is still running).
void reapFlows();

/// Flows started and not yet ended.
size_t flowsInFlight();

} // namespace ramc::sim

#endif
