// FirstFit: the walk shared by the simple placement baselines (loadAware, minDist, random):
// jobs in the configured order, and in each job the task the baseline takes first; the first
// task for which the baseline's rule names a server is placed there. Never leaves a slot empty
// on purpose. Which task of a job comes first is setting `task_order`: by default the ready
// tasks in id order (NEAT+ §I, §II define the baselines by where a task goes, not which task
// goes first), or NEAT+'s own choice (NeatTaskChoice below).
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <functional>
#include <vector>

#include "api/job_order.h"
#include "api/task_scheduler.h"

namespace slotflow {

// The server a baseline picks for task t among those that can host it now (kNoServer: none).
using ServerRule = std::function<ServerId(const SimState&, TaskId)>;

// Which of a job's ready tasks a first-fit baseline tries: kIds, each in id order until the
// rule names a server (the default); kLocalFirst, the one NeatTaskChoice gives (only that one).
enum class TaskOrder { kIds, kLocalFirst };

// The `task_order` setting (id | local-first, default id) and the order it names.
SettingSpec TaskOrderSetting();
TaskOrder TaskOrderOf(const Settings& settings);

Decision FirstFit(const SimState& state, JobOrder order, std::vector<JobIndex>& scratch,
                  const ServerRule& rule, const char* name, TaskOrder tasks = TaskOrder::kIds);

// NEAT+'s choice of which ready task of a job to place next (neat's, shared): the first ready
// task (id order) that has a replica holder able to host it now, which NEAT+ places on that
// holder (§V-A3: a node holding the input has zero transfer time; ours, docs/readings.md);
// otherwise the ready task with the most input bytes, lower id on ties (§V-A2: the largest flow
// of a coflow first). `holder`: for a local read, the free holder running the fewest tasks,
// then the lower id; else kNoServer. `task` is unset when `ready` is empty.
struct TaskChoice {
  TaskId task;  // -1: none
  ServerId holder = kNoServer;
};
TaskChoice NeatTaskChoice(const SimState& state, const ReadyTasks& ready);

// The settings of a baseline that picks by a key: job order and ties (api/tie_break.h).
std::vector<SettingSpec> BaselineSettings();

// The servers that can host task t now, in increasing id order.
std::vector<ServerId> Hosts(const SimState& state, TaskId t);

// Network hops between two servers: 0 on one server, 2 through one switch (a big switch, or
// the same rack of a two-tier topology), 4 through the core.
int Hops(const Cluster& cluster, ServerId a, ServerId b);

}  // namespace slotflow
