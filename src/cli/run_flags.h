// The flags `run`, `compare` and `live` share (the workload, the cluster, the policies and
// their settings, the seed, the outputs) and the RunSpec they make.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "run/run_spec.h"

namespace slotflow {

// The flags as given; BuildSpec checks and applies them.
struct RunFlags {
  std::string command_line;  // how slotflow was invoked, for summary.json
  std::string config, mode, order, queues, nic, disk, slot_rate, topology, map_reads, out, log;
  std::optional<int> servers, slots, replicas, servers_per_rack;
  std::optional<double> cpu_speed, oversubscription, payload_efficiency;
  std::string task_launch_latency, flow_start_latency;
  std::string seed;
  std::vector<std::string> set;
  std::string traffic_scale, map_input_ratio, estimate_error, synthetic_jobs, generator, tcds_group;
  std::string flow_sizes, flow_load, flows;
  std::string trace_format, trace_window;
  std::string system, scheduler, network, trace, jobs;
  bool quiet = false;
  bool check = false;
  bool utilisation = false;
};

void AddRunFlags(CLI::App& cmd, RunFlags& f);

// The set-up the flags give: a config file's, then the flags over it. Each value is checked
// where it is given (InputError naming the flag). `system_replaces`: f.system is one entry of a
// comparison (see ApplySystem).
RunSpec BuildSpec(const RunFlags& f, bool system_replaces = false);

}  // namespace slotflow
