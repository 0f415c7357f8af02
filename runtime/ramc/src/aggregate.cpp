//===- aggregate.cpp - small non-blocking puts shipped in batches ---------===//
//
// One RMA operation per put costs the initiator a provider call and the
// target a completion, whatever the size: 1 us on shm, 15 us on
// tcp;ofi_rxm here. Small non-blocking puts to one peer are therefore
// copied into that peer's open batch (batch.h) and shipped as one message
// when the batch is full, or when the process makes any RAMC call other than
// a non-blocking put. The target deposits each put into its window and
// counts it when it next looks at its completions - where, without
// aggregation, it would have counted the put's CQ data - so counters count
// puts, never messages.
//
//===----------------------------------------------------------------------===//
#include "context.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace ramc {

/// Send buffers per context at most; beyond, puts go out on their own.
constexpr size_t kMaxSendBuffers = 64;

bool Options::loadAggregation(std::string &Err) {
  int64_t Bytes = static_cast<int64_t>(AggBytes);
  int64_t PutMax = static_cast<int64_t>(AggPutMax);
  if (!envInt("RAMC_AGG_BYTES", Bytes, Err) ||
      !envInt("RAMC_AGG_PUT_MAX", PutMax, Err) ||
      !envInt("RAMC_AGG_SHIP_BYTES", AggShipBytes, Err))
    return false;
  constexpr int64_t Overhead = sizeof(BatchHeader) + sizeof(RecordHeader);
  if (Bytes != 0 &&
      (Bytes < 2 * Overhead || Bytes > static_cast<int64_t>(kMaxBatchBytes))) {
    Err = format("RAMC_AGG_BYTES=%lld is outside %lld..%zu (or 0: no "
                 "aggregation)",
                 static_cast<long long>(Bytes),
                 static_cast<long long>(2 * Overhead), kMaxBatchBytes);
    return false;
  }
  if (PutMax < 0 || (Bytes && PutMax > Bytes - Overhead)) {
    Err = format("RAMC_AGG_PUT_MAX=%lld is outside 0..%lld (RAMC_AGG_BYTES "
                 "less %lld bytes of headers; 0: no aggregation)",
                 static_cast<long long>(PutMax),
                 static_cast<long long>(Bytes ? Bytes - Overhead : 0),
                 static_cast<long long>(Overhead));
    return false;
  }
  if (AggShipBytes < -1 ||
      AggShipBytes > static_cast<int64_t>(kMaxBatchBytes)) {
    Err = format("RAMC_AGG_SHIP_BYTES=%lld is outside 0..%zu (0: batches "
                 "are shipped at RAMC_AGG_BYTES)",
                 static_cast<long long>(AggShipBytes), kMaxBatchBytes);
    return false;
  }
  AggBytes = static_cast<size_t>(Bytes);
  AggPutMax = static_cast<size_t>(PutMax);
  return true;
}

/// Where RAMC_AGG_SHIP_BYTES is not set: tcp;ofi_rxm ships batches of small
/// puts at 12 KiB. Measured on loopback, 64 puts per window, against 16 KiB
/// batches (four runs of three to five interleaved rounds, median per-round
/// ratios): 256 B 1.12-1.20x, 512 B 1.03-1.19x, 1 KiB 0.95-1.05x, 2 KiB
/// 1.02-1.21x; 8 KiB batches were slower than both, and puts of 4 KiB (two
/// to a 12 KiB batch) lost 20 %: they keep 16 KiB batches (batchCapacity).
static size_t defaultShipBytes(const std::string &Provider) {
  return Provider == "tcp;ofi_rxm" ? 12288 : 0;
}

/// Providers whose inject size is at least this send injected messages
/// cheaply and larger ones through a slower protocol: shm (4 KiB) copies an
/// injected message once into the peer's region, and a larger one through
/// its segmented or cross-memory path, about 10 us more per message on the
/// development machines (64 puts of 64 B: 229 MB/s in one 5 KiB batch,
/// 640 MB/s in two injected ones).
constexpr size_t kInjectBatchMin = 1024;

