// EngineClock: the scheduler driver's clock and timers as events of the engine's loop (each
// timed call is one kind of event), for the simulator and for tests that drive live mode's
// LiveRun in simulated time.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "sim/driver_clock.h"

namespace slotflow {

class EngineClock final : public DriverClock {
 public:
  explicit EngineClock(Engine& engine) : engine_(engine) {}

  Seconds now() const override { return engine_.now(); }
  void AtEach(std::vector<Seconds> times, std::function<void(int64_t)> fire) override {
    const int32_t kind = engine_.AddKind(std::move(fire));
    for (size_t i = 0; i < times.size(); ++i) {
      engine_.Schedule(times[i], kind, static_cast<int64_t>(i));
    }
  }
  void Every(Seconds origin, Seconds interval, std::function<void()> fire,
             std::function<bool()> more) override {
    const int32_t kind = engine_.AddKind([fire = std::move(fire)](int64_t) { fire(); });
    engine_.SchedulePeriodic(origin, interval, kind, std::move(more));
  }

 private:
  Engine& engine_;
};

}  // namespace slotflow
