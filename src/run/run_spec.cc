#include "run/run_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "api/error.h"
#include "api/generator.h"
#include "cluster/cluster_keys.h"
#include "run/prepare.h"
#include "systems/systems.h"

namespace slotflow {

RunMode ParseRunMode(std::string_view text, std::string_view field) {
  if (text == "jobs") return RunMode::kJobs;
  if (text == "network") return RunMode::kNetwork;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown mode '{}' (known: jobs, network)", text));
}

std::string_view RunModeName(RunMode mode) { return mode == RunMode::kJobs ? "jobs" : "network"; }

TraceFormat ParseTraceFormat(std::string_view word) {
  if (word == "swim") return TraceFormat::kSwim;
  if (word == "coflow") return TraceFormat::kCoflow;
  if (word == "alibaba") return TraceFormat::kAlibaba;
  return TraceFormat::kAuto;  // "auto"; the declaration's choices admit nothing else
}

std::string_view TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kAuto:
      return "auto";
    case TraceFormat::kCoflow:
      return "coflow";
    case TraceFormat::kSwim:
      return "swim";
    case TraceFormat::kAlibaba:
      return "alibaba";
  }
  return "auto";
}

namespace {

// What scales or sizes a workload's bytes, and what estimates it. Written to a set-up only when
// the run read it: `f` is the trace's format as read (auto for a job file or a generator).
std::vector<WorkloadValue> ByteValues() {
  return {
      {.setting = {.name = "traffic_scale",
                   .kind = SettingKind::kNumber,
                   .default_value = "1",
                   .meaning = "multiplies every byte count of the workload",
                   .min = 0,
                   .max = 1e6,
                   .min_exclusive = true,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.traffic_scale = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (!WorkloadValueApplies(s, f, "traffic_scale")) return std::nullopt;
         return KeyValue{s.traffic_scale, ""};
       }},
      {.setting = {.name = "map_input_ratio",
                   .kind = SettingKind::kNumber,
                   .default_value = "balanced",
                   .meaning =
                       "map input = ratio x job shuffle / maps (default: each job's map stage as "
                       "long as its reduce stage on an idle 1 Gbps, 1 GB/s-per-slot cluster)",
                   .min = 0,
                   .max = 1e6,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.map_input_ratio = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (!s.map_input_ratio || !WorkloadValueApplies(s, f, "map_input_ratio")) {
           return std::nullopt;  // balanced, or not read
         }
         return KeyValue{*s.map_input_ratio, ""};
       }},
      // Estimates are multiplied by a factor in [1 - e, 1 + e], which must stay positive.
      {.setting = {.name = "estimate_error",
                   .kind = SettingKind::kNumber,
                   .default_value = "0",
                   .meaning = "SJF size estimates multiplied by a random factor in [1-e, 1+e]",
                   .min = 0,
                   .max = 0.999,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.simulation.estimate_error = v.number; },
       .written = [](const RunSpec& s, TraceFormat) -> std::optional<KeyValue> {
         return KeyValue{s.simulation.estimate_error, ""};
       }}};
}

// What a trace is read with: its format and sizes (written as ByteValues' are).
std::vector<WorkloadValue> TraceValues() {
  return {
      {.setting =
           {.name = "trace_format",
            .kind = SettingKind::kChoice,
            .default_value = "auto",
            .meaning =
                "the trace's format: coflow (the coflow benchmark's), swim (SWIM's MapReduce "
                "jobs), alibaba (cluster-trace-v2018's batch_task.csv) or auto (told apart by "
                "content)",
            .choices = {"auto", "coflow", "swim", "alibaba"}},
       .set = [](RunSpec& s, const KeyValue& v) { s.trace_format = ParseTraceFormat(v.word); },
       .written = [](const RunSpec&, TraceFormat f) -> std::optional<KeyValue> {
         if (f == TraceFormat::kAuto) return std::nullopt;
         return KeyValue{0, std::string(TraceFormatName(f))};  // the format as read
       }},
      {.setting = {.name = "block_size",
                   .kind = SettingKind::kBytes,
                   .default_value = "64MiB",
                   .meaning =
                       "SWIM traces: map input per map task (an HDFS block; Hadoop 0.20's default)",
                   .min = 1,
                   .max = 1e15,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.block_size = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f != TraceFormat::kSwim) return std::nullopt;
         return KeyValue{s.block_size, ""};
       }},
      {.setting =
           {.name = "reduce_bytes",
            .kind = SettingKind::kBytes,
            .default_value = "1GiB",
            .meaning =
                "SWIM traces: shuffle bytes per reduce task (Hive's default bytes per reducer)",
            .min = 1,
            .max = 1e15,
            .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.reduce_bytes = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f != TraceFormat::kSwim) return std::nullopt;
         return KeyValue{s.reduce_bytes, ""};
       }},
      {.setting =
           {.name = "dag_bytes",
            .kind = SettingKind::kBytes,
            .default_value = "64MiB",
            .meaning =
                "Alibaba traces (which give no sizes): the input block each instance of a task "
                "without parents reads, and the bytes each instance sends to each child task",
            .min = 0,
            .max = 1e15,
            .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.dag_bytes = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f != TraceFormat::kAlibaba) return std::nullopt;
         return KeyValue{s.dag_bytes, ""};
       }}};
}

