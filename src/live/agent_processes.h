// The agents of a live run: one `slotflow agent` per host, each started inside the host's
// network namespace with `ip netns exec` (which execs it, so the process started is the
// agent), and stopped when the run is over.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace slotflow {

class AgentProcesses {
 public:
  AgentProcesses() = default;
  AgentProcesses(const AgentProcesses&) = delete;
  AgentProcesses& operator=(const AgentProcesses&) = delete;
  // Ends the agents still running (Stop with no grace).
  ~AgentProcesses();

  // Starts `PROGRAM agent --host HOST --master MASTER` in namespace `netns`, where PROGRAM is
  // `program` (a slotflow executable), or this program when it is empty. CommandError if it
  // cannot be started.
  void Start(const std::string& netns, int host, const std::string& master,
             const std::string& program = "");
  // Waits up to `grace` for the agents to end by themselves, then ends the rest (SIGTERM, then
  // SIGKILL) and reaps them.
  void Stop(std::chrono::milliseconds grace);

 private:
  std::vector<pid_t> pids_;
};

}  // namespace slotflow
