// loadAware — NEAT+'s load-balancing baseline. NEAT+ §I: loadAware "distributes the load evenly
// over all nodes"; §II: "minimum-load placement (loadAware), which spreads the load over all
// nodes". Each task goes to the server, among those with a free slot, that carries the least
// load. The paper does not define the load: by default it is the tasks running on the server
// (`load = tasks`), so tasks spread evenly; `load = bytes` reads it as the bytes still to arrive
// on the server's downlink (§II's explanation of Fig. 3(b), that loadAware keeps a long flow off
// nodes with long flows, fits this reading), then fewer running tasks. Remaining ties: setting
// `ties` (api/tie_break.h). Input locality plays no part.
// Which task goes first: the paper defines loadAware by where each task goes (§I, §II) and not
// by which task of a job is placed first; by default a job's ready tasks are tried in id order
// (api/first_fit.h). `task_order = local-first` takes NEAT+'s choice instead (§V-A3, §V-A2;
// ours): a ready task with a free replica holder first, else the largest; loadAware then
// places it on the least loaded server as above, wherever its input is.
#include <utility>

#include "api/first_fit.h"
#include "api/tie_break.h"

namespace slotflow {
namespace {

constexpr uint64_t kSeedSalt = 0x6c6f616461776172ULL;  // "loadawar"

enum class Load { kTasks, kBytes };

std::vector<SettingSpec> LoadAwareSettings() {
  std::vector<SettingSpec> specs = BaselineSettings();
  specs.push_back(TaskOrderSetting());
  specs.push_back(SettingSpec{
      .name = "load",
      .kind = SettingKind::kChoice,
      .default_value = "tasks",
      .meaning = "a server's load: tasks (running on it; NEAT+ §I: load spread evenly over all "
                 "nodes), or bytes (still to arrive on its downlink, then running tasks)",
      .choices = {"tasks", "bytes"}});
  return specs;
}

class LoadAwareScheduler : public TaskScheduler {
 public:
  explicit LoadAwareScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)),
        tasks_(TaskOrderOf(args.settings)),
        tie_(args.settings, args.seed, kSeedSalt),
        load_(args.settings.Choice<Load>("load",
                                         {{"tasks", Load::kTasks}, {"bytes", Load::kBytes}})) {}

  Decision Next(const SimState& state) override {
    if (load_ == Load::kTasks) {
      auto fewest_tasks = [this](const SimState& st, TaskId t) {
        int chosen = 0;
        return tie_.Smallest(
            Hosts(st, t), [&](ServerId s) { return st.server(s).running; }, chosen);
      };
      Decision d = FirstFit(state, order_, jobs_, fewest_tasks, "fewest-tasks", tasks_);
      if (d) d.why.Add("running_tasks", state.server(d.server).running);
      return d;
    }
    const FlowView& net = state.flows();
    incoming_.assign(static_cast<size_t>(state.cluster().size()), 0);
    for (FlowId f : net.active_flows()) {
      const FlowSpec& fs = net.flow(f).spec;
      if (fs.src != fs.dst) incoming_[fs.dst] += net.Remaining(f);
    }
    auto least_bytes = [this](const SimState& st, TaskId t) {
      std::pair<Bytes, int> chosen;  // (bytes arriving, running tasks)
      return tie_.Smallest(
          Hosts(st, t), [&](ServerId s) { return std::pair(incoming_[s], st.server(s).running); },
          chosen);
    };
    Decision d = FirstFit(state, order_, jobs_, least_bytes, "fewest-bytes-arriving", tasks_);
    if (d) d.why.Add("incoming_bytes", incoming_[d.server]);
    return d;
  }

 private:
  JobOrder order_;
  TaskOrder tasks_;
  TieBreak tie_;
  Load load_;
  std::vector<JobIndex> jobs_;
  std::vector<Bytes> incoming_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "loadAware", "NEAT+'s baseline: the free server with the least load (no locality)",
    LoadAwareSettings(), LoadAwareScheduler);

}  // namespace slotflow
