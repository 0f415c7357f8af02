//===- sim_costs.cpp - RAMC's costs under simulation ----------------------===//
#include "sim_costs.h"

#include "error.h"

namespace ramc::sim {

using orrery::models::Quantity;
using orrery::models::ValueKind;

static Overhead overheadOf(const Quantity &Q) {
  return {Q.Value > 0 ? Q.Value : 0, Q.Kind == ValueKind::Estimate};
}

SimCosts SimCosts::fromMachine(const orrery::models::Machine &M) {
  const orrery::models::RamcModel &R = M.Network.Ramc;
  SimCosts C;
  C.Provider = R.Provider.empty() ? "unspecified" : R.Provider;
  C.Put = overheadOf(R.PutOverhead);
  C.Get = overheadOf(R.GetOverhead);
  C.Atomic = overheadOf(R.AtomicOverhead);
  C.Completion = overheadOf(R.CompletionOverhead);
  C.Registration = overheadOf(R.RegistrationOverhead);
  C.InjectSize =
      R.InjectSize.Value > 0 ? static_cast<size_t>(R.InjectSize.Value) : 0;
  C.Notify = notifyModeOf(R.Provider);
  C.Copies = M.Node.SharedMemory;
  return C;
}

std::string SimCosts::str() const {
  auto Us = [](const Overhead &O) { return O.Seconds * 1e6; };
  return format("put=%gus get=%gus atomic=%gus completion=%gus "
                "registration=%gus inject=%zu",
                Us(Put), Us(Get), Us(Atomic), Us(Completion), Us(Registration),
                InjectSize);
}

NotifyMode notifyModeOf(const std::string &Provider) {
  return Provider.compare(0, 3, "cxi") == 0 || Provider == "sockets"
             ? NotifyMode::MrCounter
             : NotifyMode::CqData;
}

bool chooseNotifyMode(NotifyMode Requested, const SimCosts &C, NotifyMode &Out,
                      std::string &Err) {
  if (Requested == NotifyMode::Auto) {
    Out = C.Notify;
    return true;
  }
  if (Requested == NotifyMode::MrCounter && C.Notify != NotifyMode::MrCounter) {
    Err = "notify mode mr_counter is not available on the modelled provider " +
          C.Provider +
          " (the machine file's network.ramc.provider); MR "
          "counters are modelled for cxi and sockets";
    return false;
  }
  Out = Requested;
  return true;
}

} // namespace ramc::sim
