#include "cluster/cluster_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "api/error.h"
#include "cluster/cluster_config.h"

namespace slotflow {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

SettingSpec Spec(std::string name, SettingKind kind, std::string default_value, std::string meaning,
                 double min, double max, bool min_exclusive = false,
                 std::vector<std::string> choices = {}) {
  return SettingSpec{.name = std::move(name),
                     .kind = kind,
                     .default_value = std::move(default_value),
                     .meaning = std::move(meaning),
                     .min = min,
                     .max = max,
                     .min_exclusive = min_exclusive,
                     .choices = std::move(choices)};
}

// A server's key, set through the member it names.
template <class T>
ClusterKey ServerKey(SettingSpec setting, T ServerClass::*member) {
  return ClusterKey{
      .setting = std::move(setting),
      .set_server = [member](ServerClass& c,
                             const KeyValue& v) { c.*member = static_cast<T>(v.number); },
      .get_server =
          [member](const ServerClass& c) {
            return KeyValue{static_cast<double>(c.*member), ""};
          },
      .set = nullptr,
      .get = nullptr};
}

// A cluster-wide number, set and read through the member it names.
template <class T>
ClusterKey WideKey(SettingSpec setting, T ClusterSpec::*member) {
  return ClusterKey{
      .setting = std::move(setting),
      .set_server = nullptr,
      .get_server = nullptr,
      .set = [member](ClusterSpec& c, const KeyValue& v,
                      const SettingAssignment&) { c.*member = static_cast<T>(v.number); },
      .get =
          [member](const ClusterSpec& c) {
            return KeyValue{static_cast<double>(c.*member), ""};
          }};
}

// The server count and each server's keys.
std::vector<ClusterKey> ServerKeys() {
  using K = SettingKind;
  std::vector<ClusterKey> keys;
  keys.push_back(ClusterKey{
      .setting = Spec("servers", K::kInteger, "50", "number of servers (single-class clusters)", 1,
                      kMaxServers),
      .set_server = nullptr,
      .get_server = nullptr,
      .set =
          [](ClusterSpec& c, const KeyValue& v, const SettingAssignment& given) {
            if (c.classes.size() != 1) {
              throw InputError(given.file, given.line, given.field,
                               fmt::format("the cluster has {} server classes: set each class's "
                                           "count in [[cluster.class]] instead",
                                           c.classes.size()));
            }
            c.classes[0].count = static_cast<int>(v.number);
          },
      .get = nullptr});
  keys.push_back(
      ServerKey(Spec("slots", K::kInteger, "4", "compute slots per server", 0, kMaxSlotsPerServer),
                &ServerClass::slots));
  keys.push_back(ServerKey(
      Spec("cpu_speed", K::kNumber, "1", "relative CPU speed of a server", 0, kInfinity, true),
      &ServerClass::cpu_speed));
  keys.push_back(
      ServerKey(Spec("nic", K::kRate, "1Gbps", "NIC capacity, each direction, e.g. 1Gbps, 125MB/s",
                     0, kInfinity, true),
                &ServerClass::nic));
  keys.push_back(
      ServerKey(Spec("disk", K::kRate, "0",
                     "disk bandwidth per server, e.g. 200MB/s (0: not modelled)", 0, kInfinity),
                &ServerClass::disk));
  keys.push_back(ServerKey(Spec("memory", K::kBytes, "0",
                                "memory per server (0: not modelled, any task fits)", 0, kInfinity),
                           &ServerClass::memory));
  return keys;
}

// The cluster-wide keys: topology, racks, compute rate, replicas, map reads, and what a real
// transport and task launch add.
std::vector<ClusterKey> WideKeys() {
  using K = SettingKind;
  std::vector<ClusterKey> keys;
  keys.push_back(
      ClusterKey{.setting = Spec("topology", K::kChoice, "big-switch",
                                 "big-switch (one non-blocking switch) or two-tier (racks)", 0, 0,
                                 false, {"big-switch", "two-tier"}),
                 .set_server = nullptr,
                 .get_server = nullptr,
                 .set =
                     [](ClusterSpec& c, const KeyValue& v, const SettingAssignment& given) {
                       c.topology = ParseTopology(v.word, given.field);
                     },
                 .get =
                     [](const ClusterSpec& c) {
                       return KeyValue{0, std::string(TopologyName(c.topology))};
                     }});
  keys.push_back(
      WideKey(Spec("servers_per_rack", K::kInteger, "10",
                   "servers per rack (two-tier; rack locality for schedulers)", 1, kMaxServers),
              &ClusterSpec::servers_per_rack));
  keys.push_back(WideKey(Spec("oversubscription", K::kNumber, "1",
                              "two-tier rack uplink oversubscription", 0, kInfinity, true),
                         &ClusterSpec::oversubscription));
  keys.push_back(WideKey(Spec("rack_link", K::kRate, "0",
                              "two-tier: explicit rack up/down capacity (0: from "
                              "oversubscription)",
                              0, kInfinity),
                         &ClusterSpec::rack_link));
  keys.push_back(
      WideKey(Spec("slot_rate", K::kRate, "1GB/s",
                   "compute rate of one slot, in bytes of input per second", 0, kInfinity, true),
              &ClusterSpec::slot_rate));
  keys.push_back(
      WideKey(Spec("replicas", K::kInteger, "3", "replicas of each input block", 1, kMaxServers),
              &ClusterSpec::replicas));
  keys.push_back(ClusterKey{
      .setting = Spec("map_reads", K::kChoice, "network",
                      "how a map task away from its block reads it: network, or compute-only "
                      "(Duopoly §2.1: no network use)",
                      0, 0, false, {"network", "compute-only"}),
      .set_server = nullptr,
      .get_server = nullptr,
      .set =
          [](ClusterSpec& c, const KeyValue& v, const SettingAssignment& given) {
            c.map_reads = ParseMapReads(v.word, given.field);
          },
      .get =
          [](const ClusterSpec& c) {
            return KeyValue{0, std::string(MapReadsName(c.map_reads))};
          }});
  keys.push_back(WideKey(Spec("payload_efficiency", K::kNumber, "1",
                              "share of a network link's rate that carries payload (TCP/IP "
                              "headers take the rest; `slotflow testbed calibrate` measures it)",
                              0, 1, true),
                         &ClusterSpec::payload_efficiency));
  keys.push_back(WideKey(
      Spec("task_launch_latency", K::kSeconds, "0s",
           "time from a task's placement to the start of its reads, e.g. 5ms", 0, kInfinity),
      &ClusterSpec::task_launch_latency));
  keys.push_back(WideKey(Spec("flow_start_latency", K::kSeconds, "0s",
                              "more time before a task's network flows move bytes (connection "
                              "set-up), e.g. 2ms",
                              0, kInfinity),
                         &ClusterSpec::flow_start_latency));
  return keys;
}

std::vector<ClusterKey>& Keys() {
  static std::vector<ClusterKey> keys = [] {
    std::vector<ClusterKey> all = ServerKeys();
    for (ClusterKey& k : WideKeys()) all.push_back(std::move(k));
    return all;
  }();
  return keys;
}

}  // namespace

