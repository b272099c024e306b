// spread: a task scheduler outside slotflow's tree. Jobs in arrival order; each ready task goes
// to the free server running the fewest tasks (ties: the lowest id), or, with
// prefer_local=yes, to the least-loaded replica holder of its input block when one is free.
#include <limits>
#include <vector>

#include "api/plugin.h"
#include "api/task_scheduler.h"

SLOTFLOW_PLUGIN();

namespace {

using namespace slotflow;

class Spread : public TaskScheduler {
 public:
  explicit Spread(const PolicyArgs& args)
      : prefer_local_(args.settings.Choice<bool>("prefer_local", {{"yes", true}, {"no", false}})) {}

  Decision Next(const SimState& state) override {
    for (JobIndex j : state.active_jobs()) {
      for (TaskId t : state.job(j).ready) {
        if (prefer_local_) {
          if (ServerId s = LeastLoaded(state, t, state.task(t).replicas); s != kNoServer) {
            return {t, s, Why().Add("rule", "local")};
          }
        }
        if (ServerId s = LeastLoaded(state, t, state.servers_with_free_slots()); s != kNoServer) {
          return {t, s, Why().Add("rule", "least-loaded")};
        }
      }
    }
    return {};
  }

 private:
  static ServerId LeastLoaded(const SimState& state, TaskId t, const std::vector<ServerId>& of) {
    ServerId best = kNoServer;
    int fewest = std::numeric_limits<int>::max();
    for (ServerId s : of) {
      const int running = state.server(s).running;
      if (state.CanHost(t, s) && (running < fewest || (running == fewest && s < best))) {
        best = s;
        fewest = running;
      }
    }
    return best;
  }

  bool prefer_local_;
};

std::vector<SettingSpec> SpreadSettings() {
  SettingSpec local{"prefer_local", SettingKind::kChoice, "no",
                    "a free replica holder of the input block first"};
  local.choices = {"yes", "no"};
  return {local};
}

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "spread", "each ready task on the free server running the fewest tasks (a plugin)",
    SpreadSettings(), Spread);
