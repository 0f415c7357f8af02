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
  /// Sets the total number of arrivals seen so far (monotonic source, e.g. a
  /// hardware counter). A smaller value than before is ignored.
  void observe(uint64_t Total) {
    if (Total > Arrived)
      Arrived = Total;
  }
  void add(uint64_t N) { Arrived += N; }
  bool test(uint64_t N) {
    if (Arrived - Consumed < N)
      return false;
    Consumed += N;
    return true;
  }
  uint64_t arrived() const { return Arrived; }
  uint64_t consumed() const { return Consumed; }
  uint64_t available() const { return Arrived - Consumed; }

private:
  uint64_t Arrived = 0;
  uint64_t Consumed = 0;
};

} // namespace ramc

#endif
