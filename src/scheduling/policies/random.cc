// random — placement baseline (not one the papers' texts name): each task on a free server
// chosen uniformly at random among those that can host it, input locality ignored.
#include "api/random.h"

#include "api/first_fit.h"

namespace slotflow {
namespace {

// Mixed into the run's seed so this scheduler's draws do not repeat the simulator's (block
// replicas): "random" in ASCII.
constexpr uint64_t kSeedSalt = 0x72616e646f6dULL;

class RandomScheduler : public TaskScheduler {
 public:
  explicit RandomScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)), rng_(args.seed ^ kSeedSalt) {}

  Decision Next(const SimState& state) override {
    auto any = [this](const SimState& st, TaskId t) {
      const std::vector<ServerId> hosts = Hosts(st, t);
      if (hosts.empty()) return kNoServer;
      return hosts[static_cast<size_t>(rng_.UniformInt(static_cast<int64_t>(hosts.size())))];
    };
    return FirstFit(state, order_, jobs_, any, "random");
  }

 private:
  JobOrder order_;
  Rng rng_;
  std::vector<JobIndex> jobs_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER("random", "a free server chosen at random (input ignored)",
                                 {JobOrderSetting()}, RandomScheduler);

}  // namespace slotflow
