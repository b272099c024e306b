#include "workload/synthetic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

bool SameJobs(const Workload& a, const Workload& b) {
  if (a.jobs.size() != b.jobs.size()) return false;
  for (size_t j = 0; j < a.jobs.size(); ++j) {
    const JobSpec& x = a.jobs[j];
    const JobSpec& y = b.jobs[j];
    if (x.name != y.name || x.submit != y.submit || x.stages.size() != y.stages.size())
      return false;
    for (size_t s = 0; s < x.stages.size(); ++s) {
      if (x.stages[s].parents != y.stages[s].parents) return false;
      if (x.stages[s].tasks.size() != y.stages[s].tasks.size()) return false;
      for (size_t t = 0; t < x.stages[s].tasks.size(); ++t) {
        if (x.stages[s].tasks[t].input != y.stages[s].tasks[t].input) return false;
      }
    }
  }
  return true;
}

TEST(Synthetic, SameSeedSameJobsOtherSeedOtherJobs) {
  const Workload a = GenerateSynthetic({.jobs = 300, .seed = 7});
  const Workload b = GenerateSynthetic({.jobs = 300, .seed = 7});
  const Workload c = GenerateSynthetic({.jobs = 300, .seed = 8});
  EXPECT_TRUE(SameJobs(a, b));
  EXPECT_FALSE(SameJobs(a, c));
}

// mt19937_64 is fully specified and the conversions are our own, so the task counts of a
// seed are the same on every platform.
TEST(Synthetic, FirstJobsOfSeedOneArePinned) {
  const Workload w = GenerateSynthetic({.jobs = 6, .seed = 1});
  ASSERT_EQ(w.jobs.size(), 6u);
  std::vector<std::pair<size_t, size_t>> shapes;
  for (const JobSpec& job : w.jobs) {
    shapes.emplace_back(job.stages[0].tasks.size(), job.stages[1].tasks.size());
  }
  const std::vector<std::pair<size_t, size_t>> expected{{1, 3}, {3, 4}, {2, 5},
                                                        {1, 1}, {4, 2}, {5, 2}};
  EXPECT_EQ(shapes, expected);
}

TEST(Synthetic, JobsAreMapReduceWithNamesAndPoissonArrivals) {
  const SyntheticOptions options{.jobs = 2000, .mean_interarrival_s = 2.0, .seed = 3};
  const Workload w = GenerateSynthetic(options);
  ASSERT_EQ(w.jobs.size(), 2000u);
  EXPECT_EQ(w.jobs[0].name, "job-1");
  EXPECT_EQ(w.jobs[1999].name, "job-2000");
  EXPECT_DOUBLE_EQ(w.jobs[0].submit, 0);
  for (size_t j = 1; j < w.jobs.size(); ++j) EXPECT_LE(w.jobs[j - 1].submit, w.jobs[j].submit);
  const double mean_gap = w.jobs.back().submit / 1999;
  EXPECT_NEAR(mean_gap, 2.0, 0.15);  // 2000 exponential gaps: standard error ~0.045
  for (const JobSpec& job : w.jobs) {
    ASSERT_EQ(job.stages.size(), 2u);
    EXPECT_TRUE(job.stages[0].parents.empty());
    EXPECT_EQ(job.stages[1].parents, std::vector<int>{0});
    std::vector<Bytes> reduce_input;
    for (const TaskSpec& r : job.stages[1].tasks) reduce_input.push_back(r.input);
    const Bytes per_map =
        MapInputPerTask(std::nullopt, reduce_input, static_cast<int>(job.stages[0].tasks.size()));
    for (const TaskSpec& m : job.stages[0].tasks) EXPECT_DOUBLE_EQ(m.input, per_map);
  }
  EXPECT_NO_THROW(w.Validate(1));
}