// Which of a trace's jobs are kept, and when they arrive (written as ByteValues' are).
std::vector<WorkloadValue> WindowValues() {
  return {
      {.setting = {.name = "trace_start",
                   .kind = SettingKind::kSeconds,
                   .default_value = "0s",
                   .meaning = "traces: the first submit time kept; later times shift to start at 0",
                   .min = 0,
                   .max = 1e9,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.trace_start = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f == TraceFormat::kAuto) return std::nullopt;
         return KeyValue{s.trace_start, ""};
       }},
      {.setting = {.name = "trace_length",
                   .kind = SettingKind::kSeconds,
                   .default_value = "0s",
                   .meaning =
                       "traces: keep the jobs submitted within this long of trace_start (0: to the "
                       "end)",
                   .min = 0,
                   .max = 1e9,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.trace_length = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f == TraceFormat::kAuto) return std::nullopt;
         return KeyValue{s.trace_length, ""};
       }},
      {.setting = {.name = "time_scale",
                   .kind = SettingKind::kNumber,
                   .default_value = "1",
                   .meaning =
                       "traces: multiplies every submit time (below 1: arrivals closer together)",
                   .min = 0,
                   .max = 1e6,
                   .min_exclusive = true,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.time_scale = v.number; },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f == TraceFormat::kAuto) return std::nullopt;
         return KeyValue{s.time_scale, ""};
       }},
      {.setting = {.name = "trace_machines",
                   .kind = SettingKind::kInteger,
                   .default_value = "0",
                   .meaning =
                       "traces: the machines the trace was taken on; above 0, its bytes scale by "
                       "servers / trace_machines (SWIM: 600 for FB-2009, 3000 for FB-2010)",
                   .min = 0,
                   .max = 1e7,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.trace_machines = static_cast<int>(v.number); },
       .written = [](const RunSpec& s, TraceFormat f) -> std::optional<KeyValue> {
         if (f == TraceFormat::kAuto) return std::nullopt;
         return KeyValue{static_cast<double>(s.trace_machines), ""};
       }}};
}

}  // namespace

namespace {

constexpr Seconds kMinTimeStep = 1e-6;

// The declared value `given` names, parsed against its declaration and set; false if none of
// `values` has that name.
bool SetDeclaredValue(const std::vector<WorkloadValue>& values, RunSpec& spec,
                      const SettingAssignment& given) {
  for (const WorkloadValue& w : values) {
    if (w.setting.name != given.key) continue;
    KeyValue v;
    v.number = ParseSetting(w.setting, given, v.word);
    w.set(spec, v);
    return true;
  }
  return false;
}

}  // namespace

const std::vector<WorkloadValue>& RatesValues() {
  static const std::vector<WorkloadValue> values = {
      {.setting = {.name = "time_step",
                   .kind = SettingKind::kSeconds,
                   .default_value = "0s",
                   .meaning =
                       "rates re-solved at most once per this step, flow starts, ends, class "
                       "changes and byte marks applied at its boundaries (0: exact; "
                       "docs/time-step.md)",
                   .min = 0,
                   .max = 3600,
                   .choices = {}},
       .set = [](RunSpec& s, const KeyValue& v) { s.simulation.time_step = v.number; },
       .written = [](const RunSpec& s, TraceFormat) -> std::optional<KeyValue> {
         if (s.simulation.time_step == 0) return std::nullopt;  // exact: no [rates] table
         return KeyValue{s.simulation.time_step, ""};
       }}};
  return values;
}

