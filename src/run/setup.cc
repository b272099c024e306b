#include "run/setup.h"

#include <cstdint>
#include <limits>
#include <sstream>

#include "api/error.h"
#include "api/generator.h"
#include "cluster/cluster_config.h"
#include "cluster/cluster_keys.h"
#include "common/json_input.h"
#include "common/sha256.h"
#include "run/policies.h"
#include "run/prepare.h"

namespace slotflow {
namespace {

// Whether a value of this kind is written as its word (else as its number).
bool WrittenAsWord(SettingKind kind) {
  return kind == SettingKind::kChoice || kind == SettingKind::kQueues ||
         kind == SettingKind::kQueueShares || kind == SettingKind::kText;
}

// A declared value as a TOML value of its kind: integers, switches, numbers (sizes, times and
// rates in bytes, seconds and bytes/s) and words.
void InsertValue(toml::table& t, const SettingSpec& s, const KeyValue& v) {
  if (WrittenAsWord(s.kind)) {
    t.insert(s.name, v.word);
  } else if (s.kind == SettingKind::kInteger) {
    t.insert(s.name, static_cast<int64_t>(v.number));
  } else if (s.kind == SettingKind::kSwitch) {
    t.insert(s.name, v.number != 0);
  } else {
    t.insert(s.name, v.number);
  }
}

// Every declared cluster-wide key's value, and the classes with their server keys.
toml::table ClusterTable(const ClusterSpec& c) {
  toml::table t;
  for (const ClusterKey& key : ClusterKeys()) {
    if (key.get) InsertValue(t, key.setting, key.get(c));
  }
  toml::array classes;
  for (const ServerClass& sc : c.classes) {
    toml::table entry{{"name", sc.name}, {"count", sc.count}};
    for (const ClusterKey& key : ClusterKeys()) {
      if (key.get_server) InsertValue(entry, key.setting, key.get_server(sc));
    }
    classes.push_back(std::move(entry));
  }
  t.insert("class", std::move(classes));
  return t;
}

// A setting in force as a TOML value of its kind (InsertValue).
void InsertSetting(toml::table& t, const SettingSpec& spec, const Settings& settings) {
  KeyValue v;
  if (WrittenAsWord(spec.kind)) {
    for (const auto& [key, value] : settings.InForce()) {
      if (key == spec.name) v.word = value;
    }
  } else {
    v.number = settings.Number(spec.name);
  }
  InsertValue(t, spec, v);
}

toml::table WorkloadTable(const RunSpec& spec, const PreparedRun& run, bool with_path) {
  toml::table w;
  if (with_path && !spec.trace.empty()) w.insert("trace", spec.trace);
  if (with_path && !spec.jobs_file.empty()) w.insert("jobs", spec.jobs_file);
  if (!run.input_sha256.empty()) w.insert("sha256", run.input_sha256);
  w.insert("mode", RunModeName(spec.mode));
  const bool generated = spec.trace.empty() && spec.jobs_file.empty();
  if (generated) w.insert("generator", spec.generator);
  // The run-wide values the run read.
  for (const WorkloadValue& value : WorkloadValues()) {
    if (const auto v = value.written(spec, run.trace_format)) InsertValue(w, value.setting, *v);
  }
  // Only what the run used: the settings of its generator, when it has one.
  if (generated) {
    const Settings settings = GeneratorSettings(spec, spec.generator);
    for (const SettingSpec& s :
         GeneratorRegistry::Get().Find(spec.generator, "generator").settings) {
      InsertSetting(w, s, settings);
    }
  }
  return w;
}

// A policy's table: its name and every setting in force, as text the settings parse back.
toml::table PolicyTable(const std::string& policy, const Settings& settings) {
  toml::table t;
  t.insert("policy", policy);
  for (const auto& [key, value] : settings.InForce()) t.insert(key, value);
  return t;
}

toml::table Table(const RunSpec& spec, const PreparedRun& run, bool with_path) {
  toml::table root;
  const uint64_t seed = spec.simulation.seed;
  // TOML integers are signed 64-bit; a larger seed is written as text, which seeds also take.
  if (seed <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    root.insert("seed", static_cast<int64_t>(seed));
  } else {
    root.insert("seed", std::to_string(seed));
  }
  if (!spec.system.empty()) root.insert("system", spec.system);
  root.insert("cluster", ClusterTable(run.cluster.spec()));
  root.insert("workload", WorkloadTable(spec, run, with_path));
  const ResolvedPolicies settings = ResolvePolicies(spec);
  root.insert("scheduler", PolicyTable(spec.scheduler, settings.scheduler));
  root.insert("network", PolicyTable(spec.network, settings.network));
  // The rate allocator's values, only when one is not its default (an exact run has none).
  toml::table rates;
  for (const WorkloadValue& value : RatesValues()) {
    if (const auto v = value.written(spec, run.trace_format)) InsertValue(rates, value.setting, *v);
  }
  if (!rates.empty()) root.insert("rates", std::move(rates));
  return root;
}

std::string TomlText(const toml::table& t) {
  std::ostringstream os;
  os << toml::toml_formatter(t, toml::format_flags::none);
  return os.str();
}

}  // namespace

toml::table SetupTable(const RunSpec& spec, const PreparedRun& run) {
  return Table(spec, run, true);
}

std::string SetupToml(const RunSpec& spec, const PreparedRun& run) {
  return TomlText(SetupTable(spec, run)) + "\n";
}

nlohmann::ordered_json SetupJson(const RunSpec& spec, const PreparedRun& run) {
  std::ostringstream os;
  os << toml::json_formatter(SetupTable(spec, run), toml::format_flags::none);
  return nlohmann::ordered_json::parse(os.str());
}

std::string SetupTomlFromJson(const std::string& setup_json) {
  const toml::table setup =
      SetupFromSummaryJson(nlohmann::json{{"setup", nlohmann::json::parse(setup_json)}}, "");
  return "# A run's set-up: `slotflow run --config FILE` repeats it.\n" + TomlText(setup) + "\n";
}

std::string SetupDigest(const RunSpec& spec, const PreparedRun& run) {
  return Sha256Hex(TomlText(Table(spec, run, false)));
}

toml::table SetupFromSummaryJson(const nlohmann::json& summary, const std::string& file) {
  if (!summary.is_object() || !summary.contains("setup") || !summary["setup"].is_object()) {
    throw InputError(file, 0, "setup",
                     "a JSON config must be a summary.json with a \"setup\" object (written by "
                     "slotflow 0.9 and later)");
  }
  return json_input::ToToml(summary["setup"], file, 0, "setup");
}

}  // namespace slotflow