const std::vector<ClusterKey>& ClusterKeys() { return Keys(); }

const ClusterKey* FindClusterKey(std::string_view name) {
  for (const ClusterKey& k : Keys()) {
    if (k.setting.name == name) return &k;
  }
  return nullptr;
}

void DeclareClusterKey(ClusterKey key) {
  if (FindClusterKey(key.setting.name) != nullptr || key.setting.name == "class") {
    throw std::logic_error(fmt::format("cluster key '{}' is declared twice", key.setting.name));
  }
  Keys().push_back(std::move(key));
}

void RemoveClusterKey(std::string_view name) {
  std::erase_if(Keys(), [&](const ClusterKey& k) { return k.setting.name == name; });
}

KeyValue ParseClusterValue(const SettingAssignment& given) {
  const ClusterKey* key = FindClusterKey(given.key);
  if (key == nullptr) {
    std::string known;
    for (const ClusterKey& k : Keys()) {
      known += fmt::format("{}{}", known.empty() ? "" : ", ", k.setting.name);
    }
    throw InputError(given.file, given.line, given.field,
                     fmt::format("unknown cluster key '{}' (known: {})", given.key, known));
  }
  KeyValue v;
  v.number = ParseSetting(key->setting, given, v.word);
  return v;
}

void ApplyClusterValue(const ClusterKey& key, const KeyValue& value, const SettingAssignment& given,
                       ClusterSpec& spec) {
  if (key.set_server) {
    for (ServerClass& c : spec.classes) key.set_server(c, value);
  } else {
    key.set(spec, value, given);
  }
}

void ApplyClusterSetting(const SettingAssignment& given, ClusterSpec& spec) {
  const KeyValue value = ParseClusterValue(given);
  ApplyClusterValue(*FindClusterKey(given.key), value, given, spec);
}

}  // namespace slotflow
