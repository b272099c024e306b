// greedy — the trivial placement (Duopoly §6.2's "(F)"): walk jobs in the configured order
// and give the first ready task any free slot. A task that reads an input block takes a slot
// on a replica holder when one is free (local read); otherwise a random free slot. Never
// leaves a slot empty while a task is ready.
#include "api/job_order.h"
#include "api/random.h"
#include "api/task_scheduler.h"

namespace slotflow {
namespace {

// Mixed into the run's seed so this scheduler's random choices do not repeat the draws the
// simulator makes from the same seed (block replicas): "greedy" in ASCII.
constexpr uint64_t kSeedSalt = 0x6772656564790000ULL;

class GreedyScheduler : public TaskScheduler {
 public:
  explicit GreedyScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)), rng_(args.seed ^ kSeedSalt) {}

  Decision Next(const SimState& state) override {
    const auto& free = state.servers_with_free_slots();
    if (free.empty()) return {};
    OrderJobs(state, order_, jobs_);
    for (JobIndex j : jobs_) {
      const auto& ready = state.job(j).ready;
      if (ready.empty()) continue;
      // Prefer a task that can read locally; else the job's first ready task on a random free
      // server (the next one along that it fits, where memory is modelled).
      for (TaskId t : ready) {
        for (ServerId r : state.task(t).replicas) {
          if (state.CanHost(t, r)) return {t, r, Why().Add("rule", "local")};
        }
      }
      const auto first = static_cast<size_t>(rng_.UniformInt(static_cast<int64_t>(free.size())));
      for (TaskId t : ready) {
        for (size_t k = 0; k < free.size(); ++k) {
          const ServerId s = free[(first + k) % free.size()];
          if (state.CanHost(t, s)) return {t, s, Why().Add("rule", "random-free")};
        }
      }
    }
    return {};
  }

 private:
  JobOrder order_;
  Rng rng_;
  std::vector<JobIndex> jobs_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "greedy", "any free slot; input-block readers prefer a replica holder (never reserves)",
    {JobOrderSetting()}, GreedyScheduler);

}  // namespace slotflow
