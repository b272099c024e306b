// ThresholdWatch: exact next crossing among watched items, examining only those whose lower
// bound (gap / max_rate) falls before the horizon.
#include "network/policy_helpers/threshold_watch.h"

#include <gtest/gtest.h>

#include <vector>

namespace slotflow {
namespace {

// Items move linearly: sent(t) = sent0 + rate · (t − t0); max_rate is each item's cap.
struct FakeItems {
  std::vector<ThresholdWatch::Progress> at_t0;
  Seconds t0 = 0;
  Seconds now = 0;
  ThresholdWatch::Progress operator()(int32_t id) const {
    ThresholdWatch::Progress p = at_t0[id];
    p.sent += p.rate * (now - t0);
    return p;
  }
};

TEST(ThresholdWatch, NextTimeIsTheEarliestCrossingAtCurrentRates) {
  ThresholdWatch w;
  FakeItems items;
  items.at_t0 = {{.sent = 0, .rate = 1, .max_rate = 4},   // mark 8: crosses at 8
                 {.sent = 2, .rate = 2, .max_rate = 4},   // mark 8: crosses at 3
                 {.sent = 0, .rate = 0, .max_rate = 4}};  // mark 1: never at rate 0
  w.Watch(0, 8, 1e-9, 0);
  w.Watch(1, 8, 1e-9, 0);
  w.Watch(2, 1, 1e-9, 0);
  EXPECT_DOUBLE_EQ(w.NextTime(0, kForever, items), 3);
  // Nothing is reached before 3; at 3 only item 1 is, and it is no longer watched.
  std::vector<int32_t> reached;
  items.now = 2.5;
  w.TakeReached(2.5, items, reached);
  EXPECT_TRUE(reached.empty());
  items.now = 3;
  w.TakeReached(3, items, reached);
  EXPECT_EQ(reached, std::vector<int32_t>{1});
  EXPECT_FALSE(w.Watched(1));
  EXPECT_TRUE(w.Watched(0));
  EXPECT_DOUBLE_EQ(w.NextTime(3, kForever, items), 8);
}

TEST(ThresholdWatch, ItemsThatCannotCrossBeforeTheHorizonAreNotExamined) {
  ThresholdWatch w;
  FakeItems items;
  // Item 0 is 100 bytes from its mark at max rate 1: it cannot cross before t = 100.
  items.at_t0 = {{.sent = 0, .rate = 1, .max_rate = 1}, {.sent = 0, .rate = 1, .max_rate = 1}};
  w.Watch(0, 100, 1e-9, 0);
  w.Watch(1, 5, 1e-9, 0);
  EXPECT_DOUBLE_EQ(w.NextTime(0, 10, items), 5);
  EXPECT_EQ(w.examined(), 2);  // the first look reads both ('earliest' 0 was only a guess)
  EXPECT_DOUBLE_EQ(w.NextTime(0, 10, items), 5);
  EXPECT_EQ(w.examined(), 3);  // now item 0's bound is 100, past the horizon: item 1 only
  // Beyond the horizon nothing is found, and nothing is read either.
  ThresholdWatch far;
  far.Watch(0, 100, 1e-9, 0);
  EXPECT_GE(far.NextTime(0, 10, items), 10);
  EXPECT_EQ(far.examined(), 1);  // its first look sets its bound (earliest = 0 was a guess)
  EXPECT_GE(far.NextTime(1, 11, items), 11);
  EXPECT_EQ(far.examined(), 1);  // bound 100 > horizon: skipped unread
  items.now = 1;
  EXPECT_DOUBLE_EQ(far.NextTime(1, kForever, items), 100);
  EXPECT_EQ(far.examined(), 2);
}

TEST(ThresholdWatch, WithinToleranceCountsAsReachedNow) {
  ThresholdWatch w;
  FakeItems items;
  items.at_t0 = {{.sent = 10 - 1e-12, .rate = 1, .max_rate = 1}};
  w.Watch(0, 10, 1e-9, 0);
  EXPECT_DOUBLE_EQ(w.NextTime(0, kForever, items), 0);
  std::vector<int32_t> reached;
  w.TakeReached(0, items, reached);
  EXPECT_EQ(reached, std::vector<int32_t>{0});
}

TEST(ThresholdWatch, ForgetAndRewatchReplaceTheMark) {
  ThresholdWatch w;
  FakeItems items;
  items.at_t0 = {{.sent = 0, .rate = 1, .max_rate = 1}};
  w.Watch(0, 4, 1e-9, 0);
  w.Forget(0);
  EXPECT_EQ(w.NextTime(0, kForever, items), kForever);
  w.Watch(0, 2, 1e-9, 0);
  w.Watch(0, 6, 1e-9, 0);  // the later mark wins; the stale entry for 2 is ignored
  EXPECT_DOUBLE_EQ(w.NextTime(0, kForever, items), 6);
  EXPECT_DOUBLE_EQ(w.Mark(0), 6);
}

TEST(ThresholdWatch, TouchReexaminesAnItemWhoseBoundGrewStale) {
  ThresholdWatch w;
  FakeItems items;
  // Not sending and unable to (max_rate 0): no bound, never examined again...
  items.at_t0 = {{.sent = 0, .rate = 0, .max_rate = 0}};
  w.Watch(0, 3, 1e-9, 0);
  EXPECT_EQ(w.NextTime(0, kForever, items), kForever);
  // ...until the caller says it changed (it gained flows), then its crossing is found.
  items.at_t0 = {{.sent = 0, .rate = 1, .max_rate = 1}};
  EXPECT_EQ(w.NextTime(0, kForever, items), kForever);
  w.Touch(0, 0);
  EXPECT_DOUBLE_EQ(w.NextTime(0, kForever, items), 3);
}

}  // namespace
}  // namespace slotflow