void Context::initAggregation() {
  AggBytes = Opts.AggPutMax ? std::min(Opts.AggBytes, Tr->batchLimit()) : 0;
  // One early-ship size, for puts small enough: the user's; else shm's
  // inject size, for puts of up to an eighth of it; else the provider's
  // default, for puts of which three fit.
  size_t Inject = Tr->injectSize();
  bool ByInject = Opts.AggShipBytes < 0 && Inject >= kInjectBatchMin;
  size_t Ship = Opts.AggShipBytes >= 0 ? static_cast<size_t>(Opts.AggShipBytes)
                : ByInject             ? Inject
                                       : defaultShipBytes(Tr->providerName());
  ShipBatchBytes = Ship < AggBytes ? Ship : 0;
  constexpr size_t Headers = sizeof(BatchHeader) + 3 * sizeof(RecordHeader);
  ShipPutMax = !ShipBatchBytes  ? 0
               : ByInject       ? Ship / 8
               : Ship > Headers ? (Ship - Headers) / 3 / 8 * 8
                                : 0;
}

std::string Context::describeAggregation() const {
  if (!AggBytes)
    return " aggregate=off";
  if (ShipBatchBytes)
    return format(" aggregate=put<=%zu,batch<=%zu(<=%zu)", Opts.AggPutMax,
                  AggBytes, ShipBatchBytes);
  return format(" aggregate=put<=%zu,batch<=%zu", Opts.AggPutMax, AggBytes);
}

bool Context::aggregates(const void *Src, size_t Len) const {
  // The transport may carry less than RAMC_AGG_BYTES (AggBytes is the
  // smaller): a put must fit an empty batch.
  return AggBytes && Len <= Opts.AggPutMax &&
         sizeof(BatchHeader) + batchRecordBytes(Len) <= AggBytes &&
         !Tr->deliveryComplete() && Tr->hostMemory(Src);
}

bool Context::takeSendBuffer(uint32_t &Index) {
  if (FreeSendBuffers.empty() && SendBuffers.size() >= kMaxSendBuffers)
    Tr->progress(*this); // completions of shipped batches free theirs
  if (!FreeSendBuffers.empty()) {
    Index = FreeSendBuffers.back();
    FreeSendBuffers.pop_back();
    return true;
  }
  if (SendBuffers.size() >= kMaxSendBuffers)
    return false;
  SendBuffer B;
  // Pages are touched as batches fill: a rank that only ever stages one
  // small put per peer (19,600 simulated ranks of the heat example) keeps
  // one page of it.
  size_t Bytes = (AggBytes + 63) / 64 * 64;
  B.Data = static_cast<uint8_t *>(std::aligned_alloc(64, Bytes));
  if (!B.Data)
    return false;
  std::string E;
  if (Tr->needsLocalMr() && !Tr->registerLocal(B.Data, Bytes, B.Mr, E)) {
    std::free(B.Data);
    return false;
  }
  Index = static_cast<uint32_t>(SendBuffers.size());
  SendBuffers.push_back(B);
  return true;
}

void Context::releaseSendBuffer(uint32_t Index) {
  if (Index < SendBuffers.size())
    FreeSendBuffers.push_back(Index);
}

void Context::releaseSendBuffers() {
  for (SendBuffer &B : SendBuffers) {
    Tr->release(B.Mr);
    std::free(B.Data);
  }
  SendBuffers.clear();
  FreeSendBuffers.clear();
  OpenBatches.clear();
}

int Context::stagePut(const Attachment &A, const void *Src, size_t Len,
                      size_t Off, const char *Call, bool &Staged) {
  // The peer's liveness is looked at when the batch is shipped (post()):
  // a clock read per staged put would cost more than the copy.
  Staged = false;
  int P = A.Peer;
  auto It = OpenBatches.find(P);
  if (It != OpenBatches.end() &&
      !It->second.Writer.fits(Len, batchCapacity(Len))) {
    if (int Rc = shipBatch(P, Call))
      return Rc;
    It = OpenBatches.end();
  }
  if (It == OpenBatches.end()) {
    uint32_t B;
    if (!takeSendBuffer(B))
      return RAMC_SUCCESS;
    It = OpenBatches.try_emplace(P).first;
    OpenBatch &O = It->second;
    O.Buffer = B;
    O.Writer.reset(SendBuffers[B].Data, AggBytes, static_cast<uint32_t>(Rank));
    O.First = rmaOp(A, O.Writer.buffer() + kFirstRecordData, Len, Off);
    O.First.HasData = Tr->notify() == NotifyMode::CqData;
    O.First.Data = encodeWindowOp(A.Chan);
    O.First.Desc = SendBuffers[B].Mr.Desc;
    O.First.Copied = Len;
  }
  It->second.Writer.append(A.Chan, Off, Src, Len);
  Staged = true;
  return RAMC_SUCCESS;
}

