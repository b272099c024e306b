// Bed: a cluster, a fair network and a SimState built through the task life cycle's own steps,
// for tests of one scheduling decision at a time on a hand-built state.
#pragma once

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "api/network_policy.h"
#include "engine/engine.h"
#include "network/network.h"
#include "scenario.h"
#include "sim/lifecycle.h"

namespace slotflow::testing {

// Jobs that only hold slots or fetch (all their tasks placed) sort after every job under test,
// though having no ready task they never compete anyway.
inline constexpr double kBackground = 1e12;

// A cluster, a fair network and a SimState built through the task life cycle's own steps (as a
// run takes them; time does not advance), with helpers that put jobs at the stage a test needs.
// The helpers take servers as plain numbers.
class Bed {
 public:
  explicit Bed(const ClusterSpec& spec,
               std::unique_ptr<NetworkPolicy> policy = NetworkPolicyRegistry::Get().Make("fair"))
      : cluster_(spec),
        net_(cluster_, std::move(policy), engine_.clock()),
        state_(cluster_, net_),
        life_(cluster_, net_, engine_, state_) {}
  Bed(int servers, int slots,
      std::unique_ptr<NetworkPolicy> policy = NetworkPolicyRegistry::Get().Make("fair"))
      : Bed(UnitCluster(servers, slots), std::move(policy)) {}

  const SimState& state() const { return state_; }
  Network& net() { return net_; }
  TaskLifecycle& life() { return life_; }

  // Adds a job and lets it arrive; SJF orders jobs by `estimate`.
  JobIndex Submit(JobSpec spec, double estimate) {
    const JobIndex j = Add(std::move(spec), estimate);
    life_.Arrive(j);
    return j;
  }
  // Adds a job that has not arrived.
  JobIndex Add(JobSpec spec, double estimate) {
    spec.size_estimate = estimate;
    specs_.push_back(std::move(spec));  // a deque keeps earlier specs where tasks point
    return life_.AddJob(specs_.back(), nullptr);
  }

  TaskId TaskOf(JobIndex j, int stage, int index) const {
    return TaskId{state_.job(j).stages[stage].first_task + index};
  }

  // A job in its map stage: one ready map task per entry, each reading a block held by the
  // listed servers (server numbers).
  JobIndex MapJob(const std::vector<std::vector<int>>& replicas, double estimate) {
    StageSpec maps{"map", {}, std::vector<TaskSpec>(replicas.size(), Task(1, 0))};
    maps.replicas = Replicas(replicas);
    return Submit(Job("maps", 0, {maps}), estimate);
  }

  // A job in its reduce stage: its one map ran on `map_server` and finished, so its reduce
  // tasks (these inputs, all from that server) are ready. Macroflow = a task's input; coflow =
  // the sum of the inputs.
  JobIndex ReduceJob(int map_server, const std::vector<Bytes>& inputs, double estimate) {
    std::vector<TaskSpec> reduces;
    for (Bytes b : inputs) reduces.push_back(Task(b, 0));
    const JobIndex j = Submit(
        Job("reduces", 0, {StageSpec{"map", {}, {Task(0, 0)}}, StageSpec{"reduce", {0}, reduces}}),
        estimate);
    life_.Place(TaskOf(j, 0, 0), ServerId{map_server});
    life_.OnComputeDone(TaskOf(j, 0, 0));
    return j;
  }

  // A background job whose map ran on `src` and whose reduce tasks (server, input) are placed
  // and fetching from it: every server other than `src` becomes receiving, with a macroflow of
  // that task's input and a coflow of the sum of all the inputs.
  JobIndex Receiving(int src, const std::vector<std::pair<int, Bytes>>& reduces) {
    std::vector<Bytes> inputs;
    for (const auto& r : reduces) inputs.push_back(r.second);
    const JobIndex j = ReduceJob(src, inputs, kBackground);
    for (size_t k = 0; k < reduces.size(); ++k) {
      life_.Place(TaskOf(j, 1, static_cast<int>(k)), ServerId{reduces[k].first});
    }
    return j;
  }

  // Takes n slots of server s with computing tasks of a job that then has nothing ready.
  std::vector<TaskId> Occupy(int s, int n, double estimate = kBackground) {
    const JobIndex j = Submit(
        Job("busy", 0, {StageSpec{"map", {}, std::vector<TaskSpec>(n, Task(0, 1))}}), estimate);
    std::vector<TaskId> tasks;
    for (int k = 0; k < n; ++k) {
      tasks.push_back(TaskOf(j, 0, k));
      life_.Place(tasks.back(), ServerId{s});
    }
    return tasks;
  }

  // A computing task's compute ends (a task with no output is then done).
  void Finish(TaskId t) { life_.OnComputeDone(t); }

 private:
  Cluster cluster_;
  Engine engine_;
  Network net_;
  SimState state_;
  TaskLifecycle life_;
  std::deque<JobSpec> specs_;
};

}  // namespace slotflow::testing