void SetRatesValue(RunSpec& spec, const std::string& key, std::string text,
                   const std::string& file, int line, const std::string& field) {
  const SettingAssignment given{key, std::move(text), file, line, field};
  if (!SetDeclaredValue(RatesValues(), spec, given)) {
    throw InputError(file, line, field, "unknown key (known: time_step)");
  }
  // Finer steps than a microsecond would take longer than the exact run they approximate.
  const Seconds step = spec.simulation.time_step;
  if (key == "time_step" && step > 0 && step < kMinTimeStep) {
    throw InputError(file, line, field,
                     fmt::format("'{}' is out of range (valid: 0, exact, or 1us to 1h)",
                                 given.value));
  }
  spec.given_at["rates." + key] = given;
}

const std::vector<WorkloadValue>& WorkloadValues() {
  static const std::vector<WorkloadValue> values = [] {
    std::vector<WorkloadValue> all = ByteValues();
    for (WorkloadValue& v : TraceValues()) all.push_back(std::move(v));
    for (WorkloadValue& v : WindowValues()) all.push_back(std::move(v));
    return all;
  }();
  return values;
}

namespace {

// The generator's name: one of the registered generators.
SettingSpec GeneratorChoice() {
  SettingSpec s{.name = "generator",
                .kind = SettingKind::kChoice,
                .default_value = kDefaultGenerator,
                .meaning = "the embedded workload without a trace or job file",
                .choices = {}};
  for (const auto& [name, entry] : GeneratorRegistry::Get().entries()) s.choices.push_back(name);
  return s;
}

bool Declares(const GeneratorRegistry::Entry& entry, const std::string& key) {
  return std::any_of(entry.settings.begin(), entry.settings.end(),
                     [&](const SettingSpec& s) { return s.name == key; });
}

// A generator's setting: checked against every generator that declares it.
bool SetGeneratorSetting(RunSpec& spec, const SettingAssignment& given) {
  bool declared = false;
  for (const auto& [name, entry] : GeneratorRegistry::Get().entries()) {
    for (const SettingSpec& s : entry.settings) {
      if (s.name != given.key) continue;
      std::string canonical;
      ParseSetting(s, given, canonical);
      declared = true;
    }
  }
  if (declared) spec.generator_settings.push_back(given);
  return declared;
}

}  // namespace

void SetWorkloadValue(RunSpec& spec, const std::string& key, std::string text,
                      const std::string& file, int line, const std::string& field) {
  const SettingAssignment given{key, std::move(text), file, line, field};
  spec.given_at["workload." + key] = given;
  std::string canonical;
  if (key == "generator") {
    ParseSetting(GeneratorChoice(), given, canonical);
    spec.generator = canonical;
    return;
  }
  if (key == "mode") {
    try {
      spec.mode = ParseRunMode(given.value, field);
    } catch (const InputError& e) {
      throw InputError(file, line, field, e.message());
    }
    return;
  }
  if (SetDeclaredValue(WorkloadValues(), spec, given)) return;
  if (!SetGeneratorSetting(spec, given)) throw InputError(file, line, field, "unknown key");
}

Settings GeneratorSettings(const RunSpec& spec, const std::string& name) {
  const GeneratorRegistry::Entry& entry = GeneratorRegistry::Get().Find(name, "generator");
  std::vector<SettingAssignment> given;
  for (const SettingAssignment& a : spec.generator_settings) {
    if (Declares(entry, a.key)) given.push_back(a);
  }
  return Settings(entry.settings, given, fmt::format("generator '{}'", name));
}

uint64_t ParseSeed(std::string_view text, std::string_view field) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw InputError("", 0, std::string(field),
                     fmt::format("expected a non-negative integer below 2^64, got '{}'", text));
  }
  return v;
}

