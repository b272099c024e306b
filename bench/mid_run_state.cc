#include "mid_run_state.h"

#include <algorithm>
#include <vector>

#include "api/network_policy.h"
#include "api/random.h"

namespace slotflow {
namespace {

constexpr int kJobs = 40;
constexpr int kTargetFlows = 4000;
constexpr double kFreeSlotFraction = 0.1;

ServerId RandomFreeServer(const SimState& state, Rng& rng) {
  const auto& free = state.servers_with_free_slots();
  return free[static_cast<size_t>(rng.UniformInt(static_cast<int64_t>(free.size())))];
}

// Prefers a replica holder with a free slot (a local read, as any locality-aware scheduler
// would mostly achieve); otherwise any free server, which starts a remote block read.
ServerId MapServer(const SimState& state, TaskId t, Rng& rng) {
  for (ServerId r : state.task(t).replicas) {
    if (state.server(r).free_slots > 0) return r;
  }
  return RandomFreeServer(state, rng);
}

}  // namespace

Bench::Bench(const ClusterSpec& spec)
    : cluster(spec),
      net(cluster, NetworkPolicyRegistry::Get().Make("fair"), engine.clock()),
      state(cluster, net),
      life(cluster, net, engine, state) {}

std::unique_ptr<Bench> MakeBench(int servers, bool l0_reducing) {
  ClusterSpec spec;
  spec.classes = {ServerClass{.count = servers, .slots = 4}};
  auto b = std::make_unique<Bench>(spec);
  Rng rng(42);
  const int keep_free = std::max(1, static_cast<int>(kFreeSlotFraction * 4 * servers));

  // Jobs: even ones are still mapping, odd ones shuffling. Job 0 or 1 gets the smallest
  // estimate, so it is L0 under SJF; the others follow in a random order.
  std::vector<JobIndex> mapping, shuffling;
  JobIndex l0{-1};
  for (int k = 0; k < kJobs; ++k) {
    // About twice as many map tasks among the mapping jobs as there are slots, so that they
    // fill the cluster and still have tasks waiting.
    const int maps = 4 + static_cast<int>(rng.UniformInt(4 * servers / 5));
    std::vector<Bytes> reduces(2 + rng.UniformInt(29));
    for (Bytes& r : reduces) r = rng.Uniform(1e6, 1e9);
    JobSpec job = MakeMapReduceJob("j", 0, maps, 64 * kMiB, reduces);
    const bool smallest = k == (l0_reducing ? 1 : 0);
    job.size_estimate = smallest ? 1 : 2 + rng.Uniform();
    b->specs.push_back(std::move(job));
    const JobIndex j = b->life.AddJob(b->specs.back(), &rng);
    if (smallest) l0 = j;
    b->life.Arrive(j);
    (k % 2 == 0 ? mapping : shuffling).push_back(j);
  }

  // Shuffling jobs: every map ran on a holder of its block and finished (a remote read would
  // leave it fetching for good), so their outputs are spread over the cluster and the reduce
  // tasks are ready.
  for (JobIndex j : shuffling) {
    const StageRuntime& maps = b->state.job(j).stages[0];
    for (TaskId t = maps.first_task; t < maps.first_task + maps.task_count; ++t) {
      b->life.Place(t, b->state.task(t).replicas.front());
      b->life.OnComputeDone(t);
    }
  }
  // Some reduce tasks fetch (one flow per source server), until there are enough flows; the
  // L0 job keeps all of its reduce tasks ready.
  while (b->net.active_flows().size() < kTargetFlows) {
    bool placed = false;
    for (JobIndex j : shuffling) {
      if (j == l0) continue;
      const auto& ready = b->state.job(j).ready;
      if (ready.size() <= 1 || b->state.free_slots() <= keep_free) continue;
      b->life.Place(ready.front(), RandomFreeServer(b->state, rng));
      placed = true;
      if (b->net.active_flows().size() >= kTargetFlows) break;
    }
    if (!placed) break;
  }
  // Mapping jobs: maps start round-robin until a tenth of the slots is left, each job keeping
  // at least one ready.
  for (bool placed = true; placed;) {
    placed = false;
    for (JobIndex j : mapping) {
      const auto& ready = b->state.job(j).ready;
      if (ready.size() <= 1 || b->state.free_slots() <= keep_free) continue;
      const TaskId t = ready.front();
      b->life.Place(t, MapServer(b->state, t, rng));
      placed = true;
    }
  }
  b->net.Resolve();
  return b;
}

}  // namespace slotflow
