//===- DeviceSpans.cpp - Kernels and copies timed with device events ------===//

#include "DeviceSpans.h"

#include <set>

namespace orrery::native {

EventClock::~EventClock() = default;

DeviceSpans::~DeviceSpans() {
  std::lock_guard<std::mutex> G(Lock);
  for (auto &[Context, Events] : FreeEvents)
    for (void *E : Events)
      Clock.destroy(E);
}

void *DeviceSpans::takeEvent(const void *Context) {
  std::vector<void *> &Free = FreeEvents[Context];
  if (Free.empty())
    return Clock.create();
  void *E = Free.back();
  Free.pop_back();
  return E;
}

void DeviceSpans::giveBack(const void *Context, void *Event) {
  if (Event)
    FreeEvents[Context].push_back(Event);
}

long DeviceSpans::begin(const orrery_site *Site, const void *Stream,
                        double HostNow) {
  std::lock_guard<std::mutex> G(Lock);
  const void *Context = Clock.context();
  if (!Context) {
    ++Untimed;
    return -1;
  }
  auto [Ref, First] = References.try_emplace(Context);
  if (First) {
    // An idle stream's event completes when recorded: device time of the
    // reference is host time HostNow.
    const void *Idle = Clock.idleStream();
    void *E = Idle ? takeEvent(Context) : nullptr;
    if (E && Clock.record(E, Idle)) {
      Ref->second = {E, HostNow};
    } else {
      giveBack(Context, E);
      References.erase(Ref);
      ++Untimed;
      return -1;
    }
  }
  void *Start = takeEvent(Context);
  if (!Start || !Clock.record(Start, Stream)) {
    giveBack(Context, Start);
    ++Untimed;
    return -1;
  }
  long Token = NextToken++;
  Pairs.emplace(Token, Pair{Site, Stream, Context, Start});
  return Token;
}

void DeviceSpans::end(long Token) {
  if (Token < 0)
    return;
  std::lock_guard<std::mutex> G(Lock);
  auto It = Pairs.find(Token);
  if (It == Pairs.end())
    return;
  Pair &P = It->second;
  P.StopEvent = takeEvent(P.Context);
  if (!P.StopEvent || !Clock.record(P.StopEvent, P.Stream)) {
    giveBack(P.Context, P.StartEvent);
    giveBack(P.Context, P.StopEvent);
    Pairs.erase(It);
    ++Untimed;
    return;
  }
  P.Ended = true;
}

void DeviceSpans::resolve(Pair &P, std::vector<DeviceSpan> &Out) {
  float FromRef = 0, Ms = 0;
  const Reference &Ref = References.at(P.Context);
  if (Clock.elapsedMs(Ref.Event, P.StartEvent, FromRef) &&
      Clock.elapsedMs(P.StartEvent, P.StopEvent, Ms))
    Out.push_back({P.Site, P.Stream, Ref.Host + FromRef * 1e-3, Ms * 1e-3});
  else
    ++Untimed;
  giveBack(P.Context, P.StartEvent);
  giveBack(P.Context, P.StopEvent);
}

void DeviceSpans::resolveLocked(bool Wait, std::vector<DeviceSpan> &Out) {
  // (context, stream) pairs with work still running: their later pairs wait.
  std::set<std::pair<const void *, const void *>> Busy;
  for (auto It = Pairs.begin(); It != Pairs.end();) {
    Pair &P = It->second;
    std::pair<const void *, const void *> Stream{P.Context, P.Stream};
    if (!P.Ended || Busy.count(Stream)) {
      Busy.insert(Stream);
      ++It;
      continue;
    }
    EventClock::State S =
        Wait ? (Clock.wait(P.StopEvent) ? EventClock::State::Done
                                        : EventClock::State::Failed)
             : Clock.query(P.StopEvent);
    if (S == EventClock::State::Pending) {
      Busy.insert(Stream);
      ++It;
      continue;
    }
    if (S == EventClock::State::Done) {
      resolve(P, Out);
    } else {
      ++Untimed;
      giveBack(P.Context, P.StartEvent);
      giveBack(P.Context, P.StopEvent);
    }
    It = Pairs.erase(It);
  }
}

void DeviceSpans::poll(std::vector<DeviceSpan> &Out) {
  std::lock_guard<std::mutex> G(Lock);
  resolveLocked(/*Wait=*/false, Out);
}

void DeviceSpans::drain(std::vector<DeviceSpan> &Out) {
  std::lock_guard<std::mutex> G(Lock);
  resolveLocked(/*Wait=*/true, Out);
  // Calls that never ended (the program exited inside one) are not timed.
  Untimed += Pairs.size();
  Pairs.clear();
}

size_t DeviceSpans::pending() const {
  std::lock_guard<std::mutex> G(Lock);
  return Pairs.size();
}

unsigned long long DeviceSpans::untimed() const {
  std::lock_guard<std::mutex> G(Lock);
  return Untimed;
}

} // namespace orrery::native
