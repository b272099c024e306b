#include "workload/flow_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "api/error.h"

namespace slotflow {
namespace {

constexpr uint64_t kSeedSalt = 0x666c6f7773000000ULL;  // "flows": apart from other generators

}  // namespace

SizeCdf::SizeCdf(std::vector<std::pair<Bytes, double>> points) : points_(std::move(points)) {}

Bytes SizeCdf::Sample(Rng& rng) const {
  const double u = rng.Uniform();
  // The first point whose probability exceeds u; u < 1 = the last probability.
  auto it =
      std::upper_bound(points_.begin(), points_.end(), u,
                       [](double v, const std::pair<Bytes, double>& p) { return v < p.second; });
  it = std::clamp(it, points_.begin() + 1, points_.end() - 1);
  const auto& [x1, c1] = *it;
  const auto& [x0, c0] = *(it - 1);
  const Bytes x = c1 > c0 ? x0 + (u - c0) / (c1 - c0) * (x1 - x0) : x1;
  return std::max<Bytes>(1, std::round(x));
}

Bytes SizeCdf::Mean() const {
  Bytes mean = 0;
  for (size_t i = 1; i < points_.size(); ++i) {
    mean +=
        (points_[i].second - points_[i - 1].second) * (points_[i].first + points_[i - 1].first) / 2;
  }
  return mean;
}

FlowSizes ParseFlowSizes(std::string_view name, std::string_view field) {
  if (name == "websearch") return FlowSizes::kWebSearch;
  if (name == "datamining") return FlowSizes::kDataMining;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown flow sizes '{}' (known: websearch, datamining)", name));
}

std::string_view FlowSizesName(FlowSizes sizes) {
  return sizes == FlowSizes::kWebSearch ? "websearch" : "datamining";
}

const SizeCdf& FlowSizeCdf(FlowSizes sizes) {
  // empirical-traffic-gen's DCTCP_CDF (web search, DCTCP [SIGCOMM'10] Fig. 4).
  static const SizeCdf web_search({{0, 0},
                                   {1e4, 0.15},
                                   {2e4, 0.2},
                                   {3e4, 0.3},
                                   {5e4, 0.4},
                                   {8e4, 0.53},
                                   {2e5, 0.6},
                                   {1e6, 0.7},
                                   {2e6, 0.8},
                                   {5e6, 0.9},
                                   {1e7, 0.97},
                                   {3e7, 1}});
  // empirical-traffic-gen's VL2_CDF (data mining, VL2 [SIGCOMM'09] Fig. 2).
  static const SizeCdf data_mining({{0, 0},
                                    {180, 0.1},
                                    {216, 0.2},
                                    {560, 0.3},
                                    {900, 0.4},
                                    {1100, 0.5},
                                    {1870, 0.6},
                                    {3160, 0.7},
                                    {1e4, 0.8},
                                    {4e5, 0.9},
                                    {3.16e6, 0.95},
                                    {1e8, 0.98},
                                    {1e9, 1}});
  return sizes == FlowSizes::kWebSearch ? web_search : data_mining;
}

namespace {

void SetCompute(TaskSpec& task, const FlowWorkloadOptions& o) {
  switch (o.compute) {
    case FlowCompute::kNone:
      task.compute = 0;
      break;
    case FlowCompute::kFixed:
      task.compute = o.compute_time;
      break;
    case FlowCompute::kProportional:
      task.compute = -1;
      break;  // the input at the slot rate
  }
}

// Refuses settings out of range and combinations the generator does not make.
void CheckFlowOptions(const FlowWorkloadOptions& o, int servers) {
  if (!(o.load > 0 && o.load <= 1)) {
    throw InputError("", 0, "flow_load", fmt::format("must be in (0, 1], got {}", o.load));
  }
  if (o.flows < 1) throw InputError("", 0, "flows", "must be at least 1");
  if (servers < 2) {
    throw InputError("", 0, "flows",
                     "the flows generator needs at least 2 servers (a sender and a receiver)");
  }
  if (o.replicas < 1 || o.replicas > servers) {
    throw InputError("", 0, "flow_replicas",
                     fmt::format("must be in [1, {}] (the servers), got {}", servers, o.replicas));
  }
  if (o.senders < 1 || o.senders > servers) {
    throw InputError("", 0, "flow_senders",
                     fmt::format("must be in [1, {}] (the servers), got {}", servers, o.senders));
  }
  if (o.receivers < 1) throw InputError("", 0, "flow_receivers", "must be at least 1");
  if (o.replicas > 1 && o.senders > 1) {
    throw InputError("", 0, "flow_senders",
                     "flow_replicas and flow_senders cannot both be above 1 (a many-to-one "
                     "stage reads map outputs, not replicated blocks)");
  }
  if (o.receivers > 1 && o.senders == 1) {
    throw InputError("", 0, "flow_receivers", "needs flow_senders above 1 (a many-to-one stage)");
  }
  if (o.compute == FlowCompute::kFixed && !(o.compute_time >= 0)) {
    throw InputError("", 0, "flow_compute_time", "must be at least 0");
  }
}

}  // namespace

Workload GenerateFlowWorkload(const FlowWorkloadOptions& o, int servers, BytesPerSecond total_nic) {
  CheckFlowOptions(o, servers);
  // Counted before any job is made, as every reader counts: a few large settings together
  // would otherwise allocate until memory runs out.
  WorkloadBudget budget;
  for (int n = 1; n <= o.flows; ++n) {
    if (o.senders == 1) {
      budget.AddStage(1, 0, "", 0, "flows");
    } else {
      budget.AddStage(o.senders, 0, "", 0, "flow_senders");
      budget.AddStage(o.receivers, o.senders, "", 0, "flow_receivers");
    }
  }
  const SizeCdf& cdf = FlowSizeCdf(o.sizes);
  const double mean_interarrival = cdf.Mean() / (o.load * total_nic);
  Rng rng(o.seed ^ kSeedSalt);
  Workload w;
  // The name lists only what differs from the plain flows.
  std::string extra;
  if (o.replicas > 1) extra += fmt::format(", replicas={}", o.replicas);
  if (o.senders > 1) extra += fmt::format(", senders={}, receivers={}", o.senders, o.receivers);
  if (o.compute == FlowCompute::kFixed) extra += fmt::format(", compute={}s", o.compute_time);
  if (o.compute == FlowCompute::kProportional) extra += ", compute=proportional";
  w.source = fmt::format("flows({}, load={}, flows={}{}, seed={})", FlowSizesName(o.sizes), o.load,
                         o.flows, extra, o.seed);
  Seconds submit = 0;
  for (int n = 1; n <= o.flows; ++n) {
    JobSpec job;
    job.name = fmt::format("flow-{}", n);
    job.submit = submit;
    if (o.senders == 1) {
      // One reading task. With one replica the draws (sender, size, arrival) are the plain
      // flows' own.
      const std::vector<ServerId> holders = DistinctServers(o.replicas, servers, rng);
      TaskSpec task;
      task.input = cdf.Sample(rng);
      SetCompute(task, o);
      if (o.replicas == 1) task.avoid = holders[0];
      job.stages.push_back(StageSpec{"read", {}, {task}, {holders}});
    } else {
      const std::vector<ServerId> senders = DistinctServers(o.senders, servers, rng);
      const Bytes size = cdf.Sample(rng);
      StageSpec send{"send", {}, {}, {}};
      for (ServerId s : senders) {
        TaskSpec held = {};
        held.compute = 0;
        held.pinned = s;
        send.tasks.push_back(held);
        send.replicas.push_back({s});
      }
      StageSpec read{"read", {0}, {}, {}};
      for (int r = 0; r < o.receivers; ++r) {
        TaskSpec task;
        task.input = std::max<Bytes>(1, std::round(size / o.receivers));
        SetCompute(task, o);
        read.tasks.push_back(task);
      }
      job.stages.push_back(std::move(send));
      job.stages.push_back(std::move(read));
    }
    w.jobs.push_back(std::move(job));
    submit += rng.Exponential(mean_interarrival);
  }
  return w;
}

}  // namespace slotflow
