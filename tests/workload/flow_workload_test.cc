// The flows generator (workload/flow_workload.h): the size distributions' points and means, the
// load it targets, the sender each task avoids, determinism and its errors.
#include "workload/flow_workload.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.h"

namespace slotflow {
namespace {

TEST(SizeCdf, MeanOfTheInterpolatedDistribution) {
  // Uniform on [0, 10] then [10, 30] with probability 1/2 each: mean 0.5·5 + 0.5·20.
  const SizeCdf cdf({{0, 0}, {10, 0.5}, {30, 1}});
  EXPECT_DOUBLE_EQ(cdf.Mean(), 12.5);
  // The two distributions of DCTCP / VL2 as empirical-traffic-gen gives them, worked by hand
  // from their points: web search about 1.7 MB, data mining about 12.7 MB.
  EXPECT_NEAR(FlowSizeCdf(FlowSizes::kWebSearch).Mean(), 1'711'250, 1);
  EXPECT_NEAR(FlowSizeCdf(FlowSizes::kDataMining).Mean(), 12'658'198.6, 1);
}

TEST(SizeCdf, SamplesFollowThePoints) {
  Rng rng(7);
  const SizeCdf& cdf = FlowSizeCdf(FlowSizes::kDataMining);
  int below_1100 = 0, below_1e4 = 0, at_most_1e9 = 0;
  const int n = 200'000;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const Bytes s = cdf.Sample(rng);
    ASSERT_GE(s, 1);
    below_1100 += s <= 1100;
    below_1e4 += s <= 1e4;
    at_most_1e9 += s <= 1e9;
    sum += s;
  }
  EXPECT_NEAR(below_1100 / double(n), 0.5, 0.005);
  EXPECT_NEAR(below_1e4 / double(n), 0.8, 0.005);
  EXPECT_EQ(at_most_1e9, n);
  EXPECT_NEAR(sum / n / cdf.Mean(), 1, 0.05);  // the heavy tail makes the sample mean noisy
}

TEST(FlowWorkload, ArrivalsMatchTheTargetLoad) {
  // 160 servers at 125 MB/s, load 0.5: λ = 0.5 · 20 GB/s / mean size.
  FlowWorkloadOptions o{.sizes = FlowSizes::kWebSearch, .load = 0.5, .flows = 50'000, .seed = 3};
  const Workload w = GenerateFlowWorkload(o, 160, 160 * 125e6);
  ASSERT_EQ(w.jobs.size(), 50'000u);
  const double lambda = 0.5 * 160 * 125e6 / FlowSizeCdf(FlowSizes::kWebSearch).Mean();
  const double span = w.jobs.back().submit - w.jobs.front().submit;
  EXPECT_NEAR((w.jobs.size() - 1) / span / lambda, 1, 0.02);
  EXPECT_EQ(w.jobs.front().submit, 0);
  EXPECT_TRUE(std::is_sorted(w.jobs.begin(), w.jobs.end(),
                             [](const JobSpec& a, const JobSpec& b) { return a.submit < b.submit; }));
}

TEST(FlowWorkload, EachFlowIsOneTaskThatAvoidsItsSender) {
  const Workload w = GenerateFlowWorkload({.flows = 500}, 4, 4 * 125e6);
  std::vector<int> senders(4, 0);
  for (const JobSpec& j : w.jobs) {
    ASSERT_EQ(j.stages.size(), 1u);
    ASSERT_EQ(j.stages[0].tasks.size(), 1u);
    const TaskSpec& t = j.stages[0].tasks[0];
    ASSERT_EQ(j.stages[0].replicas.size(), 1u);
    ASSERT_EQ(j.stages[0].replicas[0].size(), 1u);
    EXPECT_EQ(t.avoid, j.stages[0].replicas[0][0]);
    EXPECT_EQ(t.compute, 0);
    ++senders[t.avoid];
  }
  for (int n : senders) EXPECT_GT(n, 80);  // uniform senders: about 125 each
  EXPECT_NO_THROW(w.Validate(4));
}

TEST(FlowWorkload, SameSeedSameFlows) {
  const Workload a = GenerateFlowWorkload({.seed = 5}, 10, 1e9);
  const Workload b = GenerateFlowWorkload({.seed = 5}, 10, 1e9);
  const Workload c = GenerateFlowWorkload({.seed = 6}, 10, 1e9);
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  bool differs = false;
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].submit, b.jobs[i].submit);
    EXPECT_EQ(a.jobs[i].stages[0].tasks[0].input, b.jobs[i].stages[0].tasks[0].input);
    differs = differs || a.jobs[i].stages[0].tasks[0].input != c.jobs[i].stages[0].tasks[0].input;
  }
  EXPECT_TRUE(differs);
}

TEST(FlowWorkload, RejectsBadOptions) {
  EXPECT_THROW(GenerateFlowWorkload({.load = 0}, 4, 1e9), InputError);
  EXPECT_THROW(GenerateFlowWorkload({.load = 1.01}, 4, 1e9), InputError);
  EXPECT_THROW(GenerateFlowWorkload({.flows = 0}, 4, 1e9), InputError);
  EXPECT_THROW(GenerateFlowWorkload({}, 1, 1e9), InputError);
  EXPECT_THROW(ParseFlowSizes("video", "flow_sizes"), InputError);
}

}  // namespace
}  // namespace slotflow
