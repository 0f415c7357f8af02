//===- sim_bench.h - leaving SMPI's computation benchmark ------*- C++ -*-===//
//
// SMPI measures the real CPU time rank code spends between MPI calls (when
// smpi/simulate-computation is on). Every S4U call the simulated transport
// makes from rank code may let other actors run, so it is bracketed by
// smpi_bench_end()/smpi_bench_begin(): their CPU time must not be charged to
// this rank. Whether SMPI benchmarks at all is liborrery-sim's answer
// (orrery::sim::api::benchmarking), shared with its own charging calls.
// Never nest these (liborrery-sim's charging calls bracket themselves).
//
//===----------------------------------------------------------------------===//
#ifndef RAMC_SRC_SIM_SIM_BENCH_H
#define RAMC_SRC_SIM_SIM_BENCH_H

#include "orrery/sim/Api.h"

#include <smpi/smpi.h>

namespace ramc::sim {

class BenchPause {
public:
  BenchPause() : On(orrery::sim::api::benchmarking()) {
    if (On)
      smpi_bench_end();
  }
  ~BenchPause() {
    if (On)
      smpi_bench_begin();
  }
  BenchPause(const BenchPause &) = delete;
  BenchPause &operator=(const BenchPause &) = delete;

private:
  bool On;
};

} // namespace ramc::sim

#endif
