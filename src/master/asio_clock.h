// AsioClock: live mode's DriverClock (sim/driver_clock.h), the scheduler driver's timed calls
// on an asio steady timer, from the wall clock since the run started. The simulator's is
// EngineClock (sim/engine_clock.h), on the engine's events, and this one keeps the engine's
// order (engine/engine.h): the calls wait in one queue by time, then in the order they were set
// (a series' next call is set after its call runs), and the timer waits for the first. When it
// fires, the calls due by the wall clock run a time at a time, each time's calls followed by
// one settling of the step, as the engine's loop does; so the order of the calls and settles
// does not depend on how late the timer fires, only the time they see does.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

#include "api/units.h"
#include "sim/driver_clock.h"

namespace slotflow {

class AsioClock final : public DriverClock {
 public:
  using WallClock = std::chrono::steady_clock;

  // The timer runs on `io`; `settle` is the step after each time's calls (the master's
  // decisions, network policy and messages).
  AsioClock(asio::io_context& io, std::function<void()> settle);

  // The run's time 0 is `start`; calls wait for their times from it, those set before it too.
  void Start(WallClock::time_point start);
  WallClock::time_point start() const { return start_; }

  // The time of the event being handled, read once per event (Advance) so that all it causes
  // happens at one instant, as in the simulator; 0 before the start.
  Seconds now() const override { return now_; }
  // Reads the wall clock: now() becomes the time since the start, never going back.
  void Advance();

  void AtEach(std::vector<Seconds> times, std::function<void(int64_t)> fire) override;
  void Every(Seconds origin, Seconds interval, std::function<void()> fire,
             std::function<bool()> more) override;

  // Cancels the timer: no call is made, and nothing settled, from now on (the run ended).
  void Stop();

 private:
  // A call waiting: series' fire(index) at `time`, the seq-th call set.
  struct Call {
    Seconds time;
    uint64_t seq;
    int32_t series;
    int64_t index;
    bool operator>(const Call& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  // What AtEach (fire) or Every (beat, more; the index is the beat number) set.
  struct Series {
    std::function<void(int64_t)> fire;
    std::function<void()> beat;
    std::function<bool()> more;
    Seconds origin = 0, interval = 0;
  };
  void Set(Seconds time, int32_t series, int64_t index);
  // Sets the timer for the first call waiting, if it is not set for it already.
  void Arm();
  // The timer fired: runs the calls due, a time at a time, settling after each.
  void Fire();

  asio::io_context& io_;
  asio::steady_timer timer_;
  std::function<void()> settle_;
  WallClock::time_point start_;
  bool started_ = false, stopped_ = false;
  Seconds now_ = 0;
  std::deque<Series> series_;  // a deque: a call may set a series while its own is read
  std::priority_queue<Call, std::vector<Call>, std::greater<>> queue_;
  uint64_t next_seq_ = 0;
  bool armed_ = false;  // the timer waits for armed_for_
  Seconds armed_for_ = 0;
};

}  // namespace slotflow
