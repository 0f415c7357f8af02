//===- sim_endpoint.cpp - one simulated rank's RAMC endpoint --------------===//
#include "sim_endpoint.h"

#include "sim_bench.h"

#include <simgrid/s4u/Engine.hpp>

namespace ramc::sim {

namespace s4u = simgrid::s4u;

SimEndpoint::SimEndpoint(int Rank, uint64_t Id, s4u::Host *Host,
                         NotifyMode Mode)
    : Rank(Rank), Id(Id), Host(Host), Mode(Mode) {}

void SimEndpoint::start() {
  BenchPause B;
  Cv = s4u::ConditionVariable::create();
  Mx = s4u::Mutex::create();
  // Only this rank ever waits on Cv, so it holds Mx for good: a wait then
  // costs one simcall, not three.
  Held = std::unique_lock<s4u::Mutex>(*Mx);
}

void SimEndpoint::stop() {
  if (!Held.owns_lock())
    return;
  BenchPause B;
  Held.unlock();
}

void SimEndpoint::wake() {
  ++Events;
  if (Waiting)
    Cv->notify_all();
}

void SimEndpoint::wait(double Until) {
  if (Events != Seen) {
    Seen = Events;
    return;
  }
  if (Until >= 0 && Until <= s4u::Engine::get_clock())
    return;
  Waiting = true;
  {
    BenchPause B;
    if (Until < 0)
      Cv->wait(Held);
    else
      Cv->wait_until(Held, Until);
  }
  Waiting = false;
  Seen = Events;
}

} // namespace ramc::sim
