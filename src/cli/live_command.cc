#include "cli/live_command.h"

#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "common/error.h"
#include "live/agent.h"
#include "live/netns_scope.h"
#include "live/testbed.h"
#include "live/testbed_status.h"
#include "master/master.h"
#include "run/execute.h"
#include "run/policies.h"

extern char** environ;

namespace slotflow {
namespace {

constexpr const char* kDefaultRate = "100mbit";

std::string Program(const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return c;
  }
  return candidates.front();
}

// One `slotflow agent` per host, started with `ip netns exec` (which execs it, so the pid is
// the agent's); stopped by the destructor if still running.
class AgentProcesses {
 public:
  void Start(const std::string& netns, int host, const std::string& master) {
    const std::string ip = Program({"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"});
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::vector<std::string> args = {ip,         "netns", "exec",   netns,
                                     self,       "agent", "--host", std::to_string(host),
                                     "--master", master};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, ip.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
      throw CommandError("cannot start " + CommandLine(args));
    }
    pids_.push_back(pid);
  }
  // Waits up to `grace` for the agents to end by themselves, then ends the rest.
  void Stop(std::chrono::milliseconds grace) {
    const auto until = std::chrono::steady_clock::now() + grace;
    for (bool signalled = false;;) {
      std::erase_if(pids_, [](pid_t p) { return waitpid(p, nullptr, WNOHANG) != 0; });
      if (pids_.empty()) return;
      if (std::chrono::steady_clock::now() >= until) {
        for (pid_t p : pids_) kill(p, signalled ? SIGKILL : SIGTERM);
        if (signalled) {
          for (pid_t p : pids_) waitpid(p, nullptr, 0);
          pids_.clear();
          return;
        }
        signalled = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~AgentProcesses() { Stop(std::chrono::milliseconds(0)); }

 private:
  std::vector<pid_t> pids_;
};

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
                                 "there ({}); `slotflow testbed down` first",
                                 config.hosts, static_cast<double>(config.rate) / 1e6,
                                 st.Up() ? fmt::format("{} hosts at {}", st.hosts.size(),
                                                       st.hosts.front().uplink.rate)
                                         : "half made"));
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
  const Seconds deadline = ParseSeconds(o.deadline, "--deadline");
  if (!(deadline > 0)) throw InputError("", 0, "--deadline", "must be positive");
  const Seconds agent_timeout = ParseSeconds(o.agent_timeout, "--agent-timeout");
  if (!(agent_timeout >= 2)) {
    throw InputError("", 0, "--agent-timeout",
                     "must be at least 2s (agents beat every 1s; a shorter wait loses live ones)");
  }
  const uint64_t bits = static_cast<uint64_t>(run.cluster.LinkCapacity(0) * 8 + 0.5);
  TestbedConfig config = MakeTestbedConfig(run.cluster.size(), fmt::format("{}bit", bits));
  config.names = TestbedNames{o.prefix};
  CheckCluster(run.cluster, config);
  BuiltPolicies policies = BuildPolicies(spec);
  TestbedGuard testbed{config.names};
  testbed.remove = EnsureTestbed(config) && !o.keep_testbed;

  MasterConfig mc;
  mc.listen_address = HostAddress(0);
  mc.deadline = deadline;
  mc.agent_timeout = agent_timeout;
  mc.journal = o.journal;
  mc.seed = spec.simulation.seed;
  mc.estimate_error = spec.simulation.estimate_error;
  std::unique_ptr<Master> master;
  {
    const NetnsScope on_host0(config.names.Host(0));
    master = std::make_unique<Master>(run.cluster, run.workload, std::move(policies.scheduler),
                                      std::move(policies.network), mc);
  }
  AgentProcesses agents;
  const std::string at = fmt::format("{}:{}", HostAddress(0), master->port());
  for (int i = 0; i < run.cluster.size(); ++i) agents.Start(config.names.Host(i), i, at);
  RunResult result;
  try {
    result = master->Run();
  } catch (const LiveRunError& e) {
    throw InputError(std::string("the live run failed: ") + e.what());
  }
  agents.Stop(std::chrono::seconds(3));
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
