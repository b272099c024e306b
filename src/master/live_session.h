// Live mode end to end on this machine's testbed (live/testbed.h): the testbed brought up if it
// is down, the master (master/master.h) listening on host 0, one `slotflow agent` per host
// started inside the host's namespace (live/agent_processes.h), and on the way out, also on
// failure, the agents stopped and a testbed this run brought up taken down again.
#pragma once

#include <memory>
#include <string>

#include "api/cluster.h"
#include "api/job.h"
#include "api/network_policy.h"
#include "api/task_scheduler.h"
#include "live/testbed_plan.h"
#include "master/master.h"
#include "sim/simulator.h"

namespace slotflow {

// The testbed `cluster` runs on: one host per server, named after `prefix` (docs/testbed.md),
// every link at the servers' NIC rate. InputError when the cluster cannot run on one: two
// tiers, or NICs of several rates.
TestbedConfig TestbedFor(const Cluster& cluster, const std::string& prefix);

struct LiveRunOptions {
  MasterConfig master;        // its listen address is set to host 0's
  bool keep_testbed = false;  // leave up a testbed this run brought up
  std::string agent_program;  // the slotflow executable the agents run; empty: this program
};

// Runs the workload on the testbed `config` describes and returns the measured results.
// InputError when another testbed is up under the same names, or when the run fails (an agent,
// the deadline); CommandError when `ip` or `tc` fails.
RunResult RunOnTestbed(const TestbedConfig& config, const Cluster& cluster,
                       const Workload& workload, std::unique_ptr<TaskScheduler> scheduler,
                       std::unique_ptr<NetworkPolicy> network, const LiveRunOptions& options);

}  // namespace slotflow
