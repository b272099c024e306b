#include "run/sweep_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

#include "api/error.h"
#include "api/units.h"
#include "common/input_file.h"
#include "common/sha256.h"
#include "run/config_file.h"
#include "systems/systems.h"

namespace slotflow {
namespace {

int LineOf(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

// A TOML scalar as TOML text; floats in their shortest form that reads back exactly (0.4, not
// toml++'s 0.40000000000000002).
std::string TomlText(const toml::node& n) {
  if (auto d = n.value_exact<double>()) {
    std::string text = fmt::format("{}", *d);
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // stays a float
    return text;
  }
  std::ostringstream os;
  n.visit([&](const auto& v) { os << v; });
  return os.str();
}

// A TOML scalar as the CSV shows it (strings unquoted).
std::string PlainText(const toml::node& n) {
  if (auto v = n.value_exact<std::string>()) return *v;
  return TomlText(n);
}

// "TABLE.NAME" with TABLE one of `tables` and NAME a bare key: a key is never TOML text.
bool IsSettingKey(const std::string& key, const std::vector<std::string>& tables) {
  const size_t dot = key.find('.');
  if (dot == std::string::npos || dot + 1 == key.size()) return false;
  if (std::find(tables.begin(), tables.end(), key.substr(0, dot)) == tables.end()) return false;
  return std::all_of(key.begin() + static_cast<long>(dot) + 1, key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
}

void ReadSeeds(const toml::node& node, const std::string& path, SweepPlan& plan) {
  if (auto n = node.value_exact<int64_t>()) {
    if (*n < 1 || *n > kMaxSweepSeeds)
      throw InputError(path, LineOf(node), "sweep.seeds",
                       fmt::format("must be in 1..{}", kMaxSweepSeeds));
    for (int64_t k = 1; k <= *n; ++k) plan.seeds.push_back(static_cast<uint64_t>(k));
    return;
  }
  const toml::array* list = node.as_array();
  if (list == nullptr || list->empty()) {
    throw InputError(path, LineOf(node), "sweep.seeds", "expected a count or a list of seeds");
  }
  if (list->size() > static_cast<size_t>(kMaxSweepSeeds)) {
    throw InputError(path, LineOf(node), "sweep.seeds",
                     fmt::format("lists {} seeds; at most {}", list->size(), kMaxSweepSeeds));
  }
  for (const toml::node& s : *list) {
    const auto v = s.value_exact<int64_t>();
    if (!v || *v < 0) throw InputError(path, LineOf(s), "sweep.seeds", "expected a seed >= 0");
    if (std::find(plan.seeds.begin(), plan.seeds.end(), *v) != plan.seeds.end()) {
      throw InputError(path, LineOf(s), "sweep.seeds", fmt::format("seed {} is listed twice", *v));
    }
    plan.seeds.push_back(static_cast<uint64_t>(*v));
  }
}

// Values with units get a column in SI base units: the kind is that of the first value with a
// unit; plain numbers are already in the base unit (rates in bytes/s, shown in bits/s).
void AddSiColumn(SweepParameter& p) {
  struct Kind {
    const char* suffix;
    double (*parse)(std::string_view, std::string_view);
    double factor;
  };
  static const Kind kKinds[] = {
      {"_s", ParseSeconds, 1}, {"_bytes", ParseBytes, 1}, {"_bps", ParseRate, 8}};
  auto parse = [](const Kind& k, const std::string& text) -> std::optional<double> {
    try {
      return k.parse(text, "") * k.factor;
    } catch (const InputError&) {
      return std::nullopt;
    }
  };
  const Kind* kind = nullptr;
  for (const toml::node& v : p.values) {
    const auto s = v.value_exact<std::string>();
    if (!s || s->empty() || std::isalpha(static_cast<unsigned char>(s->back())) == 0) continue;
    for (const Kind& k : kKinds) {
      if (kind == nullptr && parse(k, *s)) kind = &k;
    }
  }
  if (kind == nullptr) return;
  p.si_suffix = kind->suffix;
  for (const toml::node& v : p.values) {
    std::optional<double> x;
    if (auto s = v.value_exact<std::string>()) x = parse(*kind, *s);
    if (auto d = v.value<double>()) x = *d * kind->factor;
    p.si_labels.push_back(x ? fmt::format("{}", *x) : "");
  }
}

void ReadParameter(const toml::table& t, const std::string& path, SweepPlan& plan) {
  const std::string field = fmt::format("sweep.parameter[{}]", plan.parameters.size());
  SweepParameter p;
  for (const auto& [k, v] : t) {
    if (k != "key" && k != "values") {
      throw InputError(path, LineOf(v), field + "." + std::string(k.str()),
                       "unknown key (known: key, values)");
    }
  }
  const auto key = t["key"].value_exact<std::string>();
  const int key_line = t.contains("key") ? LineOf(*t.get("key")) : LineOf(t);
  if (!key || !IsSettingKey(*key, {"cluster", "workload", "scheduler", "network", "rates"})) {
    throw InputError(path, key_line, field + ".key",
                     "expected TABLE.KEY with TABLE one of cluster, workload, scheduler, network, rates "
                     "and KEY of letters, digits and _ (e.g. \"cluster.servers\")");
  }
  p.key = *key;
  const toml::array* values = t["values"].as_array();
  if (values == nullptr || values->empty()) {
    throw InputError(path, LineOf(t), field + ".values", "expected a non-empty list");
  }
  for (const toml::node& v : *values) {
    if (!v.is_value()) throw InputError(path, LineOf(v), field + ".values", "expected scalars");
    p.labels.push_back(PlainText(v));
    if (p.labels.back().find_first_of(",\"\r\n") != std::string::npos) {
      throw InputError(path, LineOf(v), field + ".values",
                       "a value may not hold , \" or a newline");
    }
    p.lines.push_back(LineOf(v));
  }
  p.values = *values;
  for (const SweepParameter& other : plan.parameters) {
    if (other.key == p.key) {
      throw InputError(path, key_line, field + ".key", "'" + p.key + "' is swept twice");
    }
  }
  plan.points *= p.values.size();
  if (plan.points > static_cast<size_t>(kMaxSweepPoints)) {
    throw InputError(path, LineOf(t), field, "over 1,000,000 points");
  }
  AddSiColumn(p);
  plan.parameters.push_back(std::move(p));
}

void ReadVariantSet(const toml::node& node, const std::string& path, const std::string& f,
                    SweepVariant& v) {
  const toml::table* set = node.as_table();
  if (set == nullptr) throw InputError(path, LineOf(node), f, "expected a table");
  for (const auto& [sk, sv] : *set) {
    const std::string key(sk.str());
    if (!IsSettingKey(key, {"scheduler", "network"})) {
      throw InputError(path, LineOf(sv), f + "." + key,
                       "a variant sets only scheduler.KEY or network.KEY (KEY of letters, digits "
                       "and _)");
    }
    v.settings.push_back({key, SettingText(sv, path, f + "." + key), LineOf(sv)});
  }
}

void ReadVariant(const toml::table& t, const std::string& path, SweepPlan& plan) {
  const std::string field = fmt::format("sweep.variant[{}]", plan.variants.size());
  SweepVariant v;
  v.line = LineOf(t);
  for (const auto& [k, node] : t) {
    const std::string f = field + "." + std::string(k.str());
    if (k == "name" || k == "system") {
      const auto s = node.value_exact<std::string>();
      if (!s || s->empty()) throw InputError(path, LineOf(node), f, "expected a name");
      (k == "name" ? v.name : v.system) = *s;
      if (k == "name") v.line = LineOf(node);
    } else if (k == "set") {
      ReadVariantSet(node, path, f, v);
    } else {
      throw InputError(path, LineOf(node), f, "unknown key (known: name, system, set)");
    }
  }
  if (v.name.empty()) v.name = v.system;
  if (v.name.empty()) throw InputError(path, v.line, field + ".name", "a variant needs a name");
  if (v.name.find_first_of(",\"\r\n") != std::string::npos) {
    throw InputError(path, v.line, field + ".name", "a name may not hold , \" or a newline");
  }
  plan.variants.push_back(std::move(v));
}

void ReadSweepList(const toml::node& node, const std::string& path, const std::string& f,
                   SweepPlan& plan) {
  const toml::array* list = node.as_array();
  if (f == "sweep.systems") {
    if (list == nullptr) throw InputError(path, LineOf(node), f, "expected a list of systems");
    for (const toml::node& s : *list) {
      const auto name = s.value_exact<std::string>();
      if (!name || name->empty()) throw InputError(path, LineOf(s), f, "expected a system's name");
      plan.variants.push_back(SweepVariant{*name, *name, {}, LineOf(s)});
    }
    return;
  }
  if (list == nullptr) throw InputError(path, LineOf(node), f, "expected [[" + f + "]] tables");
  for (const toml::node& item : *list) {
    if (!item.is_table()) throw InputError(path, LineOf(item), f, "expected a table");
    if (f == "sweep.variant") ReadVariant(*item.as_table(), path, plan);
    if (f == "sweep.parameter") ReadParameter(*item.as_table(), path, plan);
  }
}

// `stats = ["branch_share.alg4-none", ...]`: scheduler statistics as columns of their own.
void ReadStats(const toml::node& node, const std::string& path, SweepPlan& plan) {
  const toml::array* list = node.as_array();
  if (list == nullptr)
    throw InputError(path, LineOf(node), "sweep.stats", "expected a list of names");
  for (const toml::node& item : *list) {
    const std::optional<std::string> name = item.value<std::string>();
    if (!name || name->empty() || name->find_first_of(",\"\r\n") != std::string::npos) {
      throw InputError(path, LineOf(item), "sweep.stats",
                       "expected a statistic's name (no commas, quotes or line breaks)");
    }
    if (std::find(plan.stats.begin(), plan.stats.end(), *name) != plan.stats.end()) {
      throw InputError(path, LineOf(item), "sweep.stats",
                       fmt::format("'{}' is listed twice", *name));
    }
    plan.stats.push_back(*name);
  }
}

void ReadSweepTable(const toml::table& sweep, const std::string& path, SweepPlan& plan) {
  for (const auto& [k, node] : sweep) {
    const std::string f = "sweep." + std::string(k.str());
    if (k == "seeds") {
      ReadSeeds(node, path, plan);
    } else if (k == "systems" || k == "variant" || k == "parameter") {
      ReadSweepList(node, path, f, plan);
    } else if (k == "stats") {
      ReadStats(node, path, plan);
    } else {
      throw InputError(path, LineOf(node), f,
                       "unknown key (known: seeds, systems, stats, [[sweep.variant]], "
                       "[[sweep.parameter]])");
    }
  }
  if (plan.variants.empty()) {
    throw InputError(path, LineOf(sweep), "sweep.systems", "name at least one system or variant");
  }
  for (size_t i = 0; i < plan.variants.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (plan.variants[i].name == plan.variants[j].name) {
        throw InputError(path, plan.variants[i].line, "sweep.variant",
                         fmt::format("'{}' is listed twice (also on line {})",
                                     plan.variants[i].name, plan.variants[j].line));
      }
    }
  }
  if (plan.seeds.empty()) plan.seeds.push_back(1);
  if (plan.Runs() > static_cast<size_t>(kMaxSweepRuns)) {
    throw InputError(
        path, LineOf(sweep), "sweep",
        fmt::format("{} points x {} variants x {} seeds make {} runs; at most {}", plan.points,
                    plan.variants.size(), plan.seeds.size(), plan.Runs(), kMaxSweepRuns));
  }
}

// Point p's value of parameter i.
size_t ValueIndex(const SweepPlan& plan, size_t p, size_t i) {
  for (size_t j = plan.parameters.size(); j-- > i + 1;) p /= plan.parameters[j].values.size();
  return p % plan.parameters[i].values.size();
}

// Applies one value without going through TOML text: policy settings directly, cluster and
// workload values as a table built here (whose errors cite the value's line in the file).
void ApplyParameter(const SweepParameter& par, size_t i, const std::string& file, RunSpec& spec) {
  const toml::node& value = *par.values.get(i);
  const std::string field = "sweep.parameter " + par.key;
  const size_t dot = par.key.find('.');
  const std::string table = par.key.substr(0, dot), name = par.key.substr(dot + 1);
  if (table == "scheduler" || table == "network") {
    SetPolicySetting(spec, par.key, SettingText(value, file, field), file, par.lines[i], field);
    return;
  }
  toml::table inner;
  value.visit([&](const auto& v) { inner.insert(name, v); });
  toml::table root;
  root.insert(table, std::move(inner));
  try {
    ApplyConfigTable(root, file, spec);
  } catch (const InputError& e) {
    throw InputError(file, par.lines[i], field, e.message());
  }
}

}  // namespace

SweepRun SweepPlan::RunAt(size_t index) const {
  const size_t s = index % seeds.size();
  index /= seeds.size();
  return SweepRun{index / variants.size(), index % variants.size(), seeds[s]};
}

SweepPlan ReadSweepPlan(const std::string& file, const std::string& trace,
                        const std::string& trace_field) {
  const std::string text = ReadInputFile(file, "sweep");
  const toml::table root = ParseToml(text, file);
  SweepPlan plan;
  plan.file = file;
  plan.file_sha256 = Sha256Hex(text);
  if (root.contains("seed")) {
    throw InputError(file, LineOf(*root.get("seed")), "seed",
                     "a sweep's seeds are set in [sweep] (seeds = N or a list)");
  }
  ApplyConfigTable(root, file, plan.base, {"sweep"});
  const toml::table* sweep = root["sweep"].as_table();
  if (sweep == nullptr) throw InputError(file, 0, "sweep", "the file has no [sweep] table");
  ReadSweepTable(*sweep, file, plan);
  if (!trace.empty()) {
    plan.base.trace = trace;
    plan.base.input_from = {"trace", trace, "", 0, trace_field};
    plan.base.jobs_file.clear();
  }
  return plan;
}

RunSpec SweepSpecFor(const SweepPlan& plan, const SweepRun& run) {
  RunSpec spec = plan.base;
  const SweepVariant& v = plan.variants[run.variant];
  if (!v.system.empty()) {
    try {
      ApplySystem(spec, v.system, "sweep.variant " + v.name, /*replace_policies=*/true);
    } catch (const InputError& e) {
      throw InputError(plan.file, v.line, "sweep.variant " + v.name, e.message());
    }
  }
  for (size_t i = 0; i < plan.parameters.size(); ++i) {
    ApplyParameter(plan.parameters[i], ValueIndex(plan, run.point, i), plan.file, spec);
  }
  for (const SweepVariant::Setting& s : v.settings) {
    SetPolicySetting(spec, s.key, s.value, plan.file, s.line,
                     "sweep.variant '" + v.name + "' " + s.key);
  }
  spec.simulation.seed = run.seed;
  return spec;
}

std::vector<std::string> SweepKeyColumns(const SweepPlan& plan) {
  std::vector<std::string> columns = {"point"};
  for (const SweepParameter& p : plan.parameters) {
    columns.push_back(p.key);
    if (!p.si_suffix.empty()) columns.push_back(p.key + p.si_suffix);
  }
  columns.insert(columns.end(), {"variant_index", "variant", "seed"});
  return columns;
}

std::string SweepKeyText(const SweepPlan& plan, const SweepRun& run) {
  std::string text = std::to_string(run.point);
  for (size_t i = 0; i < plan.parameters.size(); ++i) {
    const SweepParameter& p = plan.parameters[i];
    const size_t v = ValueIndex(plan, run.point, i);
    text += ',' + p.labels[v];
    if (!p.si_suffix.empty()) text += ',' + p.si_labels[v];
  }
  return text + fmt::format(",{},{},{}", run.variant, plan.variants[run.variant].name, run.seed);
}

std::string SweepHeaderLine(const SweepPlan& plan) {
  std::string stats;
  for (const std::string& name : plan.stats) stats += ",stat." + name;
  return fmt::format(
      "{},setup_sha256,jobs,unfinished_jobs,mean_jct_s,p50_jct_s,p95_jct_s,p99_jct_s,max_jct_s,"
      "g1_mean_jct_s,g2_mean_jct_s,g3_mean_jct_s,g4_mean_jct_s,g5_mean_jct_s,g6_mean_jct_s,"
      "g7_mean_jct_s,slot_utilisation,downlink_utilisation,locality,reservations,"
      "insufficient_share,congested_share,mode_switches,events,wall_s{}",
      fmt::join(SweepKeyColumns(plan), ","), stats);
}

}  // namespace slotflow
