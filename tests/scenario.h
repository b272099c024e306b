// Test helpers that make a paper scenario a few lines: a tiny cluster, a few jobs, run, and
// look up finish times by job name.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "api/job.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "sim/simulator.h"

namespace slotflow::testing {

// A homogeneous cluster where every rate is 1 unit per second (the papers' examples).
inline ClusterSpec UnitCluster(int servers, int slots) {
  ClusterSpec c;
  c.classes = {ServerClass{.name = "unit", .count = servers, .slots = slots, .nic = 1.0}};
  c.slot_rate = 1.0;
  return c;
}

// A task reading `input` bytes; pinned (a server number) to that server, -1 = not pinned.
inline TaskSpec Task(Bytes input = 0, Seconds compute = -1, int pinned = kNoServer) {
  TaskSpec t;
  t.input = input;
  t.compute = compute;
  t.pinned = ServerId{pinned};
  return t;
}

// A stage's replica lists from server numbers: per task, the servers holding its block.
inline std::vector<std::vector<ServerId>> Replicas(const std::vector<std::vector<int>>& servers) {
  std::vector<std::vector<ServerId>> out;
  for (const auto& task : servers) {
    out.emplace_back();
    for (int s : task) out.back().push_back(ServerId{s});
  }
  return out;
}

inline JobSpec Job(std::string name, Seconds submit, std::vector<StageSpec> stages) {
  JobSpec j;
  j.name = std::move(name);
  j.submit = submit;
  j.stages = std::move(stages);
  return j;
}

// What a run's scheduler reported of itself, without the slot-mode times and switches every
// run reports after them.
inline std::vector<std::pair<std::string, double>> OwnStats(const RunSummary& summary) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [key, value] : summary.scheduler_stats) {
    if (key != "sufficient_s" && key != "insufficient_s" && key != "insufficient_share" &&
        key != "mode_switches") {
      out.emplace_back(key, value);
    }
  }
  return out;
}

// The lines of a text (a decision log, a CSV), without their line breaks.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
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

  // Duopoly Fig. 2 (§2.3): 2 servers × 2 slots, rates 1; job A at 0 (4 maps of 1 s, 4
  // reducers of 4 units, 1 from each map), job B at 2 (one map of 1 s).
  static Scenario DuopolyFig2(std::string scheduler) {
    StageSpec maps{"map", {}, std::vector<TaskSpec>(4, Task(0, 1))};
    StageSpec reduces{"reduce", {0}, std::vector<TaskSpec>(4, Task(4, 0))};
    Scenario s;
    s.cluster = UnitCluster(2, 2);
    s.workload.source = "fig2";
    s.workload.jobs = {Job("A", 0, {maps, reduces}),
                       Job("B", 2, {StageSpec{"map", {}, {Task(0, 1)}}})};
    s.scheduler = std::move(scheduler);
    return s;
  }

  // Finish time of each job by name.
  std::map<std::string, double> Finishes() const {
    std::map<std::string, double> out;
    for (const JobResult& j : Run().jobs) out[j.name] = j.finish;
    return out;
  }
};

}  // namespace slotflow::testing
