// NodeMeter: each server's mean utilisation over the interval between two readings, as a node
// reports it every heartbeat (JTPW §2.2's node load, read from measured use). CPU is the share
// of its slots whose tasks were computing (a task reading its input or writing its output
// waits on the disk or the network, not the CPU), memory the share in use, the disk and the
// NIC the bytes they carried over what their capacity could have carried (the NIC's busier
// direction). A server without modelled memory or disk shows 0 for it.
#pragma once

#include <utility>
#include <vector>

#include "api/ids.h"
#include "api/state.h"
#include "api/units.h"

namespace slotflow {

class NodeMeter {
 public:
  struct Use {
    double cpu = 0, memory = 0, disk = 0, net = 0;
  };

  // Reads the state now: per server, its mean use since the previous reading (since time 0 at
  // the first). A reading at the same time as the previous one returns that one's values.
  const std::vector<Use>& Read(const SimState& state);

 private:
  bool read_ = false;
  Seconds last_at_ = 0;
  std::vector<SimState::BusyTotals> totals_;  // per server, at the last reading
  // Flows that were active at the last reading, with the bytes they had sent then; flows with
  // ids from seen_ on started after it.
  std::vector<std::pair<FlowId, Bytes>> open_;
  FlowId seen_{0};
  std::vector<Bytes> carried_;  // per link: bytes carried since the last reading (scratch)
  std::vector<Use> use_;
};

}  // namespace slotflow
