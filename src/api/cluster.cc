#include "api/cluster.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "api/error.h"

namespace slotflow {

int ClusterSpec::ServerCount() const {
  int n = 0;
  for (const auto& c : classes) n += c.count;
  return n;
}

void ClusterSpec::Validate() const {
  if (classes.empty()) throw InputError("", 0, "cluster", "the cluster has no servers");
  int64_t total_slots = 0, servers = 0;
  auto finite_positive = [](double v) { return v > 0 && std::isfinite(v); };
  for (const auto& c : classes) {
    const std::string p =
        classes.size() == 1 ? "cluster." : fmt::format("cluster.class '{}'.", c.name);
    if (c.count <= 0)
      throw InputError("", 0, p + "servers", fmt::format("must be at least 1, got {}", c.count));
    servers += c.count;
    if (servers > kMaxServers) {
      throw InputError(
          "", 0, p + "servers",
          fmt::format("the cluster would have {} servers; the limit is {}", servers, kMaxServers));
    }
    if (c.slots < 0 || c.slots > kMaxSlotsPerServer) {
      throw InputError("", 0, p + "slots",
                       fmt::format("must be in [0, {}], got {}", kMaxSlotsPerServer, c.slots));
    }
    if (!finite_positive(c.cpu_speed))
      throw InputError("", 0, p + "cpu_speed", "must be a finite positive number");
    if (!finite_positive(c.nic)) throw InputError("", 0, p + "nic", "must be finite and positive");
    if (!(c.disk >= 0) || !std::isfinite(c.disk))
      throw InputError("", 0, p + "disk", "must be finite and non-negative");
    if (!(c.memory >= 0) || !std::isfinite(c.memory))
      throw InputError("", 0, p + "memory", "must be finite and non-negative");
    total_slots += int64_t{c.slots} * c.count;
  }
  if (total_slots == 0) {
    throw InputError("", 0, "cluster.slots",
                     "the cluster has 0 compute slots: no task could ever run");
  }
  if (!finite_positive(slot_rate))
    throw InputError("", 0, "cluster.slot_rate", "must be finite and positive");
  if (servers_per_rack <= 0)
    throw InputError("", 0, "cluster.servers_per_rack", "must be at least 1");
  if (!finite_positive(oversubscription))
    throw InputError("", 0, "cluster.oversubscription", "must be finite and positive");
  if (!(rack_link >= 0) || !std::isfinite(rack_link))
    throw InputError("", 0, "cluster.rack_link", "must be finite and non-negative");
  if (replicas <= 0) throw InputError("", 0, "cluster.replicas", "must be at least 1");
  if (!(payload_efficiency > 0 && payload_efficiency <= 1)) {
    throw InputError("", 0, "cluster.payload_efficiency",
                     fmt::format("must be in (0, 1], got {}", payload_efficiency));
  }
  for (const auto& [field, v] : {std::pair{"cluster.task_launch_latency", task_launch_latency},
                                 std::pair{"cluster.flow_start_latency", flow_start_latency}}) {
    if (!(v >= 0) || !std::isfinite(v)) {
      throw InputError("", 0, field, fmt::format("must be finite and non-negative, got {}", v));
    }
  }
}

Cluster::Cluster(const ClusterSpec& spec) : spec_(spec) {
  ServerId id{0};
  for (const auto& c : spec.classes) {
    for (int i = 0; i < c.count; ++i, ++id) {
      servers_.push_back(Server{id, id / spec.servers_per_rack, c.slots, c.cpu_speed, c.nic, c.disk,
                                c.memory, c.name});
      total_slots_ += c.slots;
      link_capacity_.push_back(c.nic * spec.payload_efficiency);  // uplink
      link_capacity_.push_back(c.nic * spec.payload_efficiency);  // downlink
    }
  }
  racks_ = (size() + spec.servers_per_rack - 1) / spec.servers_per_rack;
  first_rack_link_ = LinkId{LinkCount()};
  if (spec.topology == TopologyKind::kTwoTier) {
    for (int r = 0; r < racks_; ++r) {
      BytesPerSecond sum = 0;
      for (const auto& s : servers_)
        if (s.rack == r) sum += s.nic;
      const BytesPerSecond cap =
          (spec.rack_link > 0 ? spec.rack_link : sum / spec.oversubscription) *
          spec.payload_efficiency;
      link_capacity_.push_back(cap);  // rack uplink
      link_capacity_.push_back(cap);  // rack downlink
    }
  }
  bool any_disk = false;
  for (const auto& s : servers_) any_disk |= s.disk > 0;
  network_links_ = LinkCount();
  if (any_disk) {
    for (const auto& s : servers_) {
      if (s.disk > 0) {
        disk_link_.push_back(LinkId{LinkCount()});
        link_capacity_.push_back(s.disk);
      } else {
        disk_link_.push_back(kNoLink);
      }
    }
  }
}

std::string Cluster::LinkName(LinkId l) const {
  if (l < first_rack_link_) return fmt::format("server{}.{}", l / 2, l % 2 ? "down" : "up");
  const int rack_links = spec_.topology == TopologyKind::kTwoTier ? 2 * racks_ : 0;
  if (l < first_rack_link_ + rack_links) {
    const int k = l - first_rack_link_;
    return fmt::format("rack{}.{}", k / 2, k % 2 ? "down" : "up");
  }
  for (ServerId s{0}; s < size(); ++s)
    if (Disk(s) == l) return fmt::format("server{}.disk", s);
  return fmt::format("link{}", l);
}

std::vector<LinkId> Cluster::Path(ServerId src, ServerId dst) const {
  if (src == dst) return {};
  const int rs = servers_[src].rack, rd = servers_[dst].rack;
  if (spec_.topology == TopologyKind::kTwoTier && rs != rd) {
    return {Uplink(src), RackUplink(rs), RackDownlink(rd), Downlink(dst)};
  }
  return {Uplink(src), Downlink(dst)};
}

}  // namespace slotflow
