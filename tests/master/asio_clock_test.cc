// Live mode's clock (AsioClock: asio's steady timers on the wall clock) against the simulator's
// (EngineClock: the engine's events): the same schedule of timed calls fires in the same order,
// calls due at one time in the order they were set, ties included, and the step is settled once
// after each time's calls, as the engine's loop does, whether the timers fire on time or late.
#include "master/asio_clock.h"

#include <gtest/gtest.h>

#include <asio/io_context.hpp>
#include <string>
#include <vector>

#include "common/wall_duration.h"
#include "engine/engine.h"
#include "sim/engine_clock.h"

namespace slotflow {
namespace {

// Times are multiples of 1/64 s, exact in binary, so that calls set for one time tie.
constexpr Seconds kUnit = 1.0 / 64;

// A schedule of timed calls on a clock, and what it saw: each call's name and its time as set,
// "settle" for each step settled, and the clock's time at each call.
struct Schedule {
  explicit Schedule(DriverClock& clock) : clock(clock) {}

  void Call(const std::string& name, Seconds at) {
    calls.push_back(name);
    set_for.push_back(at);
    seen_at.push_back(clock.now());
  }
  void Settle() { calls.push_back("settle"); }

  // Arrivals at 2, 0, 2 and 4 units (the second arrival's call sets two more, "late": one at its
  // own time, one at 5); a tick every 2 units from 0, three times; a beat every unit from 1,
  // four times (more() says no after the fourth, so the fifth is never set); then arrivals at
  // 4, 4 and 3 units, and a series that more() ends after its first call.
  void SetOn() {
    clock.AtEach({2 * kUnit, 0, 2 * kUnit, 4 * kUnit}, [this](int64_t i) {
      Call("a" + std::to_string(i), i == 1 ? 0 : (i == 3 ? 4 : 2) * kUnit);
      if (i == 1) {
        clock.AtEach({0, 5 * kUnit},
                     [this](int64_t j) { Call("late" + std::to_string(j), j * 5 * kUnit); });
      }
    });
    clock.Every(
        0, 2 * kUnit,
        [this] {
          Call("tick" + std::to_string(ticks), ticks * 2 * kUnit);
          ++ticks;
        },
        [this] { return ticks < 3; });
    clock.Every(
        kUnit, kUnit,
        [this] {
          Call("beat" + std::to_string(beats), (beats + 1) * kUnit);
          ++beats;
        },
        [this] { return beats < 4; });
    clock.AtEach({4 * kUnit, 4 * kUnit, 3 * kUnit}, [this](int64_t i) {
      Call("c" + std::to_string(i), i == 2 ? 3 * kUnit : 4 * kUnit);
    });
    clock.Every(
        3 * kUnit, kUnit, [this] { Call("once", 3 * kUnit); }, [] { return false; });
  }

  DriverClock& clock;
  int ticks = 0, beats = 0;
  std::vector<std::string> calls;
  std::vector<Seconds> set_for, seen_at;
};

// The engine's order: by time, then as set (a series' next call is set after its call runs);
// each time's calls, then one settle.
const std::vector<std::string> kEngineOrder = {
    "a1",    "tick0",  "late0", "settle",                      // 0
    "beat0", "settle",                                         // 1
    "a0",    "a2",     "tick1", "beat1",  "settle",            // 2
    "c2",    "once",   "beat2", "settle",                      // 3
    "a3",    "c0",     "c1",    "tick2",  "beat3",  "settle",  // 4
    "late1", "settle"};                                        // 5

TEST(DriverClocks, TheEngineClockFiresASchedule) {
  Engine engine;
  EngineClock clock(engine);
  Schedule s(clock);
  s.SetOn();
  EXPECT_TRUE(engine.Run({[] { return kForever; }, [](Seconds) {}}, [&] { s.Settle(); }));
  EXPECT_EQ(s.calls, kEngineOrder);
  EXPECT_EQ(s.seen_at, s.set_for);  // simulated time: each call at its own time
}

// The run started `late` before now: with 0 the timers wait for their times; with a second
// every call is overdue as the first timer fires, and the calls still come a time at a time.
void ExpectTheEngineOrderOnAsio(Seconds late) {
  asio::io_context io;
  Schedule* schedule = nullptr;
  AsioClock clock(io, [&] { schedule->Settle(); });
  Schedule s(clock);
  schedule = &s;
  clock.Start(AsioClock::WallClock::now() - WallDuration(late));
  s.SetOn();
  io.run();
  EXPECT_EQ(s.calls, kEngineOrder) << "late " << late;
  // Wall-clock time: never before a call's time, never going back.
  ASSERT_EQ(s.seen_at.size(), s.set_for.size());
  for (size_t i = 0; i < s.seen_at.size(); ++i) {
    EXPECT_GE(s.seen_at[i], s.set_for[i]) << i;
    if (i > 0) {
      EXPECT_GE(s.seen_at[i], s.seen_at[i - 1]) << i;
    }
  }
}

TEST(DriverClocks, TheAsioClockFiresTheScheduleInTheEngineOrder) { ExpectTheEngineOrderOnAsio(0); }

TEST(DriverClocks, TheAsioClockFiresOverdueCallsInTheEngineOrder) { ExpectTheEngineOrderOnAsio(1); }

// Stopped (the run ended), the asio clock makes no call more, and leaves nothing for asio to
// wait for. The engine's port has no such stop: a run ends there when its queue is empty.
TEST(DriverClocks, TheAsioClockMakesNoCallOnceStopped) {
  asio::io_context io;
  std::vector<std::string> calls;
  AsioClock clock(io, [&] { calls.push_back("settle"); });
  clock.Start(AsioClock::WallClock::now());
  clock.AtEach({kUnit, 1000}, [&](int64_t i) {
    calls.push_back("a" + std::to_string(i));
    clock.Stop();
  });
  clock.Every(
      2 * kUnit, kUnit, [&] { calls.push_back("tick"); }, [] { return true; });
  const auto before = AsioClock::WallClock::now();
  io.run();
  EXPECT_EQ(calls, (std::vector<std::string>{"a0"}));
  EXPECT_LT(AsioClock::WallClock::now() - before, WallDuration(10));
}

}  // namespace
}  // namespace slotflow
