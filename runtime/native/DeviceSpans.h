//===- DeviceSpans.h - Kernels and copies timed on the device -*- C++ -*-===//
//
// On a GPU, liborrery-native times each kernel launch and asynchronous copy
// on its stream: an event recorded on the call's stream just before the call
// and one just after it bracket the work the call enqueued. Recording an
// event never makes the host wait; the pairs are read later, without waiting,
// at the program's own synchronisation points (poll), and the rest once at
// exit (drain). Each pair's start is placed on the host timeline through a
// reference event recorded on an idle stream of the same context when the
// first pair of that context began.
//
// The events come from an EventClock: the CUDA driver in a run
// (CudaEventClock.cpp), a fake clock in the unit tests.
//
//===----------------------------------------------------------------------===//
#ifndef ORRERY_RUNTIME_NATIVE_DEVICESPANS_H
#define ORRERY_RUNTIME_NATIVE_DEVICESPANS_H

#include "orrery/hooks.h"

#include <map>
#include <mutex>
#include <vector>

namespace orrery::native {

/// Device events as the CUDA driver offers them (cuEvent*): opaque handles.
class EventClock {
public:
  enum class State { Done, Pending, Failed };
  virtual ~EventClock();
  /// The context current on the calling thread (events and streams belong to
  /// one), or null when there is none.
  virtual const void *context() = 0;
  /// A new event of the current context, or null.
  virtual void *create() = 0;
  /// A stream of the current context with no work of the program: an event
  /// recorded on it completes at once. Null when none can be made.
  virtual const void *idleStream() = 0;
  virtual bool record(void *Event, const void *Stream) = 0;
  /// Whether the event has completed; never waits.
  virtual State query(void *Event) = 0;
  /// Waits for the event (at exit only); false on failure.
  virtual bool wait(void *Event) = 0;
  /// Milliseconds from \p From to \p To, both completed; false on failure.
  virtual bool elapsedMs(void *From, void *To, float &Ms) = 0;
  virtual void destroy(void *Event) = 0;
};

/// One device span: what a launch or copy of Site did on Stream.
struct DeviceSpan {
  const orrery_site *Site = nullptr;
  const void *Stream = nullptr;
  double Start = 0;    ///< seconds on the host timeline of the caller
  double Duration = 0; ///< seconds
};

class DeviceSpans {
public:
  explicit DeviceSpans(EventClock &Clock) : Clock(Clock) {}
  ~DeviceSpans();
  /// Before an asynchronous call of \p Site on \p Stream, at host time
  /// \p HostNow (seconds): records the start event. Returns the token to
  /// give end(), or -1 when the call cannot be timed (no context, no event).
  long begin(const orrery_site *Site, const void *Stream, double HostNow);
  /// After the call of \p Token returned: records its stop event.
  void end(long Token);
  /// Appends the pairs whose stop event has completed to \p Out, in the
  /// order they began; never waits. A pair still running on a stream holds
  /// back the later pairs of that stream (they cannot be done before it).
  void poll(std::vector<DeviceSpan> &Out);
  /// At exit: waits for every ended pair and appends it to \p Out.
  void drain(std::vector<DeviceSpan> &Out);
  /// Pairs still waiting to be read.
  size_t pending() const;
  /// Calls that could not be timed or whose events failed.
  unsigned long long untimed() const;

private:
  struct Pair {
    const orrery_site *Site;
    const void *Stream;
    const void *Context;
    void *StartEvent, *StopEvent = nullptr;
    bool Ended = false;
  };
  struct Reference {
    void *Event = nullptr;
    double Host = 0; ///< host time at which Event was recorded
  };
  /// An event of \p Context: a freed one, else a new one (null: none).
  void *takeEvent(const void *Context);
  void giveBack(const void *Context, void *Event);
  /// Reads a completed pair into \p Out (or counts it untimed) and frees it.
  void resolve(Pair &P, std::vector<DeviceSpan> &Out);
  void resolveLocked(bool Wait, std::vector<DeviceSpan> &Out);

  EventClock &Clock;
  mutable std::mutex Lock;
  std::map<long, Pair> Pairs; ///< by token: the order calls began
  long NextToken = 0;
  std::map<const void *, Reference> References;           ///< by context
  std::map<const void *, std::vector<void *>> FreeEvents; ///< by context
  unsigned long long Untimed = 0;
};

} // namespace orrery::native

#endif // ORRERY_RUNTIME_NATIVE_DEVICESPANS_H
