// AsioClock: live mode's DriverClock (sim/driver_clock.h), the scheduler driver's timed calls
// on asio's steady timers, from the wall clock since the run started. The simulator's is
// EngineClock (sim/engine_clock.h), on the engine's events.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "api/units.h"
#include "sim/driver_clock.h"

namespace slotflow {

class AsioClock final : public DriverClock {
 public:
  using WallClock = std::chrono::steady_clock;

  // Timers run on `io`; each timer's calls are followed by `settle` (the step after an event:
  // the master's decisions, network policy and messages).
  AsioClock(asio::io_context& io, std::function<void()> settle);

  // The run's time 0 is `start`; the timers are set from it.
  void Start(WallClock::time_point start);
  WallClock::time_point start() const { return start_; }

  // The time of the event being handled, read once per event (Advance) so that all it causes
  // happens at one instant, as in the simulator; 0 before the start.
  Seconds now() const override { return now_; }
  // Reads the wall clock: now() becomes the time since the start, never going back.
  void Advance();

  // Calls due at one time run in index order, then the step settles, as in the simulator.
  void AtEach(std::vector<Seconds> times, std::function<void(int64_t)> fire) override;
  // origin + k · interval, the next set after each call while more() holds, as the engine does.
  void Every(Seconds origin, Seconds interval, std::function<void()> fire,
             std::function<bool()> more) override;

  // Cancels every timer: no call is made from now on (the run ended).
  void Stop();

 private:
  asio::io_context& io_;
  std::function<void()> settle_;
  WallClock::time_point start_;
  bool started_ = false, stopped_ = false;
  Seconds now_ = 0;
  std::vector<std::shared_ptr<asio::steady_timer>> timers_;
  std::vector<std::shared_ptr<void>> chains_;  // what re-arms them
};

}  // namespace slotflow
