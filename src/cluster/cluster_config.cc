#include "cluster/cluster_config.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "api/error.h"

namespace slotflow {
namespace {

// The message of an InputError raised without a location (by the unit and name parsers),
// without its "field '...': " prefix, so that it can be raised again with file and line.
std::string MessageOf(const InputError& e) {
  std::string message = e.what();
  const std::string prefix = fmt::format("field '{}': ", e.field());
  if (message.starts_with(prefix)) message.erase(0, prefix.size());
  return message;
}

}  // namespace

namespace toml_input {
namespace {

std::string_view TypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

[[noreturn]] void WrongType(const toml::node& node, const std::string& file, std::string_view field,
                            std::string_view expected) {
  Fail(file, Line(node), field, fmt::format("expected {}, got {}", expected, TypeName(node)));
}

// The value of an integer or float node (exact for integers up to 2^53).
double NumberOf(const toml::node& node) {
  if (const auto* i = node.as_integer()) return static_cast<double>(i->get());
  return node.as_floating_point()->get();
}

// Sizes, durations and rates: numbers in the base unit, or strings parsed with units.h. A
// number goes through the same parser as its shortest text, so both meet one range rule.
template <typename Parser>
double ParseWithUnit(const toml::node& node, const std::string& file, std::string_view field,
                     std::string_view kind, Parser parse) {
  if (!node.is_string() && !node.is_number()) {
    WrongType(node, file, field, fmt::format("a {} (a number or a string with a unit)", kind));
  }
  const std::string text =
      node.is_string() ? node.as_string()->get() : fmt::format("{}", NumberOf(node));
  try {
    return parse(text, field);
  } catch (const InputError& e) {
    Fail(file, Line(node), field, MessageOf(e));
  }
}

}  // namespace

int Line(const toml::node& node) { return static_cast<int>(node.source().begin.line); }
int Line(const toml::key& key) { return static_cast<int>(key.source().begin.line); }

void Fail(const std::string& file, int line, std::string_view field, std::string_view message) {
  throw InputError(file, line, std::string(field), std::string(message));
}

std::string Field(std::string_view prefix, std::string_view key) {
  if (prefix.empty()) return std::string(key);
  return fmt::format("{}.{}", prefix, key);
}

void CheckKeys(const toml::table& table, const std::string& file, std::string_view prefix,
               std::initializer_list<std::string_view> allowed) {
  for (auto&& [key, value] : table) {
    bool known = false;
    for (std::string_view a : allowed) known |= key.str() == a;
    if (known) continue;
    std::string list;
    for (std::string_view a : allowed) list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
    Fail(file, Line(key), Field(prefix, key.str()),
         fmt::format("unknown key '{}' (known keys here: {})", key.str(), list));
  }
}

Bytes GetBytes(const toml::node& node, const std::string& file, std::string_view field) {
  return ParseWithUnit(node, file, field, "size", ParseBytes);
}

Seconds GetSeconds(const toml::node& node, const std::string& file, std::string_view field) {
  return ParseWithUnit(node, file, field, "duration", ParseSeconds);
}

BytesPerSecond GetRate(const toml::node& node, const std::string& file, std::string_view field) {
  return ParseWithUnit(node, file, field, "rate", ParseRate);
}

double GetNumber(const toml::node& node, const std::string& file, std::string_view field) {
  if (!node.is_number()) WrongType(node, file, field, "a number");
  const double value = NumberOf(node);
  if (!std::isfinite(value)) Fail(file, Line(node), field, "must be a finite number");
  return value;
}

int64_t GetInt(const toml::node& node, const std::string& file, std::string_view field, int64_t lo,
               int64_t hi) {
  const auto* i = node.as_integer();
  if (i == nullptr) WrongType(node, file, field, "an integer");
  const int64_t value = i->get();
  if (value < lo || value > hi) {
    // An upper bound at the int32 maximum only guards against overflow: not worth a mention.
    Fail(file, Line(node), field,
         hi == std::numeric_limits<int32_t>::max()
             ? fmt::format("must be at least {}, got {}", lo, value)
             : fmt::format("must be in {}..{}, got {}", lo, hi, value));
  }
  return value;
}

std::string GetString(const toml::node& node, const std::string& file, std::string_view field) {
  const auto* s = node.as_string();
  if (s == nullptr) WrongType(node, file, field, "a string");
  return s->get();
}

const toml::array& GetArray(const toml::node& node, const std::string& file,
                            std::string_view field) {
  const auto* a = node.as_array();
  if (a == nullptr) WrongType(node, file, field, "an array");
  return *a;
}

const toml::array& GetTableArray(const toml::node& node, const std::string& file,
                                 std::string_view field, std::string_view header) {
  if (node.is_table()) {
    Fail(file, Line(node), field, fmt::format("write [[{0}]] (one per entry), not [{0}]", header));
  }
  return GetArray(node, file, field);
}

const toml::table& GetTable(const toml::node& node, const std::string& file,
                            std::string_view field) {
  const auto* t = node.as_table();
  if (t == nullptr) WrongType(node, file, field, "a table");
  return *t;
}

}  // namespace toml_input

using toml_input::Fail;
using toml_input::Field;
using toml_input::Line;

TopologyKind ParseTopology(std::string_view text, std::string_view field) {
  if (text == "big-switch") return TopologyKind::kBigSwitch;
  if (text == "two-tier") return TopologyKind::kTwoTier;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown topology '{}' (known: big-switch, two-tier)", text));
}

std::string_view TopologyName(TopologyKind t) {
  return t == TopologyKind::kTwoTier ? "two-tier" : "big-switch";
}

MapReads ParseMapReads(std::string_view text, std::string_view field) {
  if (text == "network") return MapReads::kNetwork;
  if (text == "compute-only") return MapReads::kComputeOnly;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown map reads '{}' (known: network, compute-only)", text));
}

std::string_view MapReadsName(MapReads m) {
  return m == MapReads::kComputeOnly ? "compute-only" : "network";
}

namespace {

// The per-server keys shared by the [cluster] table and its [[cluster.class]] entries; unset
// keys stay empty so that class entries can fall back to the top-level values.
struct ServerKeys {
  std::optional<int> slots;
  std::optional<double> cpu_speed;
  std::optional<BytesPerSecond> nic;
  std::optional<BytesPerSecond> disk;
  std::optional<Bytes> memory;