void SetPolicySetting(RunSpec& spec, std::string_view dotted_key, std::string value,
                      const std::string& file, int line, const std::string& field) {
  const size_t dot = dotted_key.find('.');
  const std::string_view table = dotted_key.substr(0, dot);
  const std::string key(dot == std::string_view::npos ? "" : dotted_key.substr(dot + 1));
  if ((table != "scheduler" && table != "network") || key.empty()) {
    throw InputError(file, line, field,
                     fmt::format("unknown setting '{}' (settings are scheduler.KEY, "
                                 "network.KEY, workload.KEY, cluster.KEY or rates.KEY; see `slotflow "
                                 "policies NAME`)",
                                 dotted_key));
  }
  const bool scheduler = table == "scheduler";
  if (key == "policy") {
    if (value.empty()) throw InputError(file, line, field, "the policy name is empty");
    (scheduler ? spec.scheduler_from : spec.network_from) = {key, value, file, line, field};
    (scheduler ? spec.scheduler_explicit : spec.network_explicit) = true;
    (scheduler ? spec.scheduler : spec.network) = std::move(value);
    return;
  }
  (scheduler ? spec.scheduler_settings : spec.network_settings)
      .push_back(SettingAssignment{key, std::move(value), file, line, field});
}

void ApplyAssignment(RunSpec& spec, std::string_view assignment, std::string_view given_as) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    throw InputError(
        "", 0, std::string(given_as),
        fmt::format("expected KEY=VALUE (e.g. network.queues=8), got '{}'", assignment));
  }
  const std::string key(assignment.substr(0, eq));
  std::string value(assignment.substr(eq + 1));
  if (key.rfind("workload.", 0) == 0 && key.size() > 9) {
    SetWorkloadValue(spec, key.substr(9), std::move(value), "", 0,
                     fmt::format("{} {}", given_as, key));
    return;
  }
  if (key.rfind("rates.", 0) == 0 && key.size() > 6) {
    SetRatesValue(spec, key.substr(6), std::move(value), "", 0,
                  fmt::format("{} {}", given_as, key));
    return;
  }
  if (key.rfind("cluster.", 0) == 0 && key.size() > 8) {
    SetClusterValue(spec, key.substr(8), std::move(value), "", 0,
                    fmt::format("{} {}", given_as, key));
    return;
  }
  SetPolicySetting(spec, key, std::move(value), "", 0, fmt::format("{} {}", given_as, key));
}

void SetClusterValue(RunSpec& spec, const std::string& key, std::string text,
                     const std::string& file, int line, const std::string& field) {
  SettingAssignment given{key, std::move(text), file, line, field};
  ParseClusterValue(given);
  spec.cluster_settings.push_back(std::move(given));
}

const SettingAssignment* ClusterSettingGiven(const RunSpec& spec, std::string_view key) {
  for (auto it = spec.cluster_settings.rbegin(); it != spec.cluster_settings.rend(); ++it) {
    if (it->key == key) return &*it;
  }
  return nullptr;
}

void ApplySystem(RunSpec& spec, const std::string& name, const std::string& field,
                 bool replace_policies) {
  const SystemSpec& system = FindSystem(name, field);
  if (replace_policies) spec.scheduler_explicit = spec.network_explicit = false;
  spec.system = system.name;
  spec.preset_scheduler = system.scheduler;
  spec.preset_network = system.network;
  if (!spec.scheduler_explicit) {
    spec.scheduler = system.scheduler;
    spec.scheduler_from = {"policy", system.scheduler, "", 0, field};
  }
  if (!spec.network_explicit) {
    spec.network = system.network;
    spec.network_from = {"policy", system.network, "", 0, field};
  }
  RunSpec preset;
  for (const auto& [key, value] : system.settings) {
    SetPolicySetting(preset, key, value, "", 0, fmt::format("system {} ({})", name, key));
  }
  spec.preset_scheduler_settings = std::move(preset.scheduler_settings);
  spec.preset_network_settings = std::move(preset.network_settings);
}

bool WorkloadDependsOnSeed(const RunSpec& spec) {
  return spec.trace.empty() && (spec.jobs_file.empty() || spec.mode == RunMode::kNetwork);
}
}  // namespace slotflow
