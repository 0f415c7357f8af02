//===- consume_counter.h - consume-semantics arrival counter ----*- C++ -*-===//
//
// test(n) succeeds when arrivals >= consumed + n and then consumes n, so no
// arrival is ever lost or counted twice (RAMC 0.5 lost counts in test).
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_CONSUME_COUNTER_H
#define RAMC_SRC_CONSUME_COUNTER_H

#include <cstdint>

namespace ramc {

class ConsumeCounter {
public:
  /// Sets the total number of arrivals a monotonic source (a hardware
  /// counter) has seen so far. A smaller value than before is ignored.
  void observe(uint64_t Total) {
    if (Total > Observed)
      Observed = Total;
  }
  /// Adds arrivals counted in software (CQ data, deposited batches); they
  /// add to the observed ones, so both sources may count one window.
  void add(uint64_t N) { Added += N; }
  bool test(uint64_t N) {
    if (arrived() - Consumed < N)
      return false;
    Consumed += N;
    return true;
  }
  uint64_t arrived() const { return Observed + Added; }
  uint64_t consumed() const { return Consumed; }
  uint64_t available() const { return arrived() - Consumed; }

private:
  uint64_t Observed = 0;
  uint64_t Added = 0;
  uint64_t Consumed = 0;
};

} // namespace ramc

#endif
