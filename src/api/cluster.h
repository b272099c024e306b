// The cluster: servers with compute slots and NICs, grouped in racks, and the topology
// that turns a (source, destination) pair into the links a transfer crosses.
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/ids.h"
#include "api/units.h"

namespace slotflow {

// One class of identical servers; a heterogeneous cluster is a list of classes.
struct ServerClass {
  std::string name = "default";
  int count = 50;
  int slots = 4;
  double cpu_speed = 1.0;        // relative; compute time = work / (slot_rate * cpu_speed)
  BytesPerSecond nic = 1e9 / 8;  // up and down, each direction
  BytesPerSecond disk = 0;       // 0 = not modelled (unlimited)
  Bytes memory = 0;              // 0 = not modelled (any task fits)
};

enum class TopologyKind { kBigSwitch, kTwoTier };

// How a map task that does not run where its block is reads it. kNetwork: the block crosses the
// network from a holder. kComputeOnly: no network use (Duopoly §2.1: map reads are 99 % local
// and their output can use idle network, so map tasks are modelled as compute only); the read
// still counts as remote for locality.
enum class MapReads { kNetwork, kComputeOnly };

// Limits on what one cluster description may ask for, checked before anything is allocated:
// far beyond the papers' clusters (at most a few hundred servers) yet small enough that a
// typo cannot exhaust memory.
inline constexpr int kMaxServers = 100000;
inline constexpr int kMaxSlotsPerServer = 10000;

struct ClusterSpec {
  std::vector<ServerClass> classes{ServerClass{}};
  TopologyKind topology = TopologyKind::kBigSwitch;
  int servers_per_rack = 10;       // two-tier (and rack locality for schedulers)
  double oversubscription = 1.0;   // two-tier: rack link = servers_per_rack * nic / this
  BytesPerSecond rack_link = 0;    // two-tier: explicit rack up/down capacity, overrides above
  BytesPerSecond slot_rate = 1e9;  // compute speed of one slot, bytes of input per second
  int replicas = 3;                // input block replicas on distinct servers
  MapReads map_reads = MapReads::kNetwork;
  // What a real cluster's transport and task launch add to the fluid model (docs/live.md); the
  // defaults add nothing. payload_efficiency: the share of a network link's rate that carries
  // payload (TCP/IP headers take the rest), so every server and rack link's capacity is its rate
  // times this. task_launch_latency: a placed task holds its slot this long before its reads
  // start. flow_start_latency: a task whose reads cross the network waits this much more before
  // its flows move bytes (connection set-up; its flows start together).
  double payload_efficiency = 1.0;
  Seconds task_launch_latency = 0;
  Seconds flow_start_latency = 0;

  int ServerCount() const;
  // Throws InputError (field names as in the config file) on impossible clusters.
  void Validate() const;
};

struct Server {
  ServerId id;
  int rack;
  int slots;
  double cpu_speed;
  BytesPerSecond nic;
  BytesPerSecond disk;
  Bytes memory;
  std::string class_name;
};

class Cluster {
 public:
  explicit Cluster(const ClusterSpec& spec);

  const ClusterSpec& spec() const { return spec_; }
  const std::vector<Server>& servers() const { return servers_; }
  const Server& server(ServerId id) const { return servers_[id]; }
  int size() const { return static_cast<int>(servers_.size()); }
  int racks() const { return racks_; }
  int64_t TotalSlots() const { return total_slots_; }

  // Links: every server has an uplink and a downlink; two-tier adds one uplink and one
  // downlink per rack; a modelled disk is one more link per server.
  int LinkCount() const { return static_cast<int>(link_capacity_.size()); }
  // The links of the network (server and rack links) are 0 .. NetworkLinkCount() − 1; the
  // disks come after them.
  int NetworkLinkCount() const { return network_links_; }
  BytesPerSecond LinkCapacity(LinkId l) const { return link_capacity_[l]; }
  const std::vector<BytesPerSecond>& link_capacities() const { return link_capacity_; }
  LinkId Uplink(ServerId s) const { return LinkId{2 * s}; }
  LinkId Downlink(ServerId s) const { return LinkId{2 * s + 1}; }
  // kNoLink when the server's disk is not modelled.
  LinkId Disk(ServerId s) const { return disk_link_.empty() ? kNoLink : disk_link_[s]; }
  // Whether any server's disk is modelled.
  bool HasDisks() const { return !disk_link_.empty(); }
  std::string LinkName(LinkId l) const;

  // Links crossed by a network transfer from `src` to `dst` (empty when src == dst). Disk
  // links are not included: the caller adds the source's disk for block reads.
  std::vector<LinkId> Path(ServerId src, ServerId dst) const;

 private:
  // Two-tier: rack r's uplink and downlink, after every server's links.
  LinkId RackUplink(int r) const { return LinkId{first_rack_link_ + 2 * r}; }
  LinkId RackDownlink(int r) const { return LinkId{first_rack_link_ + 2 * r + 1}; }

  ClusterSpec spec_;
  std::vector<Server> servers_;
  std::vector<BytesPerSecond> link_capacity_;
  std::vector<LinkId> disk_link_;
  int racks_ = 1;
  int64_t total_slots_ = 0;
  LinkId first_rack_link_{0};
  int network_links_ = 0;
};

}  // namespace slotflow
