// Agent: live mode's worker, one per host (run inside the host's namespace by `slotflow
// agent`). It connects to the master, serves bytes to any fetcher on its data port, and runs
// the tasks the master launches: read the local block, fetch every input over TCP marked with
// the class the master gave it, compute (sleep) for the time given, then say it is done. It
// knows nothing of schedulers or policies: it does what the control messages say
// (live/control_message.h) and reports what it measured. A fetch that fails (its source may be
// gone) is reported and its task waits for the master, which cancels it; the agent goes on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/ids.h"
#include "api/units.h"

namespace slotflow {

struct AgentConfig {
  int host = 0;
  std::string master_address = "127.0.0.1";
  uint16_t master_port = 0;
  std::string listen_address = "0.0.0.0";  // where the data server listens
  uint16_t data_port = 0;                  // 0: any free port
  std::string scratch_dir = "/tmp";        // where local blocks are written and read back
  Seconds connect_timeout = 10;            // to reach the master
  Seconds progress_interval = 0.1;         // between flow_progress reports of one flow
  Seconds heartbeat_interval = 1;          // between heartbeats to the master
};

class Agent {
 public:
  // Opens the data server. InputError if it cannot listen there.
  explicit Agent(AgentConfig config);
  ~Agent();

  uint16_t data_port() const;
  // Connects to the master, says hello and serves until the master says stop or closes the
  // connection. InputError when the master cannot be reached within connect_timeout; a
  // std::runtime_error naming what failed when a task cannot go on (after telling the master).
  void Run();
  // Ends Run() from another thread.
  void Stop();
  // The IP_TOS of every open socket of flow f, fetching or serving (from another thread, while
  // Run() runs).
  std::vector<int> FlowSocketTos(FlowId f);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace slotflow
