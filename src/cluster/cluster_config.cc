#include "cluster/cluster_config.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "api/error.h"
#include "cluster/cluster_keys.h"

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

// A [cluster] value's node as the text a flag would give: numbers for integers and numbers,
// a string for a choice, either for sizes, durations and rates (a number in the base unit).
std::string ValueText(const toml::node& node, SettingKind kind, const std::string& file,
                      std::string_view field) {
  using namespace toml_input;
  switch (kind) {
    case SettingKind::kInteger:
      return fmt::format("{}", GetInt(node, file, field, std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max()));
    case SettingKind::kNumber:
      return fmt::format("{}", GetNumber(node, file, field));
    case SettingKind::kChoice:
      return GetString(node, file, field);
    default:
      if (node.is_string()) return node.as_string()->get();
      if (!node.is_number()) {
        Fail(file, Line(node), field,
             "expected a number or a string with a unit, e.g. \"1Gbps\", \"64MiB\", \"5ms\"");
      }
      return fmt::format("{}", node.is_integer() ? static_cast<double>(node.as_integer()->get())
                                                 : node.as_floating_point()->get());
  }
}

// A declared key as read from a table: where it stands and its value.
struct ReadKey {
  const ClusterKey* key;
  SettingAssignment given;
  KeyValue value;
};

// The declared keys of `t` (only the server keys when `servers_only`), each parsed where it
// stands, in declaration order.
std::vector<ReadKey> ReadKeys(const toml::table& t, const std::string& file,
                              std::string_view prefix, bool servers_only) {
  std::vector<ReadKey> read;
  for (const ClusterKey& key : ClusterKeys()) {
    const toml::node* n = t.get(key.setting.name);
    if (n == nullptr || (servers_only && !key.set_server)) continue;
    const std::string field = Field(prefix, key.setting.name);
    SettingAssignment given{key.setting.name, ValueText(*n, key.setting.kind, file, field), file,
                            Line(*n), field};
    const KeyValue value = ParseClusterValue(given);
    read.push_back(ReadKey{&key, std::move(given), value});
  }
  return read;
}

void ApplyServerKeys(const std::vector<ReadKey>& keys, ServerClass& c) {
  for (const ReadKey& k : keys) {
    if (k.key->set_server) k.key->set_server(c, k.value);
  }
}

// [[cluster.class]]: the list replaces the classes; the top-level server keys are the defaults
// of every class (documented in the header).
std::vector<ServerClass> ReadClasses(const toml::node& classes, const std::string& file,
                                     const std::vector<ReadKey>& defaults) {
  using namespace toml_input;
  const toml::array& list = GetTableArray(classes, file, "cluster.class", "cluster.class");
  if (list.empty()) Fail(file, Line(classes), "cluster.class", "needs at least one class");
  std::vector<ServerClass> result;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string prefix = fmt::format("cluster.class[{}]", i);
    const toml::table& ct = GetTable(list[i], file, prefix);
    for (auto&& [k, value] : ct) {
      const ClusterKey* key = FindClusterKey(k.str());
      if (k.str() == "name" || k.str() == "count" || (key != nullptr && key->set_server)) continue;
      std::string known = "name, count";
      for (const ClusterKey& s : ClusterKeys()) {
        if (s.set_server) known += ", " + s.setting.name;
      }
      Fail(file, Line(k), Field(prefix, k.str()),
           fmt::format("unknown key '{}' (known keys here: {})", k.str(), known));
    }
    ServerClass c;
    c.name = fmt::format("class{}", i);
    if (const auto* n = ct.get("name")) {
      c.name = GetString(*n, file, Field(prefix, "name"));
      if (c.name.empty()) Fail(file, Line(*n), Field(prefix, "name"), "must not be empty");
    }
    const auto* count = ct.get("count");
    if (count == nullptr) Fail(file, Line(ct), Field(prefix, "count"), "is required");
    c.count = static_cast<int>(GetInt(*count, file, Field(prefix, "count"), 1, kMaxServers));
    ApplyServerKeys(defaults, c);
    ApplyServerKeys(ReadKeys(ct, file, prefix, true), c);
    result.push_back(std::move(c));
  }
  return result;
}

}  // namespace

void ApplyClusterToml(const toml::table& cluster_table, const std::string& file,
                      ClusterSpec& spec) {
  using namespace toml_input;
  const toml::table& t = cluster_table;
  for (auto&& [k, value] : t) {
    if (k.str() == "class" || FindClusterKey(k.str()) != nullptr) continue;
    std::string known;
    for (const ClusterKey& key : ClusterKeys()) known += key.setting.name + ", ";
    Fail(file, Line(k), Field("cluster", k.str()),
         fmt::format("unknown key '{}' (known keys here: {}class)", k.str(), known));
  }
  const auto keys = ReadKeys(t, file, "cluster", false);
  if (const toml::node* classes = t.get("class")) {
    if (const toml::node* servers = t.get("servers")) {
      Fail(file, Line(*servers), "cluster.servers",
           "not allowed together with [[cluster.class]]: give each class a count");
    }
    spec.classes = ReadClasses(*classes, file, keys);
  }
  for (const ReadKey& k : keys) {
    if (!k.key->set_server || !t.contains("class"))
      ApplyClusterValue(*k.key, k.value, k.given, spec);
  }
}

}  // namespace slotflow
