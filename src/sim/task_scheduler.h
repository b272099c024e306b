// TaskScheduler: decides which ready task runs on which server (SPEC §6). The simulator asks
// for one placement at a time and applies it, until the scheduler answers "nothing"; any slots
// still free are then deliberately left empty (reserved) until the next trigger.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/registry.h"
#include "network/flow.h"
#include "sim/state.h"

namespace slotflow {

struct Placement {
  TaskId task;
  ServerId server;
};

class TaskScheduler {
 public:
  virtual ~TaskScheduler() = default;

  // The next placement given the current state, or nullopt to stop for now.
  virtual std::optional<Placement> Next(const SimState& state) = 0;

  // A periodic trigger (delay-scheduling heartbeat, congestion monitor); 0 = none.
  virtual Seconds heartbeat() const { return 0; }
  virtual void OnHeartbeat(const SimState& /*state*/) {}
  // The mode signal for compute-aware network policies (Duopoly §3); nullopt = no opinion.
  virtual std::optional<SlotMode> mode(const SimState& /*state*/) const { return std::nullopt; }
};

using TaskSchedulerRegistry = Registry<TaskScheduler>;

}  // namespace slotflow

// Registers `type` (constructed from a PolicyArgs) under `name` with its declared settings.
#define SLOTFLOW_REGISTER_TASK_SCHEDULER(name, description, settings, type)      \
  SLOTFLOW_REGISTER_TASK_SCHEDULER_WITH(name, description, settings,             \
                                        [](const ::slotflow::PolicyArgs& args) { \
                                          return std::unique_ptr<::slotflow::TaskScheduler>( \
                                              new type(args));                   \
                                        })
// The same with any factory: PolicyArgs → std::unique_ptr<TaskScheduler>.
#define SLOTFLOW_REGISTER_TASK_SCHEDULER_WITH(name, description, settings, factory) \
  static const bool SLOTFLOW_UNIQUE_NAME(slotflow_registered_task_scheduler_) =     \
      ::slotflow::TaskSchedulerRegistry::Get().Add(name, description, settings, factory)
