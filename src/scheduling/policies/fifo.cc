// fifo — Hadoop's default FIFO scheduler, the baseline of seed 001 §3 ("无延迟的 FIFO 算法",
// FIFO without delay; SPEC §6). At each server's heartbeat the oldest job with a ready task
// launches one on each free slot, node-local if it has one for that server, else rack-local,
// else any: it never waits for locality (every wait of scheduling/delay_walk.h is 0).
#include "scheduling/delay_walk.h"

namespace slotflow {
namespace {

class FifoScheduler : public TaskScheduler {
 public:
  explicit FifoScheduler(const PolicyArgs& args)
      : heartbeat_(args.settings.Number("heartbeat")),
        walk_(JobOrder::kFifo, [](const TaskRuntime&) { return TaskWaits{}; }) {}

  Decision Next(const SimState&) override { return {}; }  // offers come at heartbeats only
  Seconds server_heartbeat() const override { return heartbeat_; }
  Decision Offer(const SimState& state, ServerId s) override { return walk_.Offer(state, s); }

 private:
  Seconds heartbeat_;
  DelayWalk walk_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "fifo", "Hadoop FIFO at heartbeats: oldest job first, local task if any, never waits",
    {HeartbeatSetting()}, FifoScheduler);

}  // namespace slotflow
