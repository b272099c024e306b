// FirstFit: the walk shared by the simple placement baselines (loadAware, minDist, random):
// jobs in the configured order, each job's ready tasks in id order, and the first task for which
// the baseline's rule names a server is placed there. Never leaves a slot empty on purpose.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <functional>
#include <vector>

#include "api/job_order.h"
#include "api/task_scheduler.h"

namespace slotflow {

// The server a baseline picks for task t among those that can host it now (kNoServer: none).
using ServerRule = std::function<ServerId(const SimState&, TaskId)>;

Decision FirstFit(const SimState& state, JobOrder order, std::vector<JobIndex>& scratch,
                  const ServerRule& rule, const char* name);

// The settings of a baseline that picks by a key: job order and ties (api/tie_break.h).
std::vector<SettingSpec> BaselineSettings();

// The servers that can host task t now, in increasing id order.
std::vector<ServerId> Hosts(const SimState& state, TaskId t);

// Network hops between two servers: 0 on one server, 2 through one switch (a big switch, or
// the same rack of a two-tier topology), 4 through the core.
int Hops(const Cluster& cluster, ServerId a, ServerId b);

}  // namespace slotflow
