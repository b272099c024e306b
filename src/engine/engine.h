// Engine: the clock and the one event loop (time jumps from event to event). Timed
// events — job arrivals, compute completions, heartbeats, ticks — sit on one queue with
// deterministic ties; a continuous process (the fluid network) reports when its own next event
// is due and is advanced to each step's time before the step's events are handled.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "api/units.h"
#include "engine/event_queue.h"

namespace slotflow {

// The simulated time. Only the Engine moves it; everything else reads it.
class Clock {
 public:
  Seconds now() const { return now_; }

 private:
  friend class Engine;
  Seconds now_ = 0;
};

// What the loop interleaves with the timed events.
struct ContinuousProcess {
  std::function<Seconds()> next_event_time;  // absolute; kForever when none
  std::function<void(Seconds)> advance_to;   // called with the step's time, never beyond it
};

class Engine {
 public:
  using Handler = std::function<void(int64_t subject)>;
  // Decides, when a periodic event is handled, whether the next one is scheduled.
  using KeepGoing = std::function<bool()>;

  const Clock& clock() const { return clock_; }
  Seconds now() const { return clock_.now_; }

  // Registers a kind of event; returns the id to schedule it with.
  int32_t AddKind(Handler handler);
  // `subject` is passed to the kind's handler. Events at one time run in scheduling order.
  void Schedule(Seconds time, int32_t kind, int64_t subject);
  // A periodic event: `kind` fires with subject k at origin + k·interval (k = 0, 1, ...; not by
  // repeated addition, so beats do not drift), the next one scheduled after each while
  // `keep_going()` holds.
  void SchedulePeriodic(Seconds origin, Seconds interval, int32_t kind, KeepGoing keep_going);

  // Runs until neither the queue nor the process has an event. Each step moves the clock to
  // the earliest event time t, advances the process to t, handles every queued event due at t,
  // then calls `settle` (the decisions and rate changes that follow the step's events).
  // Returns false when it stopped at kMaxSimulatedTime with events still due. Also stops (and
  // returns true) once kMaxIdleSteps steps in a row have had nothing due before that limit
  // but periodic events, none of which scheduled anything: a tick that keeps a run going while
  // nothing else ever happens would otherwise take ~10^13 steps to reach the limit.
  bool Run(const ContinuousProcess& process, const std::function<void()>& settle);
  static constexpr int64_t kMaxIdleSteps = 1'000'000;
  // Steps taken so far (each a distinct event time).
  int64_t steps() const { return steps_; }

 private:
  struct Periodic {
    Seconds origin, interval;
    int32_t kind;
    KeepGoing keep_going;
  };
  void Dispatch(const Event& e);

  Clock clock_;
  EventQueue queue_;
  std::vector<Handler> handlers_;
  std::vector<Periodic> periodic_;  // periodic event kinds carry (index, k) in their subject
  int32_t periodic_kind_ = -1;
  int64_t steps_ = 0;
  int64_t one_shot_pending_ = 0;  // queued events that are not periodic
};

}  // namespace slotflow
