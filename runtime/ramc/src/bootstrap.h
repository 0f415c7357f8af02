//===- bootstrap.h - address and key exchange -------------------*- C++ -*-===//
//
// A small key-value interface (put, commit, fence, get, barrier) with
// backends tried in order: PMIx, MPI (when the program initialized MPI),
// single process. Values are fetched per peer on first use, so peers are
// resolved lazily.
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_BOOTSTRAP_H
#define RAMC_SRC_BOOTSTRAP_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ramc {

class Bootstrap {
public:
  virtual ~Bootstrap() = default;
  virtual const char *name() const = 0;
  int rank() const { return Rank; }
  int size() const { return Size; }
  /// How many bootstraps this process (this rank, under SimGrid) created
  /// before this one. Every process creates its k-th context with its k-th
  /// bootstrap, so the serial names that context's keys alike everywhere.
  int serial() const { return Serial; }
  void setSerial(int S) { Serial = S; }
  /// Publishes Key for this process. Returns false and sets Err on failure.
  virtual bool put(const std::string &Key, const std::vector<uint8_t> &Value,
                   std::string &Err) = 0;
  /// Makes everything put so far visible to the other processes after the
  /// next fence (collective).
  virtual bool fence(std::string &Err) = 0;
  virtual bool get(int Peer, const std::string &Key,
                   std::vector<uint8_t> &Value, std::string &Err) = 0;
  /// Waits for every process, calling Progress meanwhile so that this
  /// process keeps serving remote reads of its memory (manual-progress
  /// providers need the target to drive progress). Progress returns false
  /// when the caller's deadline passed: barrier then fails with Err, and the
  /// pending collective is abandoned.
  virtual bool barrier(const std::function<bool()> &Progress,
                       std::string &Err) = 0;

  /// Whether Peer has reached the barrier this process is in (or last
  /// left), even if it exited since. Backends that can tell (PMIx) mark
  /// each process's arrival where it outlives the process; the others say
  /// Unknown. RAMC asks only about peers whose process has exited, to tell
  /// one that left after the barrier from one killed before it (the PMIx
  /// servers here release a fence without a process that died).
  enum class Arrival { Yes, No, Unknown };
  virtual Arrival arrivedAtBarrier(int Peer) {
    (void)Peer;
    return Arrival::Unknown;
  }

protected:
  int Rank = 0;
  int Size = 1;
  int Serial = 0;
};

/// Which: RAMC_BOOTSTRAP_*. AUTO honours RAMC_BOOTSTRAP (pmix, mpi, single).
std::unique_ptr<Bootstrap> createBootstrap(int Which, std::string &Err);

std::unique_ptr<Bootstrap> createPmixBootstrap(std::string &Err);
std::unique_ptr<Bootstrap> createMpiBootstrap(std::string &Err);
std::unique_ptr<Bootstrap> createSingleBootstrap();
bool pmixAvailable();
bool mpiAvailable();

} // namespace ramc

#endif
