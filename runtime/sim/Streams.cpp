//===- Streams.cpp - Stream actors ----------------------------------------===//

#include "Streams.h"
#include "Runtime.h"

#include <algorithm>
#include <mutex>

namespace orrery::sim {

bool Completion::done() const { return !S || S->Finished >= Seq; }

void Completion::wait() const {
  if (done())
    return;
  std::unique_lock<s4u::Mutex> L(*S->Lock);
  ++S->Waiters;
  while (S->Finished < Seq)
    S->Changed->wait(L);
  --S->Waiters;
}

bool Completion::waitUntil(double Deadline) const {
  if (done())
    return true;
  std::unique_lock<s4u::Mutex> L(*S->Lock);
  ++S->Waiters;
  while (S->Finished < Seq && s4u::Engine::get_clock() < Deadline)
    S->Changed->wait_until(L, Deadline);
  --S->Waiters;
  return done();
}

StreamPtr Stream::create(Rank &Owner, int Device, s4u::Host *Gpu,
                         bool NonBlocking, bool Legacy) {
  auto S = std::make_shared<Stream>();
  S->Owner = &Owner;
  S->Device = Device;
  S->Id = Owner.NextStreamId++;
  S->NonBlocking = NonBlocking;
  S->Legacy = Legacy;
  S->Gpu = Gpu;
  S->Lock = s4u::Mutex::create();
  S->Changed = s4u::ConditionVariable::create();
  std::string Name =
      "rank" + std::to_string(Owner.Id) + "-stream" + std::to_string(S->Id);
  // The actor holds the stream alive; it is a daemon, killed when the last
  // rank ends, so idle streams never keep a simulation running.
  s4u::ActorPtr A = s4u::Actor::create(Name, Gpu, [S] { S->run(); });
  A->daemonize();
  return S;
}

// Actors run one at a time and are switched only inside simcalls, so the
// queue and counters need no lock of their own; the mutex exists for the
// condition variable, and is taken only to wait. Notifications (simcalls)
// are sent only when someone waits.
Completion Stream::enqueue(StreamOp Op) {
  for (Completion &C : WaitsForNext)
    Op.Deps.push_back(std::move(C));
  WaitsForNext.clear();
  Queue.push_back(std::move(Op));
  ++Enqueued;
  if (ActorIdle)
    Changed->notify_all();
  return Completion{shared_from_this(), Enqueued};
}

void Stream::run() {
  Runtime &RT = Runtime::get();
  for (;;) {
    if (Queue.empty()) {
      std::unique_lock<s4u::Mutex> L(*Lock);
      ActorIdle = true;
      while (Queue.empty())
        Changed->wait(L);
      ActorIdle = false;
    }
    StreamOp Op = std::move(Queue.front());
    Queue.pop_front();
    for (const Completion &D : Op.Deps)
      D.wait();
    double Start = s4u::Engine::get_clock();
    switch (Op.K) {
    case StreamOp::Sleep:
      // Below SimGrid's precision (a memset of a few bytes) a sleep would
      // only add a simulation step.
      if (Op.Seconds > MinActivitySeconds)
        s4u::this_actor::sleep_for(Op.Seconds);
      break;
    case StreamOp::Exec:
      // An execution on the GPU's host: kernels of several streams running
      // at once share the GPU.
      if (Op.Seconds > MinActivitySeconds)
        s4u::this_actor::execute(Op.Seconds * Gpu->get_speed());
      break;
    case StreamOp::Flow:
      // A flow over the platform's PCIe or NVLink links: concurrent copies
      // share their bandwidth.
      s4u::Comm::sendto(Op.From, Op.To, Op.Bytes);
      break;
    }
    double End = s4u::Engine::get_clock();
    double ModelTotal = 0;
    for (auto [C, S] : Op.Parts) {
      Owner->Time.add(C, S, Op.Estimate, Op.Measured);
      ModelTotal += S;
    }
    // A flow's time is SimGrid's (latency, bandwidth shared with others).
    if (Op.K == StreamOp::Flow)
      Owner->Time.add(Category::Copies, End - Start, Op.Estimate);
    if (ModelTotal > 0 || Op.K == StreamOp::Flow)
      RT.report().addGpuTime(End - Start, Op.Estimate);
    if (RT.report().tracing() && (ModelTotal > 0 || Op.K == StreamOp::Flow)) {
      RT.report().span(
          {Owner->Id, Id, Start, End - Start, Op.Name,
           Op.K == StreamOp::Flow ? Category::Copies : Op.Parts[0].first});
    }
    if (KernelTotals *K = Op.Kernel) {
      ++K->Launches;
      K->Flops += Op.Flops;
      K->Bytes += Op.KernelBytes;
      K->Seconds += ModelTotal;
      if (Op.Estimate)
        K->EstimatedSeconds += ModelTotal;
      if (Op.Measured) {
        K->MeasuredSeconds += ModelTotal;
        ++K->MeasuredLaunches;
      }
      K->Confidence = std::max(K->Confidence, Op.Confidence);
    }
    ++Finished;
    auto Range = Stamps.equal_range(Finished);
    for (auto It = Range.first; It != Range.second; ++It) {
      EventState &E = *It->second.first;
      if (E.Generation == It->second.second)
        E.Time = std::max(E.Time, End);
    }
    Stamps.erase(Range.first, Range.second);
    if (Waiters > 0)
      Changed->notify_all();
  }
}

} // namespace orrery::sim
