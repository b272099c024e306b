// Test helpers that make a paper scenario a few lines: a tiny cluster, a few jobs, run, and
// look up finish times by job name.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "network/network_policy.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"
#include "workload/job.h"

namespace slotflow::testing {

// A homogeneous cluster where every rate is 1 unit per second (the papers' examples).
inline ClusterSpec UnitCluster(int servers, int slots) {
  ClusterSpec c;
  c.classes = {ServerClass{.name = "unit", .count = servers, .slots = slots, .nic = 1.0}};
  c.slot_rate = 1.0;
  return c;
}

inline TaskSpec Task(Bytes input = 0, Seconds compute = -1, ServerId pinned = kNoServer) {
  TaskSpec t;
  t.input = input;
  t.compute = compute;
  t.pinned = pinned;
  return t;
}

inline JobSpec Job(std::string name, Seconds submit, std::vector<StageSpec> stages) {
  JobSpec j;
  j.name = std::move(name);
  j.submit = submit;
  j.stages = std::move(stages);
  return j;
}

struct Scenario {
  ClusterSpec cluster;
  Workload workload;
  std::string scheduler = "greedy";
  std::string network = "fair";
  std::map<std::string, std::string> scheduler_settings, network_settings;  // key → value
  SimulationConfig simulation;

  RunResult Run() const {
    workload.Validate(cluster.ServerCount());
    Cluster c(cluster);
    Simulator sim(c, workload,
                  TaskSchedulerRegistry::Get().Make(scheduler, scheduler_settings, simulation.seed),
                  NetworkPolicyRegistry::Get().Make(network, network_settings, simulation.seed),
                  simulation);
    return sim.Run();
  }

  // Finish time of each job by name.
  std::map<std::string, double> Finishes() const {
    std::map<std::string, double> out;
    for (const JobResult& j : Run().jobs) out[j.name] = j.finish;
    return out;
  }
};

}  // namespace slotflow::testing
