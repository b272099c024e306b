#include "cli/live_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "common/error.h"
#include "common/units.h"
#include "live/agent.h"
#include "live/testbed_plan.h"
#include "master/live_run.h"
#include "run/execute.h"
#include "run/policies.h"

namespace slotflow {
namespace {

constexpr const char* kDefaultRate = "100mbit";

}  // namespace

void AddLiveFlags(CLI::App& cmd, LiveOptions& o) {
  cmd.add_option("--hosts", o.hosts, "hosts of the testbed, one per server (same as --servers)")
      ->check(CLI::Range(1, kMaxTestbedHosts));
  cmd.add_option("--rate", o.rate,
                 "every link's rate, and so every server's NIC (default 100mbit, or --nic)");
  cmd.add_option("--deadline", o.deadline,
                 "stop with an error if the run is not over by then (default 300s)");
  cmd.add_option("--agent-timeout", o.agent_timeout,
                 "an agent silent this long (it beats every 1s) is lost and its tasks re-run "
                 "elsewhere (default 5s)");
  cmd.add_option("--journal", o.journal,
                 "SQLite file recording each completed job; started again with it, a run skips "
                 "the jobs it records");
  cmd.add_flag("--keep-testbed", o.keep_testbed, "leave a testbed this run brought up");
  cmd.add_option("--testbed-prefix", o.prefix,
                 "namespace names of the testbed (default sf: sfsw, sfh0, ...)");
}

void ApplyLiveCluster(const LiveOptions& o, RunSpec& spec) {
  if (o.hosts > 0) {
    if (spec.overrides.servers && *spec.overrides.servers != o.hosts) {
      throw InputError("", 0, "--hosts", "contradicts --servers; give one of them");
    }
    spec.overrides.servers = o.hosts;
  }
  if (!o.rate.empty() && spec.overrides.nic) {
    throw InputError("", 0, "--rate", "contradicts --nic; give one of them");
  }
  if (!spec.overrides.nic) {
    const std::string rate = o.rate.empty() ? kDefaultRate : o.rate;
    spec.overrides.nic = static_cast<double>(ParseLinkRate(rate, "--rate")) / 8;
  }
}

RunResult RunLive(const RunSpec& spec, const PreparedRun& run, const LiveOptions& o) {
  if (geteuid() != 0) {
    throw InputError(
        "slotflow live needs root: it brings up the testbed (network namespaces, "
        "veth pairs, tc) and runs agents inside it");
  }
  LiveRunOptions lo;
  lo.master.deadline = ParseSeconds(o.deadline, "--deadline");
  if (!(lo.master.deadline > 0)) throw InputError("", 0, "--deadline", "must be positive");
  lo.master.agent_timeout = ParseSeconds(o.agent_timeout, "--agent-timeout");
  if (!(lo.master.agent_timeout >= 2)) {
    throw InputError("", 0, "--agent-timeout",
                     "must be at least 2s (agents beat every 1s; a shorter wait loses live ones)");
  }
  lo.master.journal = o.journal;
  lo.master.seed = spec.simulation.seed;
  lo.master.estimate_error = spec.simulation.estimate_error;
  lo.keep_testbed = o.keep_testbed;
  const TestbedConfig config = TestbedFor(run.cluster, o.prefix);
  BuiltPolicies policies = BuildPolicies(spec);
  RunResult result = RunOnTestbed(config, run.cluster, run.workload, std::move(policies.scheduler),
                                  std::move(policies.network), lo);
  Describe(spec, run, std::move(policies.in_force), result.summary);
  return result;
}

CLI::App* AddAgentCommand(CLI::App& app, AgentOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "agent",
      "live mode's worker on one host: runs the tasks a master launches (started by "
      "`slotflow live` inside each host's namespace)");
  cmd->add_option("--host", o.host, "this host's index")->required()->check(CLI::NonNegativeNumber);
  cmd->add_option("--master", o.master, "the master's ADDRESS:PORT")->required();
  cmd->add_option("--listen", o.listen, "address the data server listens on (default 0.0.0.0)");
  cmd->add_option("--data-port", o.data_port, "the data server's port (default: any free one)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--connect-timeout", o.connect_timeout,
                  "how long to keep trying to reach the master (default 10s)");
  cmd->add_option("--scratch", o.scratch, "directory for local blocks (default /tmp)");
  return cmd;
}

int RunAgentCommand(const AgentOptions& o) {
  AgentConfig c;
  c.host = o.host;
  const size_t colon = o.master.rfind(':');
  int port = 0;
  if (colon == std::string::npos || std::sscanf(o.master.c_str() + colon + 1, "%d", &port) != 1 ||
      port < 1 || port > 65535) {
    throw InputError("", 0, "--master", "expected ADDRESS:PORT, got '" + o.master + "'");
  }
  c.master_address = o.master.substr(0, colon);
  c.master_port = static_cast<uint16_t>(port);
  c.listen_address = o.listen;
  c.data_port = static_cast<uint16_t>(o.data_port);
  c.connect_timeout = ParseSeconds(o.connect_timeout, "--connect-timeout");
  c.scratch_dir = o.scratch;
  Agent agent(c);
  try {
    agent.Run();
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    fmt::print(stderr, "slotflow agent {}: error: {}\n", o.host, e.what());
    return 2;
  }
  return 0;
}

}  // namespace slotflow
