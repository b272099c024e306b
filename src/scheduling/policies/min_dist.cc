// minDist — NEAT+'s locality baseline (NEAT+ §I, §II: "always picks the node closest to the
// input"): each task goes to the server, among those with a free slot, that minimises the
// network load of reading its input, Σ bytes × hops (the paper's §II explanation of why minDist
// wins under SRPT: it "minimises the total network load, the sum of each flow's size times its
// hop count"). A block is read from its nearest replica; hops are 0 on the same server, 2
// through one switch, 4 through the core. The paper names no tie-break: by default servers
// equally near go to setting `ties` (api/tie_break.h, random by default);
// `busy_ties = fewer-running` first prefers the server running fewer tasks.
// Which task goes first: the paper defines minDist by where each task goes (§I; §II places
// "each task" to minimise its distance to the input) and not by which task of a job is placed
// first; by default a job's ready tasks are tried in id order (api/first_fit.h).
// `task_order = local-first` takes NEAT+'s choice instead (§V-A3, §V-A2; ours): a ready task
// with a free replica holder first, else the largest; minDist then places it as above.
#include <algorithm>
#include <limits>
#include <utility>

#include "api/first_fit.h"
#include "api/tie_break.h"

namespace slotflow {
namespace {

constexpr uint64_t kSeedSalt = 0x6d696e6469737400ULL;  // "mindist"

// Σ bytes × hops of task t's input if it ran on server d.
double ReadCost(const SimState& state, TaskId t, ServerId d) {
  const TaskRuntime& task = state.task(t);
  const Cluster& cluster = state.cluster();
  if (task.root) {
    if (task.replicas.empty()) return 0;
    int hops = std::numeric_limits<int>::max();
    for (ServerId r : task.replicas) hops = std::min(hops, Hops(cluster, r, d));
    return task.spec->input * hops;
  }
  double cost = 0;
  for (const auto& [src, bytes] : state.InputSources(t)) cost += bytes * Hops(cluster, src, d);
  return cost;
}

std::vector<SettingSpec> MinDistSettings() {
  std::vector<SettingSpec> specs = BaselineSettings();
  specs.push_back(TaskOrderSetting());
  specs.push_back(SettingSpec{
      .name = "busy_ties",
      .kind = SettingKind::kChoice,
      .default_value = "ignore",
      .meaning = "servers equally near the input: ignore how busy they are (then `ties`), or "
                 "fewer-running (the one running fewer tasks first)",
      .choices = {"ignore", "fewer-running"}});
  return specs;
}

class MinDistScheduler : public TaskScheduler {
 public:
  explicit MinDistScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)),
        tasks_(TaskOrderOf(args.settings)),
        tie_(args.settings, args.seed, kSeedSalt),
        by_running_(args.settings.Choice<bool>("busy_ties",
                                               {{"ignore", false}, {"fewer-running", true}})) {}

  Decision Next(const SimState& state) override {
    double chosen_cost = 0;
    auto nearest = [&chosen_cost, this](const SimState& st, TaskId t) {
      std::pair<double, int> chosen;  // (byte-hops, running tasks)
      const ServerId best = tie_.Smallest(
          Hosts(st, t),
          [&](ServerId s) {
            return std::pair(ReadCost(st, t, s), by_running_ ? st.server(s).running : 0);
          },
          chosen);
      chosen_cost = chosen.first;
      return best;
    };
    Decision d = FirstFit(state, order_, jobs_, nearest, "nearest-input", tasks_);
    if (d) d.why.Add("byte_hops", chosen_cost);
    return d;
  }

 private:
  JobOrder order_;
  TaskOrder tasks_;
  TieBreak tie_;
  bool by_running_;
  std::vector<JobIndex> jobs_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "minDist", "NEAT+'s baseline: the free server nearest the task's input (least bytes x hops)",
    MinDistSettings(), MinDistScheduler);

}  // namespace slotflow
