//===- notify_run.cpp - one notification for a run of large puts ----------===//
//
// In CQ-data mode every put carries its window's channel to the target,
// which costs the target a completion per put: on tcp;ofi_rxm that held
// RAMC to 0.67-0.87x a raw fi_write loop that notifies once per window of
// 64 writes of 16-64 KiB. Where the data of writes to a peer lands in the
// order they were posted (fabric_order.cpp), a run of non-blocking puts into
// one window needs one notification, carried by its last put: once the target
// sees it, every earlier put of the run has landed. So the newest such put is
// held back until the next put shows whether it ends the run: a put continuing
// the run sends the held one without notification; any other put, and every
// RAMC call that ships batches (aggregate.cpp), sends it with the count of
// its run (wire.h, DataKind::WindowOps). Counters still count puts.
//
// Where writes are not ordered but every write of a run completes only once
// it has landed (Transport::completionLandsAbove: shm), a run's puts go at
// once without notification (nothing is held) and, when the run ends, RAMC
// waits for their completions (every put of the run has then landed) and
// sends one 8-byte note with the run's count to the target's
// acknowledgement word, as an atomic's notification goes.
//
//===----------------------------------------------------------------------===//
#include "context.h"

namespace ramc {

bool Options::loadNotifyRun(std::string &Err) {
  int64_t Run = static_cast<int64_t>(NotifyRun);
  if (!envInt("RAMC_NOTIFY_RUN", Run, Err))
    return false;
  if (Run < 1 || Run > static_cast<int64_t>(kMaxRun)) {
    Err = format("RAMC_NOTIFY_RUN=%lld is outside 1..%u (1: every put "
                 "notifies its target)",
                 static_cast<long long>(Run), kMaxRun);
    return false;
  }
  NotifyRun = static_cast<uint32_t>(Run);
  int64_t Direct = DirectWrites;
  if (!envInt("RAMC_DIRECT_WRITES", Direct, Err))
    return false;
  if (Direct != 0 && Direct != 1) {
    Err = format("RAMC_DIRECT_WRITES=%lld is neither 0 nor 1 (1: RAMC "
                 "copies the puts of a run into a target on this host "
                 "itself, where the provider is shm)",
                 static_cast<long long>(Direct));
    return false;
  }
  DirectWrites = Direct == 1;
  return true;
}

void Context::initNotifyRuns() {
  RunPutMax = 0;
  RunsDelivered = false;
  RunsDirect = false;
  if (Opts.NotifyRun <= 1 || Tr->notify() != NotifyMode::CqData ||
      Tr->deliveryComplete())
    return;
  RunPutMax = Tr->orderedWriteSize();
  // A run's puts are larger than the inject size (put() injects the others);
  // the run's note is injected too, so it needs 8 bytes of inject size.
  if (!RunPutMax && Tr->completionLandsAbove() <= Tr->injectSize() &&
      Tr->injectSize() >= 8) {
    RunPutMax = Tr->maxMsgSize();
    RunsDelivered = true;
    RunsDirect = Tr->writesDirectly();
  }
}

std::string Context::describeNotifyRuns() const {
  if (!RunPutMax)
    return " notify_run=off";
  return format(" notify_run<=%u%s", Opts.NotifyRun,
                !RunsDelivered ? ""
                : RunsDirect   ? "(delivered,direct)"
                               : "(delivered)");
}

bool Context::holdsPut(const Attachment &A, size_t Len) const {
  return Len <= RunPutMax && channelIndex(A.Chan) < kRunWindows;
}

int Context::holdPut(int P, uint32_t Chan, const RmaOp &Put, const char *Call) {
  if (RunsDelivered)
    return runPut(P, Chan, Put, Call);
  uint32_t Before = 0;
  if (Run.Live) {
    bool Continues =
        Run.Peer == P && Run.Chan == Chan && Run.Sent + 1 < Opts.NotifyRun;
    uint32_t Sent = Run.Sent + 1;
    // On failure the run's puts sent so far are never counted.
    if (int Rc = sendHeldPut(/*Notify=*/!Continues, Call))
      return Rc;
    Before = Continues ? Sent : 0;
  }
  Run = OpenRun{/*Live=*/true, /*Holds=*/true, P, Chan, Before, Put};
  return RAMC_SUCCESS;
}

int Context::sendHeldPut(bool Notify, const char *Call) {
  if (!Run.Live || !Run.Holds)
    return RAMC_SUCCESS;
  Run.Live = false;
  int P = Run.Peer;
  RmaOp Put = Run.Op;
  Put.HasData = Notify;
  Put.Data = encodeWindowOps(Run.Chan, Run.Sent + 1);
  Put.Op = encodeOp(OpKind::Put, P, 0);
  int Rc = postTracked(
      Puts, [&] { return Tr->write(Put); }, P, "put",
      LazyDeadline(Opts.DefaultTimeoutMs), Call);
  if (!Rc)
    ++PutMessages;
  return Rc;
}

int Context::runPut(int P, uint32_t Chan, const RmaOp &Put, const char *Call) {
  if (Run.Live &&
      (Run.Peer != P || Run.Chan != Chan || Run.Sent >= Opts.NotifyRun))
    if (int Rc = endRun(Call))
      return Rc;
  // Into a process on this host, RAMC copies the put itself
  // (fabric_direct.cpp); the transport may hand it back to the provider.
  const Peer &Pe = peerRef(P);
  bool ByProvider = !RunsDirect || !Pe.Watched;
  int Rc = RAMC_SUCCESS;
  if (!ByProvider) {
    Rc = post(
        [&] {
          long R = Tr->writeDirect(Put, Pe.Proc.Pid);
          ByProvider = R == kTransportUnsupported;
          return ByProvider ? 0L : R;
        },
        P,
        "put (written directly; RAMC_DIRECT_WRITES=0 sends it by the provider)",
        LazyDeadline(Opts.DefaultTimeoutMs), Call);
    PutsDirect += !Rc && !ByProvider;
  }
  if (!Rc && ByProvider) {
    RmaOp Op = Put;
    Op.HasData = false; // the run's note counts it
    Op.Op = encodeOp(OpKind::Put, P, 0);
    Rc = postTracked(
        Puts, [&] { return Tr->write(Op); }, P, "put",
        LazyDeadline(Opts.DefaultTimeoutMs), Call);
  }
  if (Rc) { // the run's puts sent so far are never counted
    Run.Live = false;
    return Rc;
  }
  ++PutMessages;
  if (!Run.Live)
    Run = OpenRun{/*Live=*/true, /*Holds=*/false, P, Chan, 0, RmaOp()};
  ++Run.Sent;
  return RAMC_SUCCESS;
}

int Context::endRun(const char *Call) {
  if (!Run.Live)
    return RAMC_SUCCESS;
  if (Run.Holds)
    return sendHeldPut(/*Notify=*/true, Call);
  Run.Live = false;
  int P = Run.Peer;
  Deadline D(Opts.DefaultTimeoutMs);
  // Every put of the run has landed once the writes completed.
  if (int Rc = waitPending(Puts, D, "put(s)", Call))
    return Rc;
  RmaOp Note = ackWrite(P); // injected: initNotifyRuns asked for 8 bytes
  Note.HasData = true;
  Note.Data = encodeWindowOps(Run.Chan, Run.Sent);
  int Rc =
      post([&] { return Tr->write(Note); }, P, "run's notification", D, Call);
  if (!Rc)
    Puts.injected(P);
  return Rc;
}

} // namespace ramc
