// delay — delay scheduling (DS; Zaharia et al., EuroSys'10), as TCDS §1.2 Alg. 1 gives it.
// At each server's heartbeat, jobs are walked in fair-sharing order (fewest running
// tasks first, Alg. 1 line 2); a job launches a node-local task at once, and a rack-local or
// off-rack one only after waiting node_wait (then rack_wait more) since it was first skipped
// after its last launch; otherwise it is skipped. §1.3: "T_nodeWait = T_rackWait = 5s" in
// Hadoop, the defaults here. The walk is scheduling/delay_walk.h.
#include "scheduling/delay_walk.h"

namespace slotflow {
namespace {

std::vector<SettingSpec> DelaySettings() {
  SettingSpec order = JobOrderSetting();
  order.default_value = "fair";  // Alg. 1 line 2: the fair-sharing order
  return {HeartbeatSetting(),
          order,
          {.name = "node_wait",
           .kind = SettingKind::kSeconds,
           .default_value = "5s",
           .meaning = "T_nodeWait: the wait before a rack-local launch (TCDS §1.3)",
           .min = 0,
           .max = 1e6},
          {.name = "rack_wait",
           .kind = SettingKind::kSeconds,
           .default_value = "5s",
           .meaning = "T_rackWait: the further wait before an off-rack launch (TCDS §1.3)",
           .min = 0,
           .max = 1e6}};
}

std::unique_ptr<TaskScheduler> MakeDelay(const PolicyArgs& args) {
  const TaskWaits waits{args.settings.Number("node_wait"), args.settings.Number("rack_wait")};
  return std::make_unique<WalkScheduler>(
      args.settings.Number("heartbeat"),
      DelayWalk(JobOrderOf(args.settings), [waits](const TaskRuntime&) { return waits; }));
}

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER_WITH(
    "delay", "delay scheduling (DS): fair order, waits node_wait / rack_wait for locality",
    DelaySettings(), MakeDelay);

}  // namespace slotflow
