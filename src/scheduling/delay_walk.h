// DelayWalk: the heartbeat walk that Hadoop's FIFO, delay scheduling (DS) and task-class delay
// scheduling (TCDS) share (TCDS Alg. 1 and Alg. 2; Zaharia et al., EuroSys'10).
// A server with a free slot reports in; jobs are walked in order (fair: fewest running tasks
// first; fifo: arrival), and the first job that may launch a task on that server does so:
//  - a node-local task (its block on the server, or no block at all) launches at once and
//    resets the job's wait;
//  - else a rack-local task (a replica in the server's rack), else any task (off-rack), once
//    the job has waited long enough for that level; a launch sets the job's level to it and
//    resets its wait;
//  - else the job is skipped, and its wait starts if it had not.
// How long is long enough is the policy's: per task, a node-level wait (before a rack-local
// launch) and a rack-level wait (then before an off-rack launch).
#pragma once

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "api/job_order.h"
#include "api/settings.h"
#include "api/task_scheduler.h"

namespace slotflow {

enum class LocalityLevel { kNode, kRack, kOffRack };

// The waits a task asks of its job before it launches at a worse locality level, and what the
// decision log says of it (a class name, or nullptr).
struct TaskWaits {
  Seconds node = 0;  // before a rack-local launch
  Seconds rack = 0;  // after that, before an off-rack launch
  const char* task_class = nullptr;
  double beta = -1;  // the task's length coefficient, if the policy uses one (< 0: none)
};

// The `heartbeat` setting of these schedulers: Hadoop's 3 s by default.
SettingSpec HeartbeatSetting();

class DelayWalk {
 public:
  using WaitRule = std::function<TaskWaits(const TaskRuntime&)>;
  DelayWalk(JobOrder order, WaitRule waits) : order_(order), waits_(std::move(waits)) {}

  // One free slot of server s: a launch there, or nothing (every job skipped or without a ready
  // task that fits). The why says the locality level, the job's wait and the wait needed.
  Decision Offer(const SimState& state, ServerId s);

  // The wait of job j now: the time since it was first skipped after its last launch (0 when
  // it is not waiting).
  Seconds Waited(const SimState& state, JobIndex j) const;

 private:
  struct JobWait {
    LocalityLevel level = LocalityLevel::kNode;  // the level of its last launch
    Seconds since = -1;                          // first skip since then; < 0: not waiting
  };
  struct Candidate {
    TaskId task{-1};
    LocalityLevel level = LocalityLevel::kOffRack;
  };
  Candidate BestTask(const SimState& state, JobIndex j, ServerId s) const;
  Seconds Needed(LocalityLevel job_level, LocalityLevel target, const TaskWaits& w) const;
  Decision Launch(const SimState& state, JobIndex j, const Candidate& c, ServerId s,
                  const TaskWaits& w, Seconds needed);

  JobOrder order_;
  WaitRule waits_;
  std::vector<JobWait> jobs_wait_;
  std::vector<JobIndex> jobs_;
};

// FIFO, DS and TCDS: a walk answering every heartbeat offer; Next() is never asked (offers come
// at heartbeats only).
class WalkScheduler : public TaskScheduler {
 public:
  WalkScheduler(Seconds heartbeat, DelayWalk walk)
      : heartbeat_(heartbeat), walk_(std::move(walk)) {}

  Decision Next(const SimState&) override { return {}; }
  Seconds server_heartbeat() const override { return heartbeat_; }
  Decision Offer(const SimState& state, ServerId s) override { return walk_.Offer(state, s); }

 private:
  Seconds heartbeat_;
  DelayWalk walk_;
};

}  // namespace slotflow
