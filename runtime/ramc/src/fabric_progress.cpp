//===- fabric_progress.cpp - reading the completion queue -----------------===//
//
// Sends and receives share one completion queue (fabric.h). A completion
// is a send's when its context came from encodeOp (wire.h: every tracked
// send, write, read and atomic has one; injected ones complete silently).
// Flags cannot say it alone: the sockets provider reports a write's own
// FI_REMOTE_CQ_DATA flag on the initiator's completion. Every other
// successful completion is the receive side's: a batch received into a
// buffer (context: the buffer's index) or a remote write's CQ data. An
// error without a context is the receive side's when its flags say so.
//
//===----------------------------------------------------------------------===//
#include "fabric.h"

#include "wire.h"

#include <rdma/fi_errno.h>

namespace ramc {

static bool isSendError(const fi_cq_err_entry &E) {
  constexpr uint64_t TargetOnly = FI_RECV | FI_REMOTE_READ | FI_REMOTE_WRITE;
  return isOpContext(E.op_context) ||
         (!E.op_context && !(E.flags & TargetOnly));
}

size_t Fabric::progress(CompletionSink &Sink) {
  size_t Total = 0;
  fi_cq_data_entry E[32];
  char Buf[256];
  for (;;) {
    ssize_t N = fi_cq_read(Cq, E, 32);
    if (N == -FI_EAVAIL) {
      fi_cq_err_entry EE{};
      if (fi_cq_readerr(Cq, &EE, 0) < 0)
        break;
      std::string Msg =
          fi_cq_strerror(Cq, EE.prov_errno, EE.err_data, Buf, sizeof(Buf));
      if (isSendError(EE))
        Sink.onTxError(EE.op_context, EE.err, Msg);
      else
        Sink.onRxError(EE.err, Msg);
      if (EE.flags & FI_MULTI_RECV)
        rxReleased(EE.op_context, Sink);
      ++Total;
      continue;
    }
    if (N <= 0)
      break;
    for (ssize_t I = 0; I < N; ++I) {
      if (isOpContext(E[I].op_context)) {
        Sink.onTxDone(E[I].op_context);
        continue;
      }
      if (E[I].flags & FI_REMOTE_CQ_DATA)
        Sink.onRemoteData(E[I].data);
      if ((E[I].flags & FI_RECV) && E[I].len)
        Sink.onBatch(static_cast<const uint8_t *>(E[I].buf), E[I].len);
      if (E[I].flags & FI_MULTI_RECV)
        rxReleased(E[I].op_context, Sink);
    }
    Total += static_cast<size_t>(N);
    if (N < 32)
      break;
  }
  return Total;
}

void Fabric::rxReleased(void *Context, CompletionSink &Sink) {
  auto I = reinterpret_cast<uintptr_t>(Context);
  if (I == 0 || I > RxBuffers.size())
    return;
  if (long Rc = repost(I - 1))
    Sink.onRxError(static_cast<int>(-Rc),
                   "reposting a receive buffer for aggregated puts failed; "
                   "batches from peers may stall");
}

} // namespace ramc
