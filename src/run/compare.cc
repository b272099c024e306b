#include "run/compare.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "run/execute.h"
#include "run/parallel.h"
#include "run/progress.h"

namespace slotflow {
namespace {

template <class Registry>
void FitList(std::vector<SettingAssignment>& list, const std::string& policy,
             const std::vector<std::string>& all_policies) {
  auto declares = [](const std::string& name, const std::string& key) {
    if (!Registry::Get().Has(name)) return true;  // the unknown name is reported later
    for (const SettingSpec& s : Registry::Get().Find(name, "").settings) {
      if (s.name == key) return true;
    }
    return false;
  };
  std::erase_if(list, [&](const SettingAssignment& a) {
    if (declares(policy, a.key)) return false;
    for (const std::string& other : all_policies) {
      if (declares(other, a.key)) return true;
    }
    return false;
  });
}

}  // namespace

void FitSettings(std::vector<CompareEntry>& entries) {
  std::vector<std::string> schedulers, networks;
  for (const CompareEntry& e : entries) {
    schedulers.push_back(e.spec.scheduler);
    networks.push_back(e.spec.network);
  }
  for (CompareEntry& e : entries) {
    FitList<TaskSchedulerRegistry>(e.spec.scheduler_settings, e.spec.scheduler, schedulers);
    FitList<NetworkPolicyRegistry>(e.spec.network_settings, e.spec.network, networks);
  }
}

std::vector<RunResult> RunBatch(const std::vector<BatchRun>& batch, int threads, bool quiet) {
  std::vector<RunResult> results(batch.size());
  RunProgress progress("compare", batch.size(), !quiet);
  ParallelFor(batch.size(), threads, [&](size_t i) {
    results[i] = Execute(*batch[i].spec, *batch[i].run);
    progress.Done();
  });
  return results;
}

Comparison PrepareComparison(const RunSpec& base, std::vector<CompareEntry> entries,
                             std::vector<uint64_t> seeds) {
  Comparison c{std::move(entries), std::move(seeds), {}, WorkloadDependsOnSeed(base), {}};
  // The embedded workload is generated from the seed; a trace or job file is read once.
  for (uint64_t seed : c.seeds) {
    if (!c.prepared.empty() && !c.per_seed) break;
    RunSpec s = base;
    s.simulation.seed = seed;
    c.prepared.push_back(Prepare(s));
  }
  return c;
}

void RunComparison(Comparison& c, int threads, bool quiet) {
  std::deque<RunSpec> specs;
  std::vector<BatchRun> batch;
  for (const CompareEntry& e : c.entries) {
    for (size_t k = 0; k < c.seeds.size(); ++k) {
      specs.push_back(e.spec);
      specs.back().simulation.seed = c.seeds[k];
      batch.push_back({&specs.back(), &c.prepared[c.per_seed ? k : 0]});
    }
  }
  const std::vector<RunResult> flat = RunBatch(batch, threads, quiet);
  c.results.assign(c.entries.size(), {});
  for (size_t i = 0; i < flat.size(); ++i) c.results[i / c.seeds.size()].push_back(flat[i]);
}

std::string ComparedWorkload(const Comparison& c) {
  const PreparedRun& first = c.prepared.front();
  if (c.seeds.size() == 1) return fmt::format("workload {}", first.workload_name);
  const bool over_seeds = c.per_seed && !first.workload_name_over_seeds.empty();
  return fmt::format("workload {}, seeds 1..{}",
                     over_seeds ? first.workload_name_over_seeds : first.workload_name,
                     c.seeds.size());
}

}  // namespace slotflow
