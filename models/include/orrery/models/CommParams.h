//===- CommParams.h - Parameters of the communication model -----*- C++ -*-===//
//
// The numbers the communication equations use (the paper's Table I symbols),
// as plain doubles in base units, so tests can state them directly and the
// runtime can take them from a Machine once.
//
//===----------------------------------------------------------------------===//

#ifndef ORRERY_MODELS_COMMPARAMS_H
#define ORRERY_MODELS_COMMPARAMS_H

#include "orrery/models/Hockney.h"
#include "orrery/models/Machine.h"

#include <set>

namespace orrery::models {

struct CommParams {
  Hockney H2D;         ///< t_h2d(n)
  Hockney D2H;         ///< t_d2h(n)
  Hockney Peer;        ///< t_peer(n): NVLink or PCIe peer copy
  Hockney DeviceLocal; ///< copy inside one GPU's memory (read + write)
  double AlphaGdr = 0; ///< alpha_gdr
  double ReductionBandwidth = 0; ///< t_reduce(n) = n / this (beta_op = 1/this)
  double CallHost = 0;           ///< t_call, host buffers
  double CallDevice = 0;         ///< t_call, device buffers
  double CopyCallOverhead = 0;   ///< per cudaMemcpy call
  bool PeerAccess = false;       ///< GPUs of a node can copy peer to peer
  bool GpuDirectRdma = false;    ///< NIC reads/writes GPU memory directly
  std::set<Collective> HostBounce; ///< collectives bounced through the host

  /// Which of the scalar terms above rest on estimates (the Hockney terms
  /// carry their own flag).
  struct {
    bool AlphaGdr = false, ReductionBandwidth = false, CallHost = false,
         CallDevice = false, CopyCallOverhead = false;
  } Estimates;

  static CommParams fromMachine(const Machine &M);
};

} // namespace orrery::models

#endif // ORRERY_MODELS_COMMPARAMS_H
