#include "cli/sweep.h"

#include <fmt/format.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>

#include "cli/parallel.h"
#include "cli/run_spec.h"
#include "common/error.h"
#include "common/input_file.h"
#include "systems/systems.h"

namespace slotflow {
namespace {

namespace fs = std::filesystem;

int LineOf(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

struct Parameter {
  std::string key;                  // "cluster.servers"
  std::vector<std::string> values;  // each as TOML text ("30", "\"two-tier\"")
  std::vector<std::string> labels;  // each as the CSV shows it (30, two-tier)
  std::vector<int> lines;
};

struct Variant {
  std::string name, system;
  std::vector<std::pair<std::string, std::string>> settings;  // "scheduler.x" → value text
  int line = 0;
};

struct SweepPlan {
  RunSpec base;
  std::vector<Parameter> parameters;
  std::vector<Variant> variants;
  std::vector<uint64_t> seeds;
  size_t points = 1;
};

// A TOML scalar as it would be written after --set (strings unquoted).
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

std::string PlainText(const toml::node& n) {
  if (auto v = n.value_exact<std::string>()) return *v;
  return TomlText(n);
}

void ReadSeeds(const toml::node& node, const std::string& path, SweepPlan& plan) {
  if (auto n = node.value_exact<int64_t>()) {
    if (*n < 1 || *n > 1000) throw InputError(path, LineOf(node), "sweep.seeds", "must be in 1..1000");
    for (int64_t k = 1; k <= *n; ++k) plan.seeds.push_back(static_cast<uint64_t>(k));
    return;
  }
  const toml::array* list = node.as_array();
  if (list == nullptr || list->empty()) {
    throw InputError(path, LineOf(node), "sweep.seeds", "expected a count or a list of seeds");
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

void ReadParameter(const toml::table& t, const std::string& path, SweepPlan& plan) {
  const std::string field = fmt::format("sweep.parameter[{}]", plan.parameters.size());
  Parameter p;
  for (const auto& [k, v] : t) {
    if (k != "key" && k != "values") {
      throw InputError(path, LineOf(v), field + "." + std::string(k.str()),
                       "unknown key (known: key, values)");
    }
  }
  const auto key = t["key"].value_exact<std::string>();
  static const std::vector<std::string> kPrefixes = {"cluster.", "workload.", "scheduler.",
                                                     "network."};
  const bool known_prefix = key && std::any_of(kPrefixes.begin(), kPrefixes.end(),
                                               [&](const std::string& x) {
                                                 return key->rfind(x, 0) == 0 &&
                                                        key->size() > x.size();
                                               });
  if (!known_prefix) {
    throw InputError(path, LineOf(t), field + ".key",
                     "expected \"cluster.KEY\", \"workload.KEY\", \"scheduler.KEY\" or "
                     "\"network.KEY\"");
  }
  p.key = *key;
  const toml::array* values = t["values"].as_array();
  if (values == nullptr || values->empty()) {
    throw InputError(path, LineOf(t), field + ".values", "expected a non-empty list");
  }
  for (const toml::node& v : *values) {
    if (!v.is_value()) throw InputError(path, LineOf(v), field + ".values", "expected scalars");
    p.values.push_back(TomlText(v));
    p.labels.push_back(PlainText(v));
    if (p.labels.back().find_first_of(",\"\r\n") != std::string::npos) {
      throw InputError(path, LineOf(v), field + ".values", "a value may not hold , \" or a newline");
    }
    p.lines.push_back(LineOf(v));
  }
  for (const Parameter& other : plan.parameters) {
    if (other.key == p.key) {
      throw InputError(path, LineOf(t), field + ".key", "'" + p.key + "' is swept twice");
    }
  }
  plan.points *= p.values.size();
  if (plan.points > 1'000'000) throw InputError(path, LineOf(t), field, "over 1,000,000 points");
  plan.parameters.push_back(std::move(p));
}

void ReadVariant(const toml::table& t, const std::string& path, SweepPlan& plan) {
  const std::string field = fmt::format("sweep.variant[{}]", plan.variants.size());
  Variant v;
  v.line = LineOf(t);
  for (const auto& [k, node] : t) {
    const std::string f = field + "." + std::string(k.str());
    if (k == "name" || k == "system") {
      const auto s = node.value_exact<std::string>();
      if (!s || s->empty()) throw InputError(path, LineOf(node), f, "expected a name");
      (k == "name" ? v.name : v.system) = *s;
    } else if (k == "set") {
      const toml::table* set = node.as_table();
      if (set == nullptr) throw InputError(path, LineOf(node), f, "expected a table");
      for (const auto& [sk, sv] : *set) {
        const std::string key(sk.str());
        if (key.rfind("scheduler.", 0) != 0 && key.rfind("network.", 0) != 0) {
          throw InputError(path, LineOf(sv), f + "." + key,
                           "a variant sets only scheduler.KEY or network.KEY");
        }
        if (!sv.is_value()) throw InputError(path, LineOf(sv), f + "." + key, "expected a value");
        v.settings.emplace_back(key, PlainText(sv));
      }
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

void ReadSweepTable(const toml::table& sweep, const std::string& path, SweepPlan& plan) {
  for (const auto& [k, node] : sweep) {
    const std::string f = "sweep." + std::string(k.str());
    if (k == "seeds") {
      ReadSeeds(node, path, plan);
    } else if (k == "systems") {
      const toml::array* list = node.as_array();
      if (list == nullptr) throw InputError(path, LineOf(node), f, "expected a list of systems");
      for (const toml::node& s : *list) {
        const auto name = s.value_exact<std::string>();
        if (!name) throw InputError(path, LineOf(s), f, "expected a system's name");
        plan.variants.push_back(Variant{*name, *name, {}, LineOf(s)});
      }
    } else if (k == "variant" || k == "parameter") {
      const toml::array* list = node.as_array();
      if (list == nullptr) throw InputError(path, LineOf(node), f, "expected [[" + f + "]] tables");
      for (const toml::node& item : *list) {
        if (!item.is_table()) throw InputError(path, LineOf(item), f, "expected a table");
        if (k == "variant") ReadVariant(*item.as_table(), path, plan);
        if (k == "parameter") ReadParameter(*item.as_table(), path, plan);
      }
    } else {
      throw InputError(path, LineOf(node), f,
                       "unknown key (known: seeds, systems, [[sweep.variant]], "
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
                         "'" + plan.variants[i].name + "' is listed twice");
      }
    }
  }
  if (plan.seeds.empty()) plan.seeds.push_back(1);
}

SweepPlan ReadSweepFile(const SweepOptions& o) {
  const std::string text = ReadInputFile(o.file, "sweep");
  toml::table root;
  try {
    root = toml::parse(text, std::string_view(o.file));
  } catch (const toml::parse_error& e) {
    throw InputError(o.file, static_cast<int>(e.source().begin.line), "",
                     std::string(e.description()));
  }
  SweepPlan plan;
  if (root.contains("seed")) {
    throw InputError(o.file, LineOf(*root.get("seed")), "seed",
                     "a sweep's seeds are set in [sweep] (seeds = N or a list)");
  }
  ApplyConfigText(text, o.file, plan.base, {"sweep"});
  const toml::table* sweep = root["sweep"].as_table();
  if (sweep == nullptr) throw InputError(o.file, 0, "sweep", "the file has no [sweep] table");
  ReadSweepTable(*sweep, o.file, plan);
  if (!o.trace.empty()) {
    plan.base.trace = o.trace;
    plan.base.jobs_file.clear();
  }
  return plan;
}

// The value indices of point p (the first parameter outermost).
std::vector<size_t> PointValues(const SweepPlan& plan, size_t p) {
  std::vector<size_t> idx(plan.parameters.size());
  for (size_t i = plan.parameters.size(); i-- > 0;) {
    idx[i] = p % plan.parameters[i].values.size();
    p /= plan.parameters[i].values.size();
  }
  return idx;
}

// The base set-up with point p's values and the variant's system and settings.
RunSpec SpecFor(const SweepPlan& plan, const std::string& file, size_t p, const Variant& v) {
  RunSpec spec = plan.base;
  if (!v.system.empty()) {
    try {
      ApplySystem(spec, v.system, "sweep.variant " + v.name);
    } catch (const InputError& e) {
      throw InputError(file, v.line, "sweep.variant " + v.name, e.message());
    }
  }
  const std::vector<size_t> idx = PointValues(plan, p);
  for (size_t i = 0; i < plan.parameters.size(); ++i) {
    const Parameter& par = plan.parameters[i];
    const size_t dot = par.key.find('.');
    const std::string snippet = fmt::format("[{}]\n{} = {}\n", par.key.substr(0, dot),
                                            par.key.substr(dot + 1), par.values[idx[i]]);
    try {
      ApplyConfigText(snippet, file, spec);
    } catch (const InputError& e) {
      throw InputError(file, par.lines[idx[i]], "sweep.parameter " + par.key, e.message());
    }
  }
  for (const auto& [key, value] : v.settings) {
    SetPolicySetting(spec, key, value, file, v.line, "sweep.variant '" + v.name + "' " + key);
  }
  return spec;
}

constexpr const char* kStatColumns =
    "jobs,unfinished_jobs,mean_jct_s,p50_jct_s,p95_jct_s,p99_jct_s,max_jct_s,g1_mean_jct_s,"
    "g2_mean_jct_s,g3_mean_jct_s,g4_mean_jct_s,g5_mean_jct_s,g6_mean_jct_s,g7_mean_jct_s,"
    "slot_utilisation,downlink_utilisation,locality,reservations,insufficient_share,"
    "congested_share,mode_switches,events,wall_s";

std::string Header(const SweepPlan& plan) {
  std::string h = "point";
  for (const Parameter& p : plan.parameters) h += "," + p.key;
  return h + ",variant_index,variant,seed," + kStatColumns;
}

std::string Num(double v) { return std::isfinite(v) ? fmt::format("{}", v) : ""; }

double Stat(const RunSummary& s, const std::string& name) {
  for (const auto& [k, v] : s.scheduler_stats) {
    if (k == name) return v;
  }
  return std::nan("");
}

std::string Row(const SweepPlan& plan, size_t p, size_t vi, uint64_t seed, const RunSummary& s) {
  std::string row = std::to_string(p);
  const std::vector<size_t> idx = PointValues(plan, p);
  for (size_t i = 0; i < plan.parameters.size(); ++i) {
    row += ',';
    row += plan.parameters[i].labels[idx[i]];
  }
  row += fmt::format(",{},{},{},{},{},{},{},{},{},{}", vi, plan.variants[vi].name, seed, s.jobs,
                     s.unfinished_jobs, Num(s.mean_jct), Num(s.p50_jct), Num(s.p95_jct),
                     Num(s.p99_jct), Num(s.max_jct));
  for (int g = 0; g < 7; ++g) {
    row += ',';
    if (g < static_cast<int>(s.mean_jct_by_group.size())) row += Num(s.mean_jct_by_group[g]);
  }
  row += fmt::format(",{},{},{},{},{},{},{},{},{}", Num(s.slot_utilisation),
                     Num(s.downlink_utilisation), Num(s.locality), s.reservations,
                     Num(Stat(s, "insufficient_share")), Num(Stat(s, "congested_share")),
                     Num(Stat(s, "mode_switches")), s.events, Num(s.wall_s));
  return row;
}

// (point, variant_index, seed) of a row, read back from its columns.
using RowKey = std::tuple<size_t, size_t, uint64_t>;

RowKey KeyOf(const std::string& row, size_t parameters, const std::string& file, int line) {
  std::vector<std::string_view> cols;
  size_t start = 0;
  for (size_t i = 0; i <= parameters + 3 && start <= row.size(); ++i) {
    const size_t comma = row.find(',', start);
    cols.emplace_back(std::string_view(row).substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  auto number = [&](size_t col, const char* name) {
    uint64_t v = 0;
    if (col >= cols.size() ||
        std::from_chars(cols[col].data(), cols[col].data() + cols[col].size(), v).ec !=
            std::errc()) {
      throw InputError(file, line, name, "not a sweep result row");
    }
    return v;
  };
  return {number(0, "point"), number(parameters + 1, "variant_index"),
          number(parameters + 3, "seed")};
}

// Rows already in `path` (results.csv or journal.csv), checked against the sweep's header.
void ReadRows(const fs::path& path, const std::string& header, size_t parameters,
              std::map<RowKey, std::string>& rows) {
  std::ifstream in(path);
  if (!in) return;
  std::string line;
  if (!std::getline(in, line)) return;
  if (line != header) {
    throw InputError(path.string(), 1, "--out",
                     "holds the results of another sweep (its header differs); use another "
                     "directory");
  }
  int n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    rows[KeyOf(line, parameters, path.string(), n)] = line;
  }
}

std::string Duration(double s) {
  const auto total = static_cast<int64_t>(std::llround(s));
  return total >= 3600 ? fmt::format("{}h{:02}m", total / 3600, total % 3600 / 60)
                       : fmt::format("{}m{:02}s", total / 60, total % 60);
}

struct Job {
  size_t point, variant;
  uint64_t seed;
};

// Runs the jobs on the thread pool; each finished row goes to the journal at once.
int RunJobs(const SweepPlan& plan, const SweepOptions& o, const std::vector<Job>& jobs,
            const std::map<size_t, std::shared_ptr<const PreparedRun>>& prepared,
            std::ofstream& journal) {
  std::mutex mutex;
  size_t done = 0;
  int unfinished = 0;
  const auto start = std::chrono::steady_clock::now();
  auto last_shown = start - std::chrono::hours(1);
  const bool tty = isatty(STDERR_FILENO) != 0;
  ParallelFor(jobs.size(), o.threads, [&](size_t i) {
    const Job& job = jobs[i];
    RunSpec spec = SpecFor(plan, o.file, job.point, plan.variants[job.variant]);
    spec.simulation.seed = job.seed;
    const auto it = prepared.find(job.point);
    const RunResult r =
        it != prepared.end() ? Execute(spec, *it->second) : Execute(spec, Prepare(spec));
    const std::string row = Row(plan, job.point, job.variant, job.seed, r.summary);
    std::lock_guard<std::mutex> lock(mutex);
    journal << row << "\n" << std::flush;
    if (!journal) throw InputError(o.out + "/journal.csv", 0, "--out", "cannot write");
    ++done;
    unfinished += r.summary.unfinished_jobs > 0;
    const auto now = std::chrono::steady_clock::now();
    if (o.progress &&
        (now - last_shown > std::chrono::seconds(tty ? 1 : 10) || done == jobs.size())) {
      last_shown = now;
      const double elapsed = std::chrono::duration<double>(now - start).count();
      const double left =
          elapsed / static_cast<double>(done) * static_cast<double>(jobs.size() - done);
      fmt::print(stderr, "{}sweep: {}/{} runs done, {} elapsed, about {} left{}", tty ? "\r" : "",
                 done, jobs.size(), Duration(elapsed), Duration(left),
                 tty && done < jobs.size() ? "   " : "\n");
    }
  });
  return unfinished;
}

void WriteResults(const fs::path& path, const std::string& header,
                  const std::map<RowKey, std::string>& rows) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    out << header << "\n";
    for (const auto& [key, row] : rows) out << row << "\n";
    if (!out) throw InputError(tmp.string(), 0, "--out", "cannot write the file");
  }
  fs::rename(tmp, path);
}

}  // namespace

void ParseShard(const std::string& text, int& shard, int& shards) {
  const size_t slash = text.find('/');
  auto parse = [&](std::string_view s, int& v) {
    return std::from_chars(s.data(), s.data() + s.size(), v).ptr == s.data() + s.size() &&
           !s.empty();
  };
  if (slash == std::string::npos || !parse(std::string_view(text).substr(0, slash), shard) ||
      !parse(std::string_view(text).substr(slash + 1), shards) || shards < 1 || shard < 1 ||
      shard > shards) {
    throw InputError("", 0, "--shard", "expected I/N with 1 <= I <= N, got '" + text + "'");
  }
}

int RunSweep(const SweepOptions& o) {
  const SweepPlan plan = ReadSweepFile(o);
  // Every point and variant is checked before anything runs; a trace or job file is read
  // once per point (it does not depend on the seed).
  const bool per_seed = plan.base.trace.empty() && plan.base.jobs_file.empty();
  std::map<size_t, std::shared_ptr<const PreparedRun>> prepared;
  std::vector<size_t> points;
  for (size_t p = 0; p < plan.points; ++p) {
    if (static_cast<int>(p % static_cast<size_t>(o.shards)) != o.shard - 1) continue;
    points.push_back(p);
    for (const Variant& v : plan.variants) ResolvePolicies(SpecFor(plan, o.file, p, v));
    RunSpec spec = SpecFor(plan, o.file, p, plan.variants.front());
    spec.simulation.seed = plan.seeds.front();
    auto run = std::make_shared<const PreparedRun>(Prepare(spec));
    if (!per_seed) prepared[p] = std::move(run);
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw InputError(o.out, 0, "--out", "cannot create the directory: " + ec.message());
  const std::string header = Header(plan);
  const fs::path results = fs::path(o.out) / "results.csv", journal_path =
                                                               fs::path(o.out) / "journal.csv";
  std::map<RowKey, std::string> rows;
  ReadRows(results, header, plan.parameters.size(), rows);
  ReadRows(journal_path, header, plan.parameters.size(), rows);
  std::vector<Job> jobs;
  for (size_t p : points) {
    for (size_t v = 0; v < plan.variants.size(); ++v) {
      for (uint64_t seed : plan.seeds) {
        if (!rows.count({p, v, seed})) jobs.push_back({p, v, seed});
      }
    }
  }
  if (o.progress && jobs.size() < points.size() * plan.variants.size() * plan.seeds.size()) {
    fmt::print(stderr, "sweep: resuming, {} runs already done\n", rows.size());
  }
  const bool fresh_journal = !fs::exists(journal_path);
  std::ofstream journal(journal_path, std::ios::app);
  if (!journal) throw InputError(journal_path.string(), 0, "--out", "cannot write the file");
  if (fresh_journal) journal << header << "\n" << std::flush;
  const int unfinished = jobs.empty() ? 0 : RunJobs(plan, o, jobs, prepared, journal);
  journal.close();
  ReadRows(journal_path, header, plan.parameters.size(), rows);
  WriteResults(results, header, rows);
  fs::remove(journal_path, ec);
  if (unfinished > 0) {
    fmt::print(stderr, "slotflow: error: {} runs of the sweep left jobs unfinished (see "
                       "unfinished_jobs in {})\n",
               unfinished, results.string());
    return 2;
  }
  return 0;
}

void MergeSweepResults(const std::vector<std::string>& inputs, const std::string& out) {
  if (inputs.empty()) throw InputError("", 0, "merge", "give at least one results file");
  std::string header;
  size_t parameters = 0;
  std::map<RowKey, std::string> rows;
  for (const std::string& in : inputs) {
    std::istringstream text(ReadInputFile(in, "results"));
    std::string first;
    if (!std::getline(text, first) || first.rfind("point,", 0) != 0) {
      throw InputError(in, 1, "header", "not a sweep's results.csv");
    }
    if (header.empty()) {
      header = first;
      const size_t variant = header.find(",variant_index,");
      if (variant == std::string::npos) throw InputError(in, 1, "header", "no variant_index");
      parameters = static_cast<size_t>(
          std::count(header.begin(), header.begin() + static_cast<long>(variant), ','));
    } else if (first != header) {
      throw InputError(in, 1, "header", "differs from " + inputs.front() + "'s");
    }
    int n = 1;
    for (std::string line; std::getline(text, line);) {
      ++n;
      if (line.empty()) continue;
      const RowKey key = KeyOf(line, parameters, in, n);
      if (rows.count(key)) {
        throw InputError(in, n, "row", "this (point, variant, seed) is also in another input");
      }
      rows[key] = line;
    }
  }
  std::error_code ec;
  if (fs::path(out).has_parent_path()) fs::create_directories(fs::path(out).parent_path(), ec);
  WriteResults(out, header, rows);
}

}  // namespace slotflow
