// What of a testbed is there: its namespaces, each host's address, and the shaping on both ends
// of each host's link, read back from `ip` and `tc`, and whether that is the whole testbed that
// `up` makes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "live/command_runner.h"
#include "live/testbed_plan.h"

namespace slotflow {

// The shaping found on one interface's egress.
struct ShapingStatus {
  std::string qdisc;  // the root qdisc's kind ("htb"), empty if the interface is missing
  std::string rate;   // the rate of HTB class 1:1 as tc prints it ("100Mbit")
  int classes = 0;    // HTB classes, 1:1 and the priority classes
  std::map<int, std::string> filters;  // TOS byte (top three bits) -> the class it selects
  bool ack_filter = false;             // pure TCP ACKs go to priority 0 (TestbedUpPlan)

  // HTB with 1:1 and its 8 priority classes, the ACK filter and the DSCP filters of
  // TestbedUpPlan.
  bool Complete() const;
};

struct HostStatus {
  int index = 0;
  std::string netns;
  std::string address;   // "198.18.0.1/24", empty if none
  ShapingStatus uplink;  // the host's eth0
  ShapingStatus port;    // the switch's port toward the host
};

struct TestbedStatus {
  std::vector<std::string> namespaces;  // those the names own, sorted
  bool has_switch = false;
  std::vector<HostStatus> hosts;      // in index order
  std::vector<std::string> problems;  // what keeps it from being a whole testbed

  bool Up() const { return has_switch && !hosts.empty() && problems.empty(); }
  bool Empty() const { return namespaces.empty(); }
};

// Reads the status of the testbed that `names` owns (needs root: tc enters the namespaces).
TestbedStatus ReadTestbedStatus(const TestbedNames& names, const CommandRunner& run);

// The namespaces present, from `ip -j netns list`.
std::vector<std::string> ListNamespaces(const CommandRunner& run);

// Parsers of iproute2's output (6.1); each throws CommandError on text it cannot read.
std::vector<std::string> ParseNetnsList(const std::string& json);
// `ip -j addr show dev D`: the first IPv4 address with its prefix length, or "".
std::string ParseIpv4Address(const std::string& json);
// `tc -j qdisc show dev D`: the root qdisc's kind, or "".
std::string ParseRootQdisc(const std::string& json);
// `tc class show dev D` (text: iproute2 6.1 prints HTB classes only as text): sets classes and
// rate.
void ParseHtbClasses(const std::string& text, ShapingStatus& status);
// `tc -j filter show dev D`: u32 filters matching the TOS byte, as TOS -> class id.
// Whether that output has the ACK filter of TestbedUpPlan (its last match, on the TCP flags,
// sending to priority 0's class).
bool HasAckFilter(const std::string& text);
std::map<int, std::string> ParseTosFilters(const std::string& json);

}  // namespace slotflow