int Context::shipBatch(int P, const char *Call) {
  if (OpenBatches.empty()) // every put too large to aggregate comes here
    return RAMC_SUCCESS;
  auto It = OpenBatches.find(P);
  if (It == OpenBatches.end())
    return RAMC_SUCCESS;
  uint32_t B = It->second.Buffer;
  BatchWriter W = It->second.Writer;
  RmaOp First = It->second.First;
  OpenBatches.erase(It);
  // A batch of one put leaves as that put's own write, from the batch's
  // buffer; a larger one as a message. Either is injected when it fits the
  // inject size (its buffer is free at once), else tracked until done.
  bool Single = W.records() == 1;
  size_t Len = Single ? First.Len : W.finish();
  std::string What =
      Single ? "put" : format("batch of %u aggregated put(s)", W.records());
  auto Send = [&](void *Op) -> long {
    if (Single) {
      First.Op = Op;
      return Tr->write(First);
    }
    return Tr->sendBatch(Peers[P].Addr, W.buffer(), Len, SendBuffers[B].Mr.Desc,
                         Op);
  };
  Deadline D(Opts.DefaultTimeoutMs);
  int Rc;
  if (Len <= Tr->injectSize()) {
    Rc = post([&] { return Send(nullptr); }, P, What.c_str(), D, Call);
    releaseSendBuffer(B);
    if (!Rc) {
      Puts.injected(P);
      ++PutMessages;
    }
    return Rc;
  }
  void *Op = encodeOp(OpKind::Batch, P, B);
  Rc = postTracked(
      Puts, [&] { return Send(Op); }, P, What.c_str(), D, Call);
  if (Rc)
    releaseSendBuffer(B);
  else
    ++PutMessages;
  return Rc;
}

int Context::flushBatches(const char *Call, bool Report) {
  int First = RAMC_SUCCESS;
  auto Sent = [&](int Rc, int P, const char *What) {
    if (!Rc || First)
      return;
    if (Report) {
      First = Rc;
    } else if (!TxFailed) { // told by the next wait for puts
      TxFailed = true;
      TxPeer = P;
      TxMsg = format("%s to rank %d could not be sent (%s)", What, P,
                     Err.message());
    }
  };
  while (!OpenBatches.empty()) {
    int P = OpenBatches.begin()->first;
    Sent(shipBatch(P, Call), P, "aggregated put(s)");
  }
  if (Run.Live) { // a run's last put or note (notify_run.cpp)
    int P = Run.Peer;
    const char *What = Run.Holds ? "a put" : "a run's notification";
    Sent(endRun(Call), P, What);
  }
  return First;
}

void Context::onBatch(const uint8_t *Data, size_t Len) {
  std::string E;
  uint32_t Sender = 0;
  bool Bad = false;
  auto Deposit = [&](uint32_t Chan, uint64_t Off, const uint8_t *Bytes,
                     size_t N) {
    Window *Found = channelWindow(Chan);
    if (!Found)
      return; // for a window destroyed since: dropped, as its CQ data is
    Window &W = *Found;
    if (Off > W.Len || N > W.Len - Off) {
      Bad = true; // the initiator checked bounds: a corrupt batch
      return;
    }
    if (!W.Mr.Device) // device contents are not simulated
      std::memcpy(static_cast<uint8_t *>(W.Buf) + Off, Bytes, N);
    W.Ops.add(1);
  };
  if (!forEachBatchRecord(Data, Len, Sender, Deposit, E))
    return onRxError(EIO, "a malformed message arrived: " + E);
  if (Bad)
    onRxError(EIO, format("a batch of puts from rank %u wrote past the end "
                          "of a window (those puts were dropped)",
                          Sender));
}

} // namespace ramc
