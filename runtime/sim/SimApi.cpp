//===- SimApi.cpp - liborrery-sim's services to simulated libraries -------===//

#include "orrery/sim/Api.h"
#include "DeviceMemory.h"
#include "MpiCost.h"

namespace orrery::sim::api {

const models::Machine &machine() { return Runtime::get().machine(); }
bool idealNetwork() { return Runtime::get().idealNetwork(); }
int rank() { return Runtime::get().rank().Id; }
int node() { return Runtime::get().rank().Node; }
simgrid::s4u::Host *cpuHost() { return Runtime::get().rank().Cpu; }
int nodeOfRank(int R) { return R / Runtime::get().ranksPerNode(); }
bool isDeviceMemory(const void *P) { return DeviceMemory::get().isDevice(P); }

void chargeDeviceLeg(const void *Buf, double Bytes, int Peer, bool Sending) {
  Rank &R = Runtime::get().rank();
  chargeLeg(R, legOf(R, Buf, Bytes, Peer, 0, Sending));
}

void chargeCallOverhead(double Seconds, bool Estimate) {
  Runtime &RT = Runtime::get();
  RT.cpuWait(RT.rank(), Category::CallOverhead, Seconds, Estimate);
}

} // namespace orrery::sim::api
