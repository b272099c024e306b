// The TCDS evaluation's workload (TCDS §3.1, Table 1; workload/tcds_workload.h).
#include "workload/tcds_workload.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

std::string ClassOfJob(const JobSpec& job) { return job.name.substr(0, job.name.rfind('-')); }

// Table 1's counts come out per class, cut into jobs of tasks_per_job (remainder last).
TEST(TcdsWorkload, EachGroupHasTable1sTaskCounts) {
  const std::map<int, std::map<std::string, int>> table1 = {
      {1, {{"very-short", 50}, {"short", 50}, {"long", 10}}},
      {2, {{"very-short", 10}, {"short", 50}, {"long", 50}}},
      {3, {{"very-short", 30}, {"short", 30}, {"long", 30}}},
      {4, {{"very-short", 50}, {"short", 10}, {"long", 10}}},
      {5, {{"very-short", 10}, {"short", 10}, {"long", 50}}}};
  for (const auto& [group, expected] : table1) {
    const Workload w = GenerateTcdsWorkload({.group = group, .seed = 3, .tasks_per_job = 4});
    std::map<std::string, int> tasks, jobs;
    for (const JobSpec& job : w.jobs) {
      ASSERT_EQ(job.stages.size(), 1u);
      EXPECT_TRUE(job.stages[0].parents.empty());
      tasks[ClassOfJob(job)] += static_cast<int>(job.stages[0].tasks.size());
      ++jobs[ClassOfJob(job)];
      EXPECT_LE(job.stages[0].tasks.size(), 4u);
    }
    EXPECT_EQ(tasks, expected) << "group " << group;
    for (const auto& [name, count] : expected) {
      EXPECT_EQ(jobs[name], (count + 3) / 4) << "group " << group << " " << name;
    }
  }
}

// Each class's β (input / 64 MiB) and compute time lie in its range, so eq. (1) with k1 = 0.01
// and k2 = 0.5 classifies every task as its job's name says.
TEST(TcdsWorkload, TasksHaveTheirClasssLengthAndRunTime) {
  struct Range {
    double min_beta, max_beta, min_s, max_s;
  };
  const std::map<std::string, Range> ranges = {{"very-short", {0.001, 0.01, 2, 5}},
                                               {"short", {0.01, 0.5, 15, 25}},
                                               {"long", {0.5, 1.0, 50, 70}}};
  for (int group = 1; group <= 5; ++group) {
    for (const JobSpec& job : GenerateTcdsWorkload({.group = group, .seed = 11}).jobs) {
      const Range& r = ranges.at(ClassOfJob(job));
      for (const TaskSpec& t : job.stages[0].tasks) {
        const double beta = t.input / (64 * kMiB);
        EXPECT_GE(beta, r.min_beta);
        EXPECT_LT(beta, r.max_beta);
        EXPECT_GE(t.compute, r.min_s);
        EXPECT_LE(t.compute, r.max_s);
      }
    }
  }
}

// Arrivals: the first at 0, then non-decreasing, with a mean gap near the option (group 3 has
// 18 jobs; over 50 seeds the mean of 850 gaps is within 10 % of 2 s).
TEST(TcdsWorkload, JobsArriveAsAPoissonProcessFromZero) {
  double gaps = 0;
  int count = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const Workload w = GenerateTcdsWorkload({.group = 3, .seed = seed, .mean_interarrival_s = 2.0});
    ASSERT_EQ(w.jobs.size(), 18u);
    EXPECT_EQ(w.jobs.front().submit, 0);
    for (size_t j = 1; j < w.jobs.size(); ++j) {
      EXPECT_GE(w.jobs[j].submit, w.jobs[j - 1].submit);
      gaps += w.jobs[j].submit - w.jobs[j - 1].submit;
      ++count;
    }
  }
  EXPECT_NEAR(gaps / count, 2.0, 0.2);
}

bool Identical(const Workload& a, const Workload& b) {
  if (a.jobs.size() != b.jobs.size()) return false;
  for (size_t j = 0; j < a.jobs.size(); ++j) {
    const JobSpec& x = a.jobs[j];
    const JobSpec& y = b.jobs[j];
    if (x.name != y.name || x.submit != y.submit) return false;
    const auto& xt = x.stages[0].tasks;
    const auto& yt = y.stages[0].tasks;
    if (xt.size() != yt.size()) return false;
    for (size_t t = 0; t < xt.size(); ++t) {
      if (xt[t].input != yt[t].input || xt[t].compute != yt[t].compute) return false;
    }
  }
  return true;
}

TEST(TcdsWorkload, SameSeedSameJobsOtherSeedOtherJobs) {
  EXPECT_TRUE(Identical(GenerateTcdsWorkload({.group = 2, .seed = 5}),
                        GenerateTcdsWorkload({.group = 2, .seed = 5})));
  EXPECT_FALSE(Identical(GenerateTcdsWorkload({.group = 2, .seed = 5}),
                         GenerateTcdsWorkload({.group = 2, .seed = 6})));
}

TEST(TcdsWorkload, BadOptionsNameTheirField) {
  auto field_of = [](const TcdsWorkloadOptions& o) {
    try {
      GenerateTcdsWorkload(o);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of({.group = 0}), "tcds_group");
  EXPECT_EQ(field_of({.group = 6}), "tcds_group");
  EXPECT_EQ(field_of({.tasks_per_job = 0}), "tcds_tasks_per_job");
  EXPECT_EQ(field_of({.mean_interarrival_s = -1}), "tcds_interarrival");
  EXPECT_EQ(field_of({.mean_interarrival_s = std::numeric_limits<double>::infinity()}),
            "tcds_interarrival");
}

}  // namespace
}  // namespace slotflow
