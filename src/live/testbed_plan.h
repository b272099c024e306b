// The emulated cluster of live mode, as a plan of `ip` and `tc` commands: N hosts, each a
// network namespace joined by a veth pair to one switch namespace holding a Linux bridge. Every
// link is shaped to one rate by HTB in both directions (the host's uplink and the switch port's
// egress toward the host), and on each of those egresses 8 classes share the rate in strict
// priority, chosen by the packet's DSCP. Building a plan needs no privileges; running it does
// (live/testbed.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slotflow {

inline constexpr int kMaxTestbedHosts = 254;              // one /24 of 198.18.0.0/15
inline constexpr size_t kMaxTestbedPrefix = 12;           // characters of a testbed's prefix
inline constexpr int kPriorityClasses = 8;                // HTB's priorities 0 (first) .. 7
inline constexpr uint64_t kMinLinkRate = 1'000'000;       // bit/s
inline constexpr uint64_t kMaxLinkRate = 10'000'000'000;  // bit/s

// What a testbed's namespaces and interfaces are called. Everything a testbed makes lives in
// namespaces named <prefix>sw and <prefix>h0, <prefix>h1, ..., so `down` finds it all by name.
struct TestbedNames {
  std::string prefix = "sf";

  std::string Switch() const;      // "sfsw": the bridge "br0" and the ports "port0".."portN-1"
  std::string Host(int i) const;   // "sfh3": its one interface is "eth0"
  static std::string Port(int i);  // the switch's end of host i's link
  // True for the switch's and any host's namespace name (of any index) under this prefix.
  bool Owns(std::string_view netns) const;
  // The command that takes this testbed down: `slotflow testbed down`, with --testbed-prefix
  // when the prefix is not the default.
  std::string DownCommand() const;
};

inline constexpr std::string_view kBridge = "br0";
inline constexpr std::string_view kHostInterface = "eth0";

// The names under `prefix`, which must be 1 to 12 lowercase letters or digits (InputError
// naming `field` otherwise): a namespace name is a file name, and the capacity probe of
// `testbed calibrate` adds a letter.
TestbedNames MakeTestbedNames(std::string_view prefix, std::string_view field);

struct TestbedConfig {
  int hosts = 0;
  uint64_t rate = 100'000'000;  // bit/s, each link, each direction
  TestbedNames names;
};

// Checks `hosts` (1..kMaxTestbedHosts) and parses `rate`; an InputError names --hosts or --rate.
TestbedConfig MakeTestbedConfig(int hosts, std::string_view rate);

// A link rate in bit/s: tc's forms ("100mbit", "1gbit", "500kbit", "1000000bit"; any case) or
// slotflow's ("100Mbps", "12.5MB/s"). Throws InputError naming `field` on anything else or
// outside kMinLinkRate..kMaxLinkRate.
uint64_t ParseLinkRate(std::string_view text, std::string_view field);

// Host i's address, 198.18.0.(i+1); every host is in 198.18.0.0/24 (kHostPrefixLength).
std::string HostAddress(int i);
inline constexpr int kHostPrefixLength = 24;

// DSCP to priority: the top three bits of the DSCP (its class selector, as IP precedence was)
// pick the class, and a higher precedence goes first: CS7 (DSCP 56) is priority 0, CS0 (DSCP 0,
// unmarked traffic) is priority 7. Any DSCP maps: DSCP d has priority 7 - d / 8.
int PriorityOfDscp(int dscp);
// The DSCP that selects `priority` (0..7): the class selector (7 - priority) * 8.
int DscpOfPriority(int priority);
// The same as the whole TOS byte (DSCP << 2), as IP_TOS and `iperf3 --tos` take it.
int TosOfPriority(int priority);
// The HTB class of `priority` under handle 1:, "1:10" .. "1:17". Packets that are not IPv4
// (ARP) go to priority 0, so address resolution never waits behind bulk traffic.
std::string PriorityClassId(int priority);

// One command, as the argument vector it is run with (no shell).
struct Command {
  std::vector<std::string> argv;
};

// Everything `up` runs, in order: namespaces, the bridge, one veth pair per host, addresses,
// then the shaping of both ends of every link.
std::vector<Command> TestbedUpPlan(const TestbedConfig& config);
// The HTB tree on one interface: root 1: at `rate`, classes 1:10..1:17 of priorities 0..7 that
// may each borrow all of it, and u32 filters from the TOS byte's top three bits to the classes.
std::vector<Command> ShapingPlan(std::string_view netns, std::string_view dev, uint64_t rate);
// `down`: deletes each of `existing` (the namespaces present) that `names` owns. Deleting a
// namespace deletes the veth ends in it and so their peers.
std::vector<Command> TestbedDownPlan(const std::vector<std::string>& existing,
                                     const TestbedNames& names);

}  // namespace slotflow
