// The messages of live mode: master ↔ agent on the control channel, and the one request a
// fetcher sends to a data server. Each is one JSON object on one line (JSON Lines) with a
// "type"; Encode and Decode are the only places that know the field names.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api/ids.h"

namespace slotflow {

// Agent → master.
struct Hello {  // first message: which host this agent is and where it serves data
  int host = -1;
  uint16_t data_port = 0;
};
struct FlowProgress {  // bytes of flow `flow` received so far by its fetcher
  FlowId flow{-1};
  int64_t bytes = 0;
};
struct FlowDone {
  FlowId flow{-1};
  int64_t bytes = 0;
};
struct TaskDone {
  TaskId task{-1};
  int attempt = 0;  // the launch's: a report of an attempt since cancelled is told apart
};
struct AgentFailure {  // the agent cannot go on; the run stops
  std::string text;
};
struct FetchFailed {  // the fetch of flow `flow` failed (its source may be gone); the task waits
  FlowId flow{-1};
  std::string text;
};
struct Heartbeat {};  // the agent is alive (sent every --heartbeat)

// Master → agent.
struct Fetch {  // one input of a task: `bytes` from the data server at address:port
  FlowId flow{-1};
  std::string address;
  uint16_t port = 0;
  int64_t bytes = 0;
  int cls = 0;  // its live class, see TosOfClass
};
struct Launch {  // run a task: read local_bytes from the local disk, fetch, then compute
  TaskId task{-1};
  int64_t local_bytes = 0;
  double compute_s = 0;
  std::vector<Fetch> fetches;
  int attempt = 0;  // 0 at a task's first launch, one more at each launch after a cancel
};
struct SetClass {  // flow `flow` is now in live class `cls`: re-mark its live sockets
  FlowId flow{-1};
  int cls = 0;
};
struct Stop {};
struct Cancel {  // drop task `task` (its fetches and compute): it runs elsewhere or again later
  TaskId task{-1};
};

// Fetcher → data server, the first line on a data connection; the bytes follow.
struct FetchRequest {
  FlowId flow{-1};
  int64_t bytes = 0;
  int cls = 0;
};

using ControlMessage = std::variant<Hello, FlowProgress, FlowDone, TaskDone, AgentFailure, Launch,
                                    SetClass, Stop, FetchRequest, FetchFailed, Heartbeat, Cancel>;

// A line that is not a well-formed message: not JSON, an unknown type, a missing or mistyped
// field, or a value out of its range.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One line, ending in '\n'.
std::string Encode(const ControlMessage& m);
// One line, with or without its '\n'. Throws ProtocolError.
ControlMessage Decode(std::string_view line);
// The message's "type", for messages such as "master sent an unexpected launch".
std::string_view MessageType(const ControlMessage& m);

// Live mode's priorities (docs/testbed.md): priority 0 (CS7) carries only control traffic, and
// a flow of live class c has priority c + 1, classes 6 and beyond sharing the last, priority 7.
// A flow's live class is the rank of its network-policy class among those of the flows in
// flight (the master's RankClasses), so any policy's classes keep their order.
int PriorityOfClass(int64_t cls);
// The IP_TOS byte a socket of a flow of class `cls` is marked with.
int TosOfClass(int64_t cls);
// The IP_TOS byte of control connections (CS7).
int ControlTos();

}  // namespace slotflow
