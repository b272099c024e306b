// DriverClock: the clock and timers the scheduler's driver runs on — the engine's in
// simulation (sim/simulator.cc), asio's steady timers in live mode (master/), a hand-stepped
// one in tests. Each timed call is followed by the step's settling (decisions, then the
// network policy), as after any other event.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "api/units.h"

namespace slotflow {

class DriverClock {
 public:
  virtual ~DriverClock() = default;

  virtual Seconds now() const = 0;
  // Calls fire(i) at times[i] for every i; calls due at one time run in index order.
  virtual void AtEach(std::vector<Seconds> times, std::function<void(int64_t)> fire) = 0;
  // Calls fire() at origin + k·interval (k = 0, 1, …; not by repeated addition, so it does not
  // drift), setting the next call after each while more() holds.
  virtual void Every(Seconds origin, Seconds interval, std::function<void()> fire,
                     std::function<bool()> more) = 0;
};

}  // namespace slotflow