  void ApplyTo(ServerClass& c) const {
    if (slots) c.slots = *slots;
    if (cpu_speed) c.cpu_speed = *cpu_speed;
    if (nic) c.nic = *nic;
    if (disk) c.disk = *disk;
    if (memory) c.memory = *memory;
  }
};

ServerKeys ReadServerKeys(const toml::table& t, const std::string& file, std::string_view prefix) {
  using namespace toml_input;
  ServerKeys k;
  if (const auto* n = t.get("slots")) {
    k.slots = static_cast<int>(GetInt(*n, file, Field(prefix, "slots"), 0, kMaxSlotsPerServer));
  }
  if (const auto* n = t.get("cpu_speed")) {
    const std::string field = Field(prefix, "cpu_speed");
    k.cpu_speed = GetNumber(*n, file, field);
    if (!(*k.cpu_speed > 0)) Fail(file, Line(*n), field, "must be positive");
  }
  if (const auto* n = t.get("nic")) {
    const std::string field = Field(prefix, "nic");
    k.nic = GetRate(*n, file, field);
    if (!(*k.nic > 0)) Fail(file, Line(*n), field, "must be positive");
  }
  if (const auto* n = t.get("disk")) k.disk = GetRate(*n, file, Field(prefix, "disk"));
  if (const auto* n = t.get("memory")) k.memory = GetBytes(*n, file, Field(prefix, "memory"));
  return k;
}

}  // namespace

void ApplyClusterToml(const toml::table& cluster_table, const std::string& file,
                      ClusterSpec& spec) {
  using namespace toml_input;
  const toml::table& t = cluster_table;
  CheckKeys(
      t, file, "cluster",
      {"servers", "slots", "cpu_speed", "nic", "disk", "memory", "topology", "servers_per_rack",
       "oversubscription", "rack_link", "slot_rate", "replicas", "map_reads", "payload_efficiency",
       "task_launch_latency", "flow_start_latency", "class"});

  const ServerKeys defaults = ReadServerKeys(t, file, "cluster");
  const toml::node* servers = t.get("servers");
  const toml::node* classes = t.get("class");

  if (classes != nullptr) {
    // Heterogeneous cluster: the list replaces the classes; top-level per-server keys are the
    // defaults of every class (documented in the header).
    if (servers != nullptr) {
      Fail(file, Line(*servers), "cluster.servers",
           "not allowed together with [[cluster.class]]: give each class a count");
    }
    const toml::array& list = GetTableArray(*classes, file, "cluster.class", "cluster.class");
    if (list.empty()) Fail(file, Line(*classes), "cluster.class", "needs at least one class");
    std::vector<ServerClass> result;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string prefix = fmt::format("cluster.class[{}]", i);
      const toml::table& ct = GetTable(list[i], file, prefix);
      CheckKeys(ct, file, prefix, {"name", "count", "slots", "cpu_speed", "nic", "disk", "memory"});
      ServerClass c;
      c.name = fmt::format("class{}", i);
      if (const auto* n = ct.get("name")) {
        c.name = GetString(*n, file, Field(prefix, "name"));
        if (c.name.empty()) Fail(file, Line(*n), Field(prefix, "name"), "must not be empty");
      }
      const auto* count = ct.get("count");
      if (count == nullptr) Fail(file, Line(ct), Field(prefix, "count"), "is required");
      c.count = static_cast<int>(GetInt(*count, file, Field(prefix, "count"), 1, kMaxServers));
      defaults.ApplyTo(c);
      ReadServerKeys(ct, file, prefix).ApplyTo(c);
      result.push_back(std::move(c));
    }
    spec.classes = std::move(result);
  } else {
    if (servers != nullptr) {
      if (spec.classes.size() != 1) {
        Fail(file, Line(*servers), "cluster.servers",
             fmt::format("the cluster has {} server classes: set each class's count in "
                         "[[cluster.class]] instead",
                         spec.classes.size()));
      }
      spec.classes[0].count =
          static_cast<int>(GetInt(*servers, file, "cluster.servers", 1, kMaxServers));
    }
    for (auto& c : spec.classes) defaults.ApplyTo(c);
  }

