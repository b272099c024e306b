#include "master/live_session.h"

#include <fmt/format.h>

#include <chrono>
#include <exception>

#include "api/error.h"
#include "live/agent_processes.h"
#include "live/command_runner.h"
#include "live/netns_scope.h"
#include "live/testbed.h"
#include "live/testbed_status.h"

namespace slotflow {
namespace {

// Takes the testbed down at the end if this run brought it up.
struct TestbedGuard {
  TestbedNames names;
  bool remove = false;
  ~TestbedGuard() {
    if (!remove) return;
    try {
      TestbedDown(names);
    } catch (const std::exception& e) {
      fmt::print(stderr, "slotflow: warning: taking the testbed down failed: {}\n", e.what());
    }
  }
};

// Uses a testbed that is up with the right hosts and rate, or brings one up; returns whether
// it did.
bool EnsureTestbed(const TestbedConfig& config) {
  const TestbedStatus st = ReadTestbedStatus(config.names, RunProgram);
  if (st.Empty()) {
    TestbedUp(config);
    return true;
  }
  const bool same = st.Up() && static_cast<int>(st.hosts.size()) == config.hosts &&
                    ParseLinkRate(st.hosts.front().uplink.rate, "testbed") == config.rate;
  if (!same) {
    throw InputError("", 0, "--hosts",
                     fmt::format("a testbed other than the {} hosts at {} Mbit/s asked for is "
                                 "there ({}); `{}` first",
                                 config.hosts, static_cast<double>(config.rate) / 1e6,
                                 st.Up() ? fmt::format("{} hosts at {}", st.hosts.size(),
                                                       st.hosts.front().uplink.rate)
                                         : "half made",
                                 config.names.DownCommand()));
  }
  return false;
}

void CheckCluster(const Cluster& cluster, const TestbedConfig& config) {
  if (cluster.spec().topology != TopologyKind::kBigSwitch) {
    throw InputError("", 0, "--topology", "the testbed is one switch: use big-switch");
  }
  for (const Server& sv : cluster.servers()) {
    if (cluster.LinkCapacity(cluster.Uplink(sv.id)) * 8 != static_cast<double>(config.rate)) {
      throw InputError("", 0, "--rate",
                       "every server's NIC must run at the testbed's link rate; the cluster "
                       "has servers of other NIC rates");
    }
  }
}

}  // namespace

TestbedConfig TestbedFor(const Cluster& cluster, const std::string& prefix) {
  const uint64_t bits =
      static_cast<uint64_t>(cluster.LinkCapacity(cluster.Uplink(ServerId{0})) * 8 + 0.5);
  TestbedConfig config = MakeTestbedConfig(cluster.size(), fmt::format("{}bit", bits));
  config.names = MakeTestbedNames(prefix, "--testbed-prefix");
  CheckCluster(cluster, config);
  return config;
}

RunResult RunOnTestbed(const TestbedConfig& config, const Cluster& cluster,
                       const Workload& workload, std::unique_ptr<TaskScheduler> scheduler,
                       std::unique_ptr<NetworkPolicy> network, const LiveRunOptions& options) {
  TestbedGuard testbed{config.names};
  testbed.remove = EnsureTestbed(config) && !options.keep_testbed;
  MasterConfig mc = options.master;
  mc.listen_address = HostAddress(0);
  std::unique_ptr<Master> master;
  {
    const NetnsScope on_host0(config.names.Host(0));
    master =
        std::make_unique<Master>(cluster, workload, std::move(scheduler), std::move(network), mc);
  }
  AgentProcesses agents;
  const std::string at = fmt::format("{}:{}", HostAddress(0), master->port());
  for (int i = 0; i < cluster.size(); ++i)
    agents.Start(config.names.Host(i), i, at, options.agent_program);
  RunResult result;
  try {
    result = master->Run();
  } catch (const LiveRunError& e) {
    throw InputError(std::string("the live run failed: ") + e.what());
  }
  agents.Stop(std::chrono::seconds(3));
  return result;
}

}  // namespace slotflow
