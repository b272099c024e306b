// TaskScheduler: decides which ready task runs on which server. A scheduler reads the
// SimState view and returns decisions; it never changes the state, starts flows or moves time.
// Two ways to be asked:
//  - Next(): after every step in which something changed (a job arrived, a task ended, tasks
//    became ready), the simulator asks for one decision at a time and applies it, until the
//    answer is "nothing"; slots still free are then deliberately left empty (reserved).
//  - Offer(): with server_heartbeat() > 0 a server's free slots are offered only at that
//    server's heartbeat, one call per free slot, as Hadoop's JobTracker assigns tasks in its
//    answers to TaskTracker heartbeats; Next() is then not used.
// A scheduler may also ask for a cluster-wide tick (nats' congestion monitor).
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/flow.h"
#include "api/registry.h"
#include "api/state.h"
#include "api/why.h"

namespace slotflow {

// A scheduler's answer: run `task` on `server`, or nothing for now (task < 0: the free slots
// stay empty until the next trigger). `why` is what the decision log shows of its reasons
// (api/why.h): a few named values, free to fill when no log is written.
struct Decision {
  TaskId task{-1};
  ServerId server = kNoServer;
  Why why = {};

  explicit operator bool() const { return task >= 0; }
};

class TaskScheduler {
 public:
  virtual ~TaskScheduler() = default;

  // The next placement given the current state, or nothing (with its reasons) to stop for now.
  virtual Decision Next(const SimState& state) = 0;

  // Per-server heartbeats: the interval (0 = none) and the choice for one free slot of server
  // s (a Decision whose server is s, or left kNoServer), or nothing to leave it empty until
  // the next heartbeat. Server s beats at origin + (s / servers + k) · interval, k = 0, 1, ...
  // (staggered, ours).
  virtual Seconds server_heartbeat() const { return 0; }
  virtual Decision Offer(const SimState& /*state*/, ServerId /*s*/) { return {}; }

  // A cluster-wide tick: the interval (0 = none) and what to do at it; returns what changed,
  // for the decision log (empty: nothing did).
  virtual Seconds tick_interval() const { return 0; }
  virtual Why OnTick(const SimState& /*state*/) { return {}; }
  // Named counters for summary.json's scheduler_stats (shares, counts), in a fixed order.
  virtual void AddStats(std::vector<std::pair<std::string, double>>& /*out*/) const {}
  // The mode signal for compute-aware network policies (Duopoly §3); nullopt = no opinion.
  virtual std::optional<SlotMode> mode(const SimState& /*state*/) const { return std::nullopt; }
  // What it reads of flows after the step they finished in: their ids (FlowView::
  // finished_flows), or also their records (of flows it had not looked at yet); the network
  // keeps that much and lets the rest go.
  virtual FinishedFlows ReadsFinishedFlows() const { return FinishedFlows::kNone; }
};

using TaskSchedulerRegistry = Registry<TaskScheduler>;
SLOTFLOW_DECLARE_REGISTRY(TaskSchedulerRegistry);

}  // namespace slotflow

// Registers `type` (constructed from a PolicyArgs) under `name` with its declared settings.
#define SLOTFLOW_REGISTER_TASK_SCHEDULER(name, description, settings, type)                  \
  SLOTFLOW_REGISTER_TYPE(::slotflow::TaskSchedulerRegistry, ::slotflow::TaskScheduler, name, \
                         description, settings, type)
// The same with any factory: PolicyArgs → std::unique_ptr<TaskScheduler>.
#define SLOTFLOW_REGISTER_TASK_SCHEDULER_WITH(name, description, settings, factory) \
  SLOTFLOW_REGISTER_WITH(::slotflow::TaskSchedulerRegistry, name, description, settings, factory)
