// The flows generator (workload/flow_workload.h): the size distributions' points and means, the
// load it targets, the sender each task avoids, determinism and its errors.
#include "workload/flow_workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "api/error.h"

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
  EXPECT_TRUE(std::is_sorted(w.jobs.begin(), w.jobs.end(), [](const JobSpec& a, const JobSpec& b) {
    return a.submit < b.submit;
  }));
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
  auto field_of = [](const FlowWorkloadOptions& o) {
    try {
      GenerateFlowWorkload(o, 4, 1e9);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of({.replicas = 5}), "flow_replicas");  // more than the 4 servers
  EXPECT_EQ(field_of({.senders = 5}), "flow_senders");
  EXPECT_EQ(field_of({.replicas = 2, .senders = 2}), "flow_senders");
  EXPECT_EQ(field_of({.receivers = 2}), "flow_receivers");  // without senders
  EXPECT_EQ(field_of({.compute = FlowCompute::kFixed, .compute_time = -1}), "flow_compute_time");
}

// The workload's tasks and shuffle pairs are counted before any job is made, as every reader
// counts them: settings within their own ranges can still ask for more than a run can hold.
TEST(FlowWorkload, CountsTasksAndPairsBeforeMakingThem) {
  auto error_of = [](const FlowWorkloadOptions& o, int servers) {
    try {
      GenerateFlowWorkload(o, servers, 1e9);
    } catch (const InputError& e) {
      return e.field() + ": " + e.message();
    }
    return std::string("no error");
  };
  // 10^4 senders x 10^4 receivers: 10^8 pairs a flow, past 10^9 at the 10th.
  EXPECT_NE(error_of({.flows = 10'000'000, .senders = 10'000, .receivers = 10'000}, 10'000)
                .find("flow_receivers: 10000 tasks each receiving from 10000 parent tasks"),
            std::string::npos);
  // One task a flow: 10^7 flows are the bound itself, one more task is past it.
  EXPECT_NE(error_of({.flows = 10'000'000, .senders = 2, .receivers = 2}, 4).find("flow_"),
            std::string::npos);
  EXPECT_EQ(GenerateFlowWorkload({.flows = 3, .senders = 2, .receivers = 2}, 4, 1e9).jobs.size(),
            3u);
}

// flow_replicas = 3: each block on 3 distinct servers and no server avoided, so a task may read
// locally. With 1 replica the draws are the plain flows' (the same senders, sizes, arrivals).
TEST(FlowWorkload, ReplicatedBlocksOnDistinctServersAndNothingAvoided) {
  const Workload w = GenerateFlowWorkload({.flows = 300, .replicas = 3}, 6, 6e9);
  for (const JobSpec& j : w.jobs) {
    ASSERT_EQ(j.stages.size(), 1u);
    const std::vector<ServerId>& holders = j.stages[0].replicas.at(0);
    ASSERT_EQ(holders.size(), 3u);
    EXPECT_EQ(std::set<ServerId>(holders.begin(), holders.end()).size(), 3u);
    EXPECT_EQ(j.stages[0].tasks[0].avoid, kNoServer);
  }
  EXPECT_NE(w.source.find("replicas=3"), std::string::npos);
  const Workload plain = GenerateFlowWorkload({.flows = 50}, 6, 6e9);
  const Workload one = GenerateFlowWorkload({.flows = 50, .replicas = 1}, 6, 6e9);
  for (size_t i = 0; i < plain.jobs.size(); ++i) {
    EXPECT_EQ(plain.jobs[i].submit, one.jobs[i].submit);
    EXPECT_EQ(plain.jobs[i].stages[0].replicas, one.jobs[i].stages[0].replicas);
    EXPECT_EQ(plain.jobs[i].stages[0].tasks[0].input, one.jobs[i].stages[0].tasks[0].input);
  }
  EXPECT_EQ(plain.source, one.source);
}

// flow_senders = 4, flow_receivers = 2: a finished "send" stage of 4 pinned tasks (nothing to
// compute) on distinct servers, and a "read" stage of 2 tasks, each reading half the size,
// split evenly over the 4 senders.
TEST(FlowWorkload, ManyToOneStagesReadFromEverySender) {
  const Workload w = GenerateFlowWorkload({.flows = 200, .senders = 4, .receivers = 2}, 8, 8e9);
  for (const JobSpec& j : w.jobs) {
    ASSERT_EQ(j.stages.size(), 2u);
    const StageSpec& send = j.stages[0];
    const StageSpec& read = j.stages[1];
    ASSERT_EQ(send.tasks.size(), 4u);
    std::set<ServerId> senders;
    for (size_t k = 0; k < send.tasks.size(); ++k) {
      EXPECT_EQ(send.tasks[k].compute, 0);
      EXPECT_EQ(send.tasks[k].input, 0);
      EXPECT_EQ(send.replicas.at(k), std::vector<ServerId>{send.tasks[k].pinned});
      senders.insert(send.tasks[k].pinned);
    }
    EXPECT_EQ(senders.size(), 4u);
    EXPECT_EQ(read.parents, std::vector<int>{0});
    ASSERT_EQ(read.tasks.size(), 2u);
    EXPECT_EQ(read.tasks[0].input, read.tasks[1].input);
    EXPECT_GE(read.tasks[0].input, 1);
    EXPECT_EQ(read.tasks[0].avoid, kNoServer);
  }
  EXPECT_NO_THROW(w.Validate(8));
}

// flow_compute: the reading task computes nothing, a fixed time, or its input at the slot rate
// (TaskSpec::compute < 0).
TEST(FlowWorkload, ComputeIsNoneFixedOrProportional) {
  auto compute_of = [](FlowCompute c) {
    return GenerateFlowWorkload({.flows = 1, .compute = c, .compute_time = 0.25}, 4, 4e9)
        .jobs[0]
        .stages[0]
        .tasks[0]
        .compute;
  };
  EXPECT_EQ(compute_of(FlowCompute::kNone), 0);
  EXPECT_EQ(compute_of(FlowCompute::kFixed), 0.25);
  EXPECT_LT(compute_of(FlowCompute::kProportional), 0);
}

}  // namespace
}  // namespace slotflow