TEST(Synthetic, ClassMixMatchesTheTrace) {
  const Workload w = GenerateSynthetic({.jobs = 2000, .seed = 11});
  std::array<int, 4> count{};  // narrow&short, narrow&long, wide&short, wide&long
  for (const JobSpec& job : w.jobs) {
    const size_t maps = job.stages[0].tasks.size();
    const size_t reduces = job.stages[1].tasks.size();
    const bool narrow = maps <= 5;
    // Narrow 1..5, wide 6..50 on both sides (ours, see synthetic.cc).
    if (narrow) {
      EXPECT_GE(maps, 1u);
      EXPECT_LE(reduces, 5u);
    } else {
      EXPECT_LE(maps, 50u);
      EXPECT_GE(reduces, 6u);
      EXPECT_LE(reduces, 50u);
    }
    Bytes smallest = 1e300, largest = 0;
    for (const TaskSpec& r : job.stages[1].tasks) {
      smallest = std::min(smallest, r.input);
      largest = std::max(largest, r.input);
    }
    const bool is_short = largest <= 10 * kMiB;
    if (is_short) {
      EXPECT_GE(smallest, 1 * kMiB);
    } else {
      EXPECT_GE(smallest, 10 * kMiB);
      EXPECT_LE(largest, 1000 * kMiB);
    }
    ++count[(narrow ? 0 : 2) + (is_short ? 0 : 1)];
  }
  const std::array<double, 4> expected{0.41, 0.29, 0.09, 0.21};
  for (size_t c = 0; c < 4; ++c) {
    EXPECT_NEAR(count[c] / 2000.0, expected[c], 0.035) << "class " << c;
  }
}

TEST(Synthetic, TrafficScaleAndMapRatioScaleBytesOnly) {
  const Workload base = GenerateSynthetic({.jobs = 50, .seed = 5, .map_input_ratio = 1.0});
  const Workload scaled =
      GenerateSynthetic({.jobs = 50, .seed = 5, .traffic_scale = 2.0, .map_input_ratio = 0.5});
  // Balanced map inputs are linear in the bytes: double the traffic, double the map input.
  const Workload balanced = GenerateSynthetic({.jobs = 50, .seed = 5});
  const Workload balanced2 = GenerateSynthetic({.jobs = 50, .seed = 5, .traffic_scale = 2.0});
  for (size_t j = 0; j < balanced.jobs.size(); ++j) {
    EXPECT_DOUBLE_EQ(balanced2.jobs[j].stages[0].tasks[0].input,
                     2 * balanced.jobs[j].stages[0].tasks[0].input);
  }
  ASSERT_EQ(base.jobs.size(), scaled.jobs.size());
  for (size_t j = 0; j < base.jobs.size(); ++j) {
    EXPECT_EQ(base.jobs[j].submit, scaled.jobs[j].submit);
    const auto& b = base.jobs[j].stages;
    const auto& s = scaled.jobs[j].stages;
    ASSERT_EQ(b[1].tasks.size(), s[1].tasks.size());
    for (size_t t = 0; t < b[1].tasks.size(); ++t) {
      EXPECT_DOUBLE_EQ(s[1].tasks[t].input, 2 * b[1].tasks[t].input);
    }
    // Map input: ratio 0.5 of a doubled shuffle equals the base map input.
    EXPECT_DOUBLE_EQ(s[0].tasks[0].input, b[0].tasks[0].input);
  }
}

TEST(Synthetic, RejectsBadOptions) {
  EXPECT_THROW(GenerateSynthetic({.jobs = -1}), InputError);
  EXPECT_THROW(GenerateSynthetic({.mean_interarrival_s = -2}), InputError);
  EXPECT_THROW(GenerateSynthetic({.traffic_scale = -1}), InputError);
  EXPECT_THROW(GenerateSynthetic({.map_input_ratio = std::numeric_limits<double>::infinity()}),
               InputError);
  EXPECT_TRUE(GenerateSynthetic({.jobs = 0}).jobs.empty());
}

}  // namespace
}  // namespace slotflow
