// The engine: one clock, events in deterministic order, periodic events, and the loop that
// interleaves a continuous process with timed events.
#include "engine/engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace slotflow {
namespace {

const ContinuousProcess kNothing{[] { return kForever; }, [](Seconds) {}};

TEST(Engine, EventsAtOneTimeRunInSchedulingOrderAndTheClockFollows) {
  Engine engine;
  std::vector<std::string> log;
  const int32_t a = engine.AddKind([&](int64_t s) {
    log.push_back("a" + std::to_string(s) + "@" + std::to_string(engine.now()));
  });
  const int32_t b = engine.AddKind([&](int64_t s) {
    log.push_back("b" + std::to_string(s) + "@" + std::to_string(engine.now()));
    if (s == 1) engine.Schedule(engine.now(), a, 9);  // same time: still this step
  });
  engine.Schedule(2, b, 1);
  engine.Schedule(1, a, 1);
  engine.Schedule(2, a, 2);
  int settles = 0;
  engine.Run(kNothing, [&] { ++settles; });
  EXPECT_EQ(log,
            (std::vector<std::string>{"a1@1.000000", "b1@2.000000", "a2@2.000000", "a9@2.000000"}));
  EXPECT_EQ(settles, 2);  // one per distinct time
  EXPECT_EQ(engine.steps(), 2);
}

TEST(Engine, PeriodicEventsFireAtOriginPlusMultiplesUntilToldToStop) {
  Engine engine;
  std::vector<double> beats;
  const int32_t tick = engine.AddKind([&](int64_t k) {
    beats.push_back(engine.now());
    EXPECT_EQ(k, static_cast<int64_t>(beats.size()) - 1);
  });
  engine.SchedulePeriodic(0.5, 0.1, tick, [&] { return beats.size() < 4; });
  engine.Run(kNothing, [] {});
  ASSERT_EQ(beats.size(), 4u);
  EXPECT_DOUBLE_EQ(beats[3], 0.5 + 3 * 0.1);  // not 0.5 + 0.1 + 0.1 + 0.1
}

TEST(Engine, BeatsAloneWithNothingElseDueBeforeTheLimitStopAfterTheIdleBound) {
  // A tick that would keep going to kMaxSimulatedTime (10^12 beats), with nothing else due
  // before then: the run stops after kMaxIdleSteps beats, reporting no time limit hit.
  Engine engine;
  int64_t beats = 0;
  const int32_t tick = engine.AddKind([&](int64_t) { ++beats; });
  engine.SchedulePeriodic(0, 1, tick, [] { return true; });
  const ContinuousProcess stuck{[] { return 1e300; }, [](Seconds) {}};
  EXPECT_TRUE(engine.Run(stuck, [] {}));
  EXPECT_EQ(beats, Engine::kMaxIdleSteps);
}

TEST(Engine, BeatsThatWaitForALaterEventOrScheduleOneAreNotIdle) {
  // Beats for longer than the idle bound while an arrival is still due: the run reaches it.
  Engine engine;
  int64_t beats = 0;
  bool arrived = false;
  const int32_t tick = engine.AddKind([&](int64_t) { ++beats; });
  const int32_t arrive = engine.AddKind([&](int64_t) { arrived = true; });
  engine.SchedulePeriodic(0, 1, tick, [&] { return !arrived; });
  const double arrival = 1.5 * static_cast<double>(Engine::kMaxIdleSteps);
  engine.Schedule(arrival, arrive, 0);
  EXPECT_TRUE(engine.Run(kNothing, [] {}));
  EXPECT_TRUE(arrived);
  EXPECT_EQ(engine.now(), arrival);
  // A beat that schedules work each time keeps the run going past the bound as well.
  Engine busy;
  int64_t done = 0;
  const int32_t work = busy.AddKind([&](int64_t) { ++done; });
  const int32_t beat = busy.AddKind([&](int64_t) { busy.Schedule(busy.now() + 0.5, work, 0); });
  const int64_t want = Engine::kMaxIdleSteps + 10;
  busy.SchedulePeriodic(0, 1, beat, [&] { return done < want; });
  EXPECT_TRUE(busy.Run(kNothing, [] {}));
  EXPECT_GE(done, want);  // every beat's work ran, the last beat's too
}

TEST(Engine, TheProcessIsAdvancedToEachStepBeforeItsEvents) {
  Engine engine;
  std::vector<std::string> log;
  Seconds process_event = 1.5;
  const ContinuousProcess process{[&] { return process_event; },
                                  [&](Seconds t) {
                                    log.push_back("advance " + std::to_string(t));
                                    if (t == process_event) process_event = kForever;
                                  }};
  const int32_t e = engine.AddKind([&](int64_t) { log.push_back("event"); });
  engine.Schedule(1, e, 0);
  engine.Schedule(2, e, 0);
  engine.Run(process, [] {});
  EXPECT_EQ(log, (std::vector<std::string>{"advance 1.000000", "event", "advance 1.500000",
                                           "advance 2.000000", "event"}));
}

}  // namespace
}  // namespace slotflow
