// fifo — Hadoop's default FIFO scheduler, the baseline of TCDS §3 ("无延迟的 FIFO 算法",
// FIFO without delay). At each server's heartbeat the oldest job with a ready task
// launches one on each free slot, node-local if it has one for that server, else rack-local,
// else any: it never waits for locality (every wait of scheduling/delay_walk.h is 0).
#include "scheduling/delay_walk.h"

namespace slotflow {
namespace {

std::unique_ptr<TaskScheduler> MakeFifo(const PolicyArgs& args) {
  return std::make_unique<WalkScheduler>(
      args.settings.Number("heartbeat"),
      DelayWalk(JobOrder::kFifo, [](const TaskRuntime&) { return TaskWaits{}; }));
}

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER_WITH(
    "fifo", "Hadoop FIFO at heartbeats: oldest job first, local task if any, never waits",
    {HeartbeatSetting()}, MakeFifo);

}  // namespace slotflow
