// Class keys (api/class_key.h): ordered by level, then by key, over the engine's whole time
// range, and what Aalo's classes do with it at times the old 40-bit packing could not hold.
#include "api/class_key.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "engine/engine.h"
#include "network_scenario.h"

namespace slotflow {
namespace {

constexpr Seconds kMax = kMaxSimulatedTime;  // 2^40 s
constexpr Seconds kMicro = 1e-6;

// Strictly increasing.
void ExpectIncreasing(const std::vector<FlowClass>& classes) {
  for (size_t i = 1; i < classes.size(); ++i) {
    EXPECT_LT(classes[i - 1], classes[i]) << "at " << i;
  }
}

TEST(ClassKeys, SixteenLevelsKeepEveryMicrosecondUpTo2To40Seconds) {
  const ClassKeys keys(16, ClassKeys::Key::kTime);
  EXPECT_EQ(keys.level_bits(), 4);
  EXPECT_EQ(keys.key_bits(), 60);
  const Seconds last = std::nextafter(kMax, 0.0);  // the latest time below 2^40 s
  for (int level : {0, 1, 7, 8, 14}) {
    // Inside a level, at both ends of the range; then the next level's earliest.
    ExpectIncreasing({keys.Time(level, 0), keys.Time(level, kMicro), keys.Time(level, 2 * kMicro),
                      keys.Time(level, 13 * 86400.0), keys.Time(level, last),
                      keys.Time(level, kMax), keys.Time(level + 1, 0)});
  }
  EXPECT_EQ(keys.Time(0, 0), std::numeric_limits<FlowClass>::min());
  EXPECT_LT(keys.Time(15, kMax), std::numeric_limits<FlowClass>::max());
  // 1 µs apart at 13 days (past 2^40 µs, where queue << 40 overflowed) and at 2^39 s.
  EXPECT_LT(keys.Time(0, 1123200.0), keys.Time(0, 1123200.0 + kMicro));
  EXPECT_LT(keys.Time(0, 1123200.0), keys.Time(1, 0));
  const Seconds half = kMax / 2;
  EXPECT_LT(keys.Time(3, std::nextafter(half, 0.0)), keys.Time(3, half));
  // Times beyond the engine's range are the range's end; before 0, 0.
  EXPECT_EQ(keys.Time(2, 2 * kMax), keys.Time(2, kMax));
  EXPECT_EQ(keys.Time(2, -1), keys.Time(2, 0));
  // Whole microseconds: within one, the same class.
  EXPECT_EQ(keys.Time(5, 10.0000001), keys.Time(5, 10.0000009));
}

TEST(ClassKeys, MoreLevelsKeepMicrosecondsFarPastAnyRunAndOrderAfterwards) {
  for (int64_t levels : {int64_t{17}, int64_t{64}, int64_t{1} << 16}) {
    const ClassKeys keys(levels, ClassKeys::Key::kTime);
    const int b = keys.level_bits();
    const Seconds exact_until = std::ldexp(1.0, 63 - b) * kMicro;  // 2^(63−b) µs
    EXPECT_GT(exact_until, 4 * 365 * 86400.0) << levels;           // over 4 years
    for (int64_t level : {int64_t{0}, levels / 2, levels - 2}) {
      ExpectIncreasing({keys.Time(level, 0), keys.Time(level, kMicro),
                        keys.Time(level, 13 * 86400.0), keys.Time(level, 13 * 86400.0 + kMicro),
                        keys.Time(level, exact_until - 1), keys.Time(level, exact_until + 1),
                        keys.Time(level, kMax / 2), keys.Time(level, kMax),
                        keys.Time(level + 1, 0)});
      // Past the exact range, times coarsen but never swap.
      FlowClass previous = keys.Time(level, exact_until);
      for (Seconds t = exact_until; t < kMax; t *= 1.37) {
        EXPECT_LE(previous, keys.Time(level, t));
        previous = keys.Time(level, t);
      }
    }
    EXPECT_LT(keys.Time(levels - 1, kMax), std::numeric_limits<FlowClass>::max());
  }
}

TEST(ClassKeys, FewerLevelsStayNonNegative) {
  const ClassKeys keys(8, ClassKeys::Key::kTime);  // 3 + 60 bits
  EXPECT_EQ(keys.Time(0, 0), 0);
  EXPECT_EQ(keys.Time(0, 10.833), 10833000);
  EXPECT_EQ(keys.Time(1, 0), FlowClass{1} << 60);
  ExpectIncreasing({keys.Time(0, kMax), keys.Time(1, 0), keys.Time(7, kMax)});
  EXPECT_EQ(ClassKeys(1, ClassKeys::Key::kTime).Time(0, 10.833), 10833000);
}

TEST(ClassKeys, OneLevelOfSizesIsTheSizeItselfInOrder) {
  const ClassKeys keys(1, ClassKeys::Key::kSize);
  EXPECT_EQ(keys.key_bits(), 63);
  for (double size : {0.0, 0.5, 1.0, 1e6, 1.5e6, 8.9e12, 1e300}) {
    EXPECT_EQ(keys.Size(0, size), std::bit_cast<FlowClass>(size));
  }
  EXPECT_EQ(keys.Size(0, -0.0), keys.Size(0, 0.0));
  ExpectIncreasing({keys.Size(0, 0), keys.Size(0, 1e-9), keys.Size(0, 1000.2), keys.Size(0, 1000.7),
                    keys.Size(0, 1e18)});
  const ClassKeys two(2, ClassKeys::Key::kSize);  // the whole signed range
  ExpectIncreasing({two.Size(0, 0), two.Size(0, 1e300), two.Size(1, 0), two.Size(1, 1e300)});
}

// cans with unlimited queues: the size in whole bytes, then a first-come index among equals.
TEST(ClassKeys, SizeLevelsThenACount) {
  const int64_t levels = int64_t{1} << 47, counts = int64_t{1} << 16;
  const ClassKeys keys(levels, ClassKeys::Key::kCount, counts);
  EXPECT_EQ(keys.key_bits(), 16);
  EXPECT_EQ(keys.Count(2, 1), 2 * counts + 1);
  ExpectIncreasing({keys.Count(0, 0), keys.Count(0, counts - 1), keys.Count(1, 0),
                    keys.Count(levels - 2, counts - 1), keys.Count(levels - 1, 0),
                    keys.Count(levels - 1, counts - 1)});
}

TEST(ClassKeys, WhatDoesNotFitIsAPolicyBug) {
  EXPECT_THROW(ClassKeys(0, ClassKeys::Key::kTime), std::logic_error);
  EXPECT_THROW(ClassKeys(3, ClassKeys::Key::kSize), std::logic_error);  // 2 + 63 bits
  EXPECT_THROW(ClassKeys(int64_t{1} << 48, ClassKeys::Key::kCount, int64_t{1} << 17),
               std::logic_error);
  EXPECT_THROW(ClassKeys(4, ClassKeys::Key::kCount, 0), std::logic_error);
  const ClassKeys keys(10, ClassKeys::Key::kTime);
  EXPECT_THROW(keys.Time(10, 0), std::logic_error);
  EXPECT_THROW(keys.Time(-1, 0), std::logic_error);
  EXPECT_THROW(keys.Size(0, 1), std::logic_error);  // a key of another kind
  const ClassKeys sizes(1, ClassKeys::Key::kSize);
  EXPECT_THROW(sizes.Size(0, -1), std::logic_error);
  EXPECT_THROW(sizes.Size(0, std::nan("")), std::logic_error);
  const ClassKeys counts(4, ClassKeys::Key::kCount, 100);
  EXPECT_THROW(counts.Count(0, 100), std::logic_error);
  EXPECT_THROW(counts.Count(0, -1), std::logic_error);
}

// Aalo: X has sent past the first threshold and sits in queue 1; Y, smaller than that threshold,
// arrives later in queue 0 and goes first however late it arrives. (Queue << 40 plus the
// arrival in µs put Y behind X once Y arrived after 2^40 µs, about 12.7 days.)
TEST(ClassKeys, AaloServesAFreshCoflowFirstLateInTheRange) {
  for (Seconds late : {100.0, 1123200.0 /* 13 days */, kMax / 4}) {
    testing::NetworkScenario s;
    s.policy = "aalo";
    s.config["first_threshold"] = fmt::format("{}", late / 8);
    s.config["multiplier"] = "1e15";  // X stays in queue 1
    const Bytes x = 2 * late, y = late / 16;
    s.coflows = {Coflow{.arrival = 0, .total_bytes = x, .width = 1, .length = x},
                 Coflow{.arrival = late, .total_bytes = y, .width = 1, .length = y}};
    s.flows = {{.start = 0, .src = 0, .dst = 2, .size = x, .coflow = 0},
               {.start = late, .src = 1, .dst = 2, .size = y, .coflow = 1}};
    const auto finish = s.Run();
    const double tolerance = late * 1e-9;
    EXPECT_NEAR(finish[1], late + y, tolerance) << late;
    EXPECT_NEAR(finish[0], x + y, tolerance) << late;
  }
}

}  // namespace
}  // namespace slotflow
