#include "api/first_fit.h"

#include "api/tie_break.h"

namespace slotflow {

SettingSpec TaskOrderSetting() {
  return SettingSpec{.name = "task_order",
                     .kind = SettingKind::kChoice,
                     .default_value = "id",
                     .meaning =
                         "which of a job's ready tasks is placed first: id (id order, the next "
                         "one when none can be hosted; the paper defines only where a task "
                         "goes), or local-first (NEAT+'s choice, ours: the first with a free "
                         "replica holder, else the one with the most input)",
                     .choices = {"id", "local-first"}};
}

TaskOrder TaskOrderOf(const Settings& settings) {
  return settings.Choice<TaskOrder>(
      "task_order", {{"id", TaskOrder::kIds}, {"local-first", TaskOrder::kLocalFirst}});
}

Decision FirstFit(const SimState& state, JobOrder order, std::vector<JobIndex>& scratch,
                  const ServerRule& rule, const char* name, TaskOrder tasks) {
  if (state.servers_with_free_slots().empty()) return {};
  OrderJobs(state, order, scratch);
  for (JobIndex j : scratch) {
    const ReadyTasks& ready = state.job(j).ready;
    if (tasks == TaskOrder::kLocalFirst) {
      if (ready.empty()) continue;
      const TaskChoice c = NeatTaskChoice(state, ready);
      const ServerId s = rule(state, c.task);
      if (s != kNoServer) {
        return {c.task, s,
                Why()
                    .Add("rule", name)
                    .Add("task_choice", c.holder != kNoServer ? "local-read" : "largest")};
      }
      continue;
    }
    for (TaskId t : ready) {
      const ServerId s = rule(state, t);
      if (s != kNoServer) return {t, s, Why().Add("rule", name)};
    }
  }
  return {};
}

// One pass over the ready tasks: the first with a free replica holder ends it, and the largest
// so far is kept on the way for when none has one.
TaskChoice NeatTaskChoice(const SimState& state, const ReadyTasks& ready) {
  TaskChoice largest;
  if (ready.empty()) return largest;
  // No free server holds a replica of any ready task: no task here has a free holder.
  bool holders = !state.HostsOnAnyFreeSlot();
  for (ServerId s : state.servers_with_free_slots())
    holders = holders || state.ready_replicas(s) > 0;
  largest.task = ready.front();
  Bytes largest_input = state.task(largest.task).spec->input;
  for (TaskId t : ready) {
    const TaskRuntime& task = state.task(t);
    if (holders) {
      ServerId best = kNoServer;
      for (ServerId r : task.replicas) {
        if (!state.HasFreeSlot(r) || !state.CanHost(t, r)) continue;
        if (best == kNoServer || state.server(r).running < state.server(best).running ||
            (state.server(r).running == state.server(best).running && r < best)) {
          best = r;
        }
      }
      if (best != kNoServer) return {t, best};
    }
    if (task.spec->input > largest_input) {
      largest.task = t;
      largest_input = task.spec->input;
    }
  }
  return largest;
}

std::vector<SettingSpec> BaselineSettings() { return {JobOrderSetting(), TieSetting()}; }

std::vector<ServerId> Hosts(const SimState& state, TaskId t) {
  std::vector<ServerId> out;
  for (ServerId s : state.servers_with_free_slots()) {
    if (state.CanHost(t, s)) out.push_back(s);
  }
  return out;
}

int Hops(const Cluster& cluster, ServerId a, ServerId b) {
  if (a == b) return 0;
  if (cluster.spec().topology == TopologyKind::kBigSwitch) return 2;
  return cluster.server(a).rack == cluster.server(b).rack ? 2 : 4;
}

}  // namespace slotflow
