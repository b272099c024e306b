// The flags `run`, `compare` and `live` share (the workload, the cluster, the policies and
// their settings, the seed, the outputs) and the RunSpec they make.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "run/run_spec.h"

namespace slotflow {

// The flags as given; BuildSpec checks and applies them.
struct RunFlags {
  std::string command_line;  // how slotflow was invoked, for summary.json
  std::string config, mode, order, queues, out, log;
  std::string seed;
  std::vector<std::string> set;
  std::string generator;
  std::string trace_window;
  std::string system, scheduler, network, trace, jobs;
  // The flags of declared keys, by key: [cluster] keys (cluster/cluster_keys.h), run-wide
  // workload values, generators' settings and the rate allocator's values (run/run_spec.h);
  // empty: not given.
  std::map<std::string, std::string> cluster, workload, rates;
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
