//===- sim_bench.cpp - leaving SMPI's computation benchmark ---------------===//
#include "sim_bench.h"

#include <xbt/config.hpp>

#include <string>

namespace ramc::sim {

bool benchmarking() {
  // smpi_bench_begin also switches data segments under mmap privatization.
  static const bool On =
      simgrid::config::get_value<bool>("smpi/simulate-computation") ||
      simgrid::config::get_value<std::string>("smpi/privatization") == "mmap";
  return On;
}

} // namespace ramc::sim
