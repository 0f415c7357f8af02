//===- sim_barrier.cpp - the bootstrap's store and barrier ----------------===//
#include "sim_barrier.h"

#include "sim_bench.h"
#include "sim_world.h"

#include "orrery/sim/Api.h"

#include <simgrid/s4u/Actor.hpp>

#include <mutex>

namespace ramc::sim {

namespace s4u = simgrid::s4u;

/// The message of one dissemination round.
constexpr double kBarrierBytes = 8;

SimBarrier &SimBarrier::get() {
  static SimBarrier *B = new SimBarrier; // never destroyed, like SimWorld
  return *B;
}

int SimBarrier::nextSerial(int Rank) {
  if (static_cast<size_t>(Rank) >= Serials.size())
    Serials.resize(Rank + 1, 0);
  return Serials[Rank]++;
}

void SimBarrier::publish(int Rank, const std::string &Key,
                         std::vector<uint8_t> Value) {
  Store[{Rank, Key}] = std::move(Value);
}

bool SimBarrier::lookup(int Rank, const std::string &Key,
                        std::vector<uint8_t> &Value) const {
  auto It = Store.find({Rank, Key});
  if (It == Store.end())
    return false;
  Value = It->second;
  return true;
}

void SimBarrier::chargeRounds(int Rank, int Size) {
  SimWorld &W = SimWorld::get();
  s4u::Host *Me = W.hostOf(Rank);
  double Seconds = 0;
  for (long Step = 1; Step < Size; Step *= 2) {
    Seconds += W.costs().Put.Seconds;
    s4u::Host *Peer = W.hostOf(static_cast<int>((Rank + Step) % Size));
    if (Me && Peer)
      Seconds += orrery::sim::api::messageSeconds(Me, Peer, kBarrierBytes);
  }
  if (Seconds <= 0)
    return;
  BenchPause B;
  s4u::this_actor::sleep_for(Seconds);
}

bool SimBarrier::arrive(int Rank, int Size, const std::function<bool()> &Wait) {
  if (!Released) {
    BenchPause B;
    auto Cv = s4u::ConditionVariable::create();
    auto M = s4u::Mutex::create();
    if (!Released) { // creating them let other ranks run
      Released = Cv;
      Mx = M;
    }
  }
  uint64_t Gen = Generation;
  if (++Arrived == Size) {
    Arrived = 0;
    ++Generation;
    BenchPause B;
    Released->notify_all();
    SimWorld::get().wakeAll();
  }
  while (Generation == Gen) {
    if (Wait) {
      if (!Wait()) {
        if (Generation == Gen) {
          --Arrived; // leave: the others keep waiting for a rank
          return false;
        }
        break;
      }
      continue;
    }
    BenchPause B;
    std::unique_lock<s4u::Mutex> L(*Mx);
    if (Generation == Gen) // no simcall between this test and the wait
      Released->wait(L);
  }
  chargeRounds(Rank, Size);
  return true;
}

} // namespace ramc::sim
