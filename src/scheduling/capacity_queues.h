// What Hadoop's capacity scheduler and JTPW share (JTPW §1): a free slot goes to
// the queue whose running tasks are the smallest fraction of its capacity share, a queue never
// runs more than its maximum, and jobs are taken from a queue in their order.
#pragma once

#include <cstdint>
#include <vector>

#include "api/random.h"
#include "api/settings.h"
#include "api/task_scheduler.h"

namespace slotflow {

// One queue during a decision: its running tasks and whether it may still have a task to
// place (cleared when none of its jobs' ready tasks fits a free slot).
struct QueueLoad {
  int running = 0;
  bool has_work = false;
};

// JTPW §1: "the ratio of the tasks a queue runs to the resources it should get; the
// queue with the smallest ratio runs a task". Among queues with work and running below
// max × slots, the lowest running / (share × slots); ties go to the earlier queue. -1: none.
int PickQueue(const std::vector<QueueShare>& queues, const std::vector<QueueLoad>& load,
              int64_t total_slots);

// running / (share × slots) of queue q: how full it is against its guarantee.
double QueueUse(const QueueShare& q, int running, int64_t total_slots);

// JTPW §1: inside a queue, higher initial priority first, then earlier
// submission (FIFO), then workload order.
bool PriorityThenSubmission(const JobRuntime& a, const JobRuntime& b);

// The `per_queue` setting: how many of a queue's jobs may run at once.
SettingSpec PerQueueSetting();
// Whether it is one (else many).
bool OnePerQueue(const Settings& settings);
// With per_queue = one, keeps of a queue's ordered jobs only those already started, when there
// are any (JTPW §1: "resources go to a new job only after the running one has ended");
// with many, keeps them all.
void KeepStartedJobs(const SimState& state, bool one, std::vector<JobIndex>& jobs);

// One ready task of job j on a free slot, as Hadoop places it: a task whose input block is on
// a server with room for it (a local read), else the first ready task that fits, on a free
// server drawn at random (the node whose heartbeat comes first). `why` gets "rule": "local" or
// "random-free". Nothing when no ready task of j fits anywhere.
Decision PlaceLocalOrRandom(const SimState& state, JobIndex j, Rng& rng);

}  // namespace slotflow
