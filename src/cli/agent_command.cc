// `slotflow agent`: live mode's worker on one host (live/agent.h), started by `slotflow live`
// inside each host's namespace.
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "api/error.h"
#include "api/units.h"
#include "cli/commands.h"
#include "live/agent.h"

namespace slotflow {
namespace {

struct AgentOptions {
  int host = -1;
  std::string master;  // ADDRESS:PORT
  std::string listen = "0.0.0.0";
  int data_port = 0;
  std::string connect_timeout = "10s";
  std::string scratch = "/tmp";
};

// Runs an agent until the master says stop; 0 then, 2 with a message on failure.
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
  c.connect_timeout = ParseWaitSeconds(o.connect_timeout, "--connect-timeout");
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

}  // namespace

Subcommand AddAgentCommand(CLI::App& app) {
  auto options = std::make_shared<AgentOptions>();
  AgentOptions& o = *options;
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
  return {cmd, [options] { return RunAgentCommand(*options); }};
}

}  // namespace slotflow