  if (const auto* n = t.get("topology")) {
    const std::string text = GetString(*n, file, "cluster.topology");
    try {
      spec.topology = ParseTopology(text, "cluster.topology");
    } catch (const InputError& e) {
      Fail(file, Line(*n), "cluster.topology", MessageOf(e));
    }
  }
  if (const auto* n = t.get("servers_per_rack")) {
    spec.servers_per_rack =
        static_cast<int>(GetInt(*n, file, "cluster.servers_per_rack", 1, kMaxServers));
  }
  if (const auto* n = t.get("oversubscription")) {
    spec.oversubscription = GetNumber(*n, file, "cluster.oversubscription");
    if (!(spec.oversubscription > 0)) {
      Fail(file, Line(*n), "cluster.oversubscription", "must be positive");
    }
  }
  if (const auto* n = t.get("rack_link")) spec.rack_link = GetRate(*n, file, "cluster.rack_link");
  if (const auto* n = t.get("slot_rate")) {
    spec.slot_rate = GetRate(*n, file, "cluster.slot_rate");
    if (!(spec.slot_rate > 0)) Fail(file, Line(*n), "cluster.slot_rate", "must be positive");
  }
  if (const auto* n = t.get("replicas")) {
    spec.replicas = static_cast<int>(GetInt(*n, file, "cluster.replicas", 1, kMaxServers));
  }
  if (const auto* n = t.get("map_reads")) {
    const std::string text = GetString(*n, file, "cluster.map_reads");
    try {
      spec.map_reads = ParseMapReads(text, "cluster.map_reads");
    } catch (const InputError& e) {
      Fail(file, Line(*n), "cluster.map_reads", MessageOf(e));
    }
  }
  if (const auto* n = t.get("payload_efficiency")) {
    spec.payload_efficiency = GetNumber(*n, file, "cluster.payload_efficiency");
    if (!(spec.payload_efficiency > 0 && spec.payload_efficiency <= 1)) {
      Fail(file, Line(*n), "cluster.payload_efficiency",
           fmt::format("must be in (0, 1], got {}", spec.payload_efficiency));
    }
  }
  if (const auto* n = t.get("task_launch_latency")) {
    spec.task_launch_latency = GetSeconds(*n, file, "cluster.task_launch_latency");
  }
  if (const auto* n = t.get("flow_start_latency")) {
    spec.flow_start_latency = GetSeconds(*n, file, "cluster.flow_start_latency");
  }
}

}  // namespace slotflow
