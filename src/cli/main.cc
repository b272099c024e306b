// slotflow command line: `slotflow run` simulates one workload under one task scheduler and one
// network policy; `slotflow policies` lists what can be named; `slotflow testbed` makes the
// emulated cluster of live mode, and `slotflow live` runs a workload on it. Errors in input are
// reported here, in one place, with the file, line and field, and a non-zero exit code.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <tuple>

#include "cli/live_command.h"
#include "cli/testbed_command.h"
#include "cluster/cluster_config.h"
#include "common/error.h"
#include "common/event_log.h"
#include "common/input_file.h"
#include "common/output_file.h"
#include "common/version.h"
#include "live/command_runner.h"
#include "run/compare_stats.h"
#include "run/config_file.h"
#include "run/execute.h"
#include "run/policies.h"
#include "run/prepare.h"
#include "run/run_spec.h"
#include "run/setup.h"
#include "run/sweep.h"
#include "scheduling/job_order.h"
#include "systems/systems.h"

namespace slotflow {
namespace {

constexpr int kExitInputError = 2;
constexpr int kExitInternalError = 3;

struct RawFlags {
  std::string config, mode, order, queues, nic, disk, slot_rate, topology, out, log;
  std::optional<int> servers, slots, replicas, servers_per_rack;
  std::optional<double> cpu_speed, oversubscription;
  std::string seed;
  std::vector<std::string> set;
  std::string traffic_scale, map_input_ratio, estimate_error, synthetic_jobs, generator, tcds_group;
  std::string flow_sizes, flow_load, flows;
  std::string system, scheduler, network, trace, jobs;
  bool quiet = false;
  bool check = false;
  bool utilisation = false;
};

// A file name given on the command line must not be empty (an empty --trace would otherwise
// silently run the embedded workload).
const CLI::Validator kNonEmpty(
    [](std::string& s) { return s.empty() ? std::string("the file name is empty") : ""; }, "FILE");

const CLI::Validator kNonEmptyValue(
    [](std::string& s) { return s.empty() ? std::string("the value is empty") : ""; }, "");

void AddRunFlags(CLI::App& cmd, RawFlags& f) {
  cmd.add_option("--trace", f.trace,
                 "Facebook coflow-benchmark trace file (e.g. FB2010-1Hr-150-0.txt)")
      ->check(kNonEmpty);
  cmd.add_option("--jobs", f.jobs, "TOML job file (see docs/job-file.md); may define the cluster")
      ->check(kNonEmpty);
  cmd.add_option("--mode", f.mode,
                 "jobs: tasks are placed by the scheduler (default); network: tasks pinned, no "
                 "compute, only the network policy matters (trace ports become servers)");
  cmd.add_option("--config", f.config,
                 "TOML config file: seed, system, [cluster], [workload], [scheduler], [network]")
      ->check(kNonEmpty);
  cmd.add_option("--scheduler", f.scheduler,
                 "task-scheduling policy (see `slotflow policies`; default greedy)");
  cmd.add_option("--network", f.network, "network policy (see `slotflow policies`; default fair)");
  cmd.add_option("--system", f.system,
                 "a named preset of scheduler, network and their settings, e.g. duopoly, neat, "
                 "aalo (see `slotflow policies`)");
  cmd.add_option("--set", f.set,
                 "a policy setting, KEY=VALUE (repeatable), e.g. network.queues=unlimited, "
                 "scheduler.monitor_interval=100ms; `slotflow policies NAME` lists them");
  cmd.add_option("--order", f.order, "same as --set scheduler.order=ORDER (fifo, sjf, fair)");
  cmd.add_option("--queues", f.queues, "same as --set network.queues=N (a count or unlimited)");
  cmd.add_option("--servers", f.servers, "number of servers (default 50)");
  cmd.add_option("--slots", f.slots, "compute slots per server (default 4)");
  cmd.add_option("--nic", f.nic, "NIC capacity, each direction, e.g. 1Gbps (default), 125MB/s");
  cmd.add_option("--cpu-speed", f.cpu_speed, "relative CPU speed of every server (default 1.0)");
  cmd.add_option("--disk", f.disk,
                 "disk bandwidth per server, e.g. 200MB/s (default: not modelled)");
  cmd.add_option("--slot-rate", f.slot_rate,
                 "compute rate of one slot in input bytes/s (default 1GB/s)");
  cmd.add_option("--replicas", f.replicas, "replicas of each input block (default 3)");
  cmd.add_option("--topology", f.topology, "big-switch (default) or two-tier");
  cmd.add_option("--servers-per-rack", f.servers_per_rack, "servers per rack (default 10)");
  cmd.add_option("--oversubscription", f.oversubscription,
                 "two-tier rack uplink oversubscription (default 1)");
  cmd.add_option("--traffic-scale", f.traffic_scale,
                 "multiply every byte count of the workload (default 1)");
  cmd.add_option("--map-input-ratio", f.map_input_ratio,
                 "trace/synthetic jobs: map input = ratio x job shuffle / maps (default 1)");
  cmd.add_option("--synthetic-jobs", f.synthetic_jobs,
                 "jobs in the embedded synthetic workload (default 200)");
  cmd.add_option("--generator", f.generator,
                 "embedded workload when no trace or job file is given: synthetic (default), "
                 "tcds (seed 001 §3.1: very short, short and long map tasks) or flows (seed 003 "
                 "§VII: single transfers, the receiver chosen by placement)");
  cmd.add_option("--tcds-group", f.tcds_group,
                 "tcds generator: the task mix of seed 001 Table 1's group 1..5 (default 1)");
  cmd.add_option("--flow-sizes", f.flow_sizes,
                 "flows generator: websearch (DCTCP) or datamining (VL2, default) flow sizes");
  cmd.add_option("--flow-load", f.flow_load,
                 "flows generator: mean load of the edge links, in (0, 1] (default 0.5)");
  cmd.add_option("--flows", f.flows, "flows generator: number of flows (default 2000)");
  cmd.add_option("--estimate-error", f.estimate_error,
                 "SJF size estimates multiplied by a random factor in [1-e, 1+e] (default 0)");
  cmd.add_option("--seed", f.seed,
                 "random seed: block replicas, synthetic jobs, random choices (default 1)");
  cmd.add_option("--out", f.out, "directory for summary.json, jobs.csv and tasks.csv")
      ->check(kNonEmpty);
  cmd.add_flag("--quiet", f.quiet, "no summary table on stdout and no progress on stderr");
  cmd.add_flag("--utilisation", f.utilisation,
               "with --out: also write utilisation.csv, each server's CPU (slots), memory, disk, "
               "uplink and downlink utilisation over time");
  cmd.add_flag("--check", f.check,
               "verify after every event that no link, slot or memory is over-committed, no flow "
               "beat its slowest link and no task started before its inputs (slower)");
}

// An empty value would leave the default in force (`--generator ''` silently ran the synthetic
// workload): every option of every command that takes a value refuses it.
void RefuseEmptyValues(CLI::App& app) {
  for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* o : cmd->get_options([](CLI::Option* o) { return o->get_type_size() > 0; })) {
      o->check(kNonEmptyValue);
    }
  }
}

// The cluster flags, each checked against the same domain as its [cluster] key, so a bad value
// is reported under the flag that gave it.
void SetClusterFlags(const RawFlags& f, ClusterOverrides& o) {
  auto in_range = [](const std::optional<int>& v, const char* flag, int lo, int hi) {
    if (v && (*v < lo || *v > hi)) {
      throw InputError("", 0, flag, fmt::format("must be in {}..{}, got {}", lo, hi, *v));
    }
    return v;
  };
  auto positive = [](const std::optional<double>& v, const char* flag) {
    if (v && !(*v > 0 && std::isfinite(*v))) {
      throw InputError("", 0, flag, fmt::format("must be a finite positive number, got {}", *v));
    }
    return v;
  };
  o.servers = in_range(f.servers, "--servers", 1, kMaxServers);
  o.slots = in_range(f.slots, "--slots", 0, kMaxSlotsPerServer);
  o.replicas = in_range(f.replicas, "--replicas", 1, kMaxServers);
  o.servers_per_rack = in_range(f.servers_per_rack, "--servers-per-rack", 1, kMaxServers);
  o.cpu_speed = positive(f.cpu_speed, "--cpu-speed");
  o.oversubscription = positive(f.oversubscription, "--oversubscription");
  if (!f.nic.empty()) o.nic = positive(ParseRate(f.nic, "--nic"), "--nic");
  if (!f.disk.empty()) o.disk = ParseRate(f.disk, "--disk");
  if (!f.slot_rate.empty())
    o.slot_rate = positive(ParseRate(f.slot_rate, "--slot-rate"), "--slot-rate");
}

// How this process was invoked, shell-quoted, for summary.json.
std::string g_command_line;

std::string QuotedCommandLine(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a(argv[i]);
    if (!out.empty()) out += ' ';
    const bool plain =
        !a.empty() && a.find_first_not_of(
                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
                          "OPQRSTUVWXYZ0123456789_-./=:,+@%") == std::string_view::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

// `system_replaces`: f.system is one entry of a comparison (see ApplySystem).
RunSpec BuildSpec(const RawFlags& f, bool system_replaces = false) {
  RunSpec spec;
  spec.command_line = g_command_line;
  // Checked here so that a missing file is reported under its flag; the readers only know
  // the file.
  if (!f.trace.empty() && !f.jobs.empty()) {
    throw InputError("", 0, "--trace/--jobs", "give a trace or a job file, not both");
  }
  for (const auto& [flag, path] : {std::pair{"--config", &f.config}, std::pair{"--trace", &f.trace},
                                   std::pair{"--jobs", &f.jobs}}) {
    if (!path->empty()) CheckInputFile(*path, flag);
  }
  if (!f.config.empty()) ApplyConfigFile(f.config, spec);
  if (!f.trace.empty()) {
    spec.trace = f.trace;
    spec.input_from = {"trace", f.trace, "", 0, "--trace"};
  }
  if (!f.jobs.empty()) {
    spec.jobs_file = f.jobs;
    spec.input_from = {"jobs", f.jobs, "", 0, "--jobs"};
  }
  if (!f.mode.empty()) spec.mode = ParseRunMode(f.mode, "--mode");
  if (!f.system.empty()) ApplySystem(spec, f.system, "--system", system_replaces);
  if (!f.scheduler.empty())
    SetPolicySetting(spec, "scheduler.policy", f.scheduler, "", 0, "--scheduler");
  if (!f.network.empty()) SetPolicySetting(spec, "network.policy", f.network, "", 0, "--network");
  if (!f.order.empty()) SetPolicySetting(spec, "scheduler.order", f.order, "", 0, "--order");
  if (!f.queues.empty()) SetPolicySetting(spec, "network.queues", f.queues, "", 0, "--queues");
  for (const std::string& a : f.set) ApplySetFlag(spec, a);
  SetClusterFlags(f, spec.overrides);
  if (!f.topology.empty()) spec.overrides.topology = ParseTopology(f.topology, "--topology");
  if (!f.seed.empty()) spec.simulation.seed = ParseSeed(f.seed, "--seed");
  spec.simulation.check = f.check;
  spec.simulation.collect_tasks = !f.out.empty();
  if (f.utilisation && f.out.empty()) {
    throw InputError("", 0, "--utilisation", "needs --out DIR to write utilisation.csv into");
  }
  spec.simulation.collect_utilisation = f.utilisation;
  for (const auto& [key, flag, text] :
       {std::tuple{"traffic_scale", "--traffic-scale", &f.traffic_scale},
        std::tuple{"map_input_ratio", "--map-input-ratio", &f.map_input_ratio},
        std::tuple{"estimate_error", "--estimate-error", &f.estimate_error},
        std::tuple{"synthetic_jobs", "--synthetic-jobs", &f.synthetic_jobs},
        std::tuple{"generator", "--generator", &f.generator},
        std::tuple{"tcds_group", "--tcds-group", &f.tcds_group},
        std::tuple{"flow_sizes", "--flow-sizes", &f.flow_sizes},
        std::tuple{"flow_load", "--flow-load", &f.flow_load},
        std::tuple{"flows", "--flows", &f.flows}}) {
    if (!text->empty()) SetWorkloadValue(spec, key, *text, "", 0, flag);
  }
  return spec;
}

// Every file of a run is written and synced before any replaces its old one, and summary.json
// (which says how the others were made) goes last: a failure leaves the old run's files.
void WriteOutputs(const std::string& dir, const RunResult& r) {
  const std::filesystem::path d(dir);
  MakeOutputDirectory(d, "--out");
  std::deque<OutputFile> files;
  auto write = [&](const char* name, const std::function<void(std::ostream&)>& fill) {
    fill(files.emplace_back(d / name, "--out").stream());
  };
  write("jobs.csv", [&](std::ostream& o) { WriteJobsCsv(r.jobs, o); });
  write("tasks.csv", [&](std::ostream& o) { WriteTasksCsv(r.tasks, o); });
  if (!r.utilisation.empty()) {
    write("utilisation.csv", [&](std::ostream& o) { WriteUtilisationCsv(r.utilisation, o); });
  }
  if (!r.summary.setup.empty()) {
    write("setup.toml", [&](std::ostream& o) { o << SetupTomlFromJson(r.summary.setup); });
  }
  write("summary.json", [&](std::ostream& o) { WriteSummaryJson(r.summary, o); });
  for (OutputFile& f : files) f.Sync();
  if (r.utilisation.empty()) {
    std::error_code ec;  // an earlier run's, which this one would seem to have written
    if (std::filesystem::is_regular_file(d / "utilisation.csv", ec)) {
      std::filesystem::remove(d / "utilisation.csv", ec);
    }
  }
  for (OutputFile& f : files) f.Commit();
}

// Exit 0 means every job finished: a run that stalled is an input error (a cluster or workload
// on which no event can make progress), reported after its outputs are written.
int CheckFinished(const RunResult& r, const std::string& label) {
  if (r.summary.unfinished_jobs == 0) return 0;
  fmt::print(stderr,
             "slotflow: error: {}{} of {} jobs never finished: {} (check capacities, "
             "slots and arrival times)\n",
             label.empty() ? "" : label + ": ", r.summary.unfinished_jobs,
             r.summary.jobs + r.summary.unfinished_jobs,
             r.summary.time_limit_hit
                 ? fmt::format("they would end after {:g} s, beyond which simulated times are "
                               "not exact",
                               kMaxSimulatedTime)
                 : "no event could make progress");
  return kExitInputError;
}

int RunCommand(const RawFlags& f) {
  RunSpec spec = BuildSpec(f);
  spec.simulation.progress = f.quiet                      ? ProgressStyle::kOff
                             : isatty(STDERR_FILENO) != 0 ? ProgressStyle::kLine
                                                          : ProgressStyle::kLog;
  const PreparedRun run = Prepare(spec);
  if (!f.out.empty()) MakeOutputDirectory(f.out, "--out");  // fail before a long run, not after
  std::optional<OutputFile> log_file;
  std::optional<EventLog> log;
  if (!f.log.empty()) {
    log_file.emplace(f.log, "--log");
    spec.simulation.log = &log.emplace(log_file->stream());
  }
  const RunResult result = Execute(spec, run);
  if (log) {
    log->Flush();
    log_file->Commit();
  }
  if (!f.out.empty()) WriteOutputs(f.out, result);
  if (!f.quiet) PrintSummaryTable(result.summary, std::cout);
  return CheckFinished(result, "");
}

// `live`: the run flags' workload and policies on the testbed, with measured times.
int LiveCommand(const RawFlags& f, const LiveOptions& o) {
  if (f.check) throw InputError("", 0, "--check", "live mode has no simulated invariants to check");
  if (f.utilisation) {
    throw InputError("", 0, "--utilisation", "live mode does not measure utilisation over time");
  }
  RunSpec spec = BuildSpec(f);
  ApplyLiveCluster(o, spec);
  const PreparedRun run = Prepare(spec);
  const RunResult result = RunLive(spec, run, o);
  if (!f.out.empty()) WriteOutputs(f.out, result);
  if (!f.quiet) PrintSummaryTable(result.summary, std::cout);
  return CheckFinished(result, "");
}

std::vector<std::string> SplitList(const std::string& text, const std::string& fallback) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text.empty() ? fallback : text) {
    if (c == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

// In a comparison a setting applies to the entries whose policy declares it: --queues 4 with
// --network fair,tcf sets tcf's queues and leaves fair alone. A key no entry's policy declares
// stays, so that resolving it reports the error.
template <class Registry>
void FitList(std::vector<SettingAssignment>& list, const std::string& policy,
             const std::vector<std::string>& all_policies) {
  auto declares = [](const std::string& name, const std::string& key) {
    if (!Registry::Get().Has(name)) return true;  // the unknown name is reported later
    for (const SettingSpec& s : Registry::Get().Find(name, "").settings) {
      if (s.name == key) return true;
    }
    return false;
  };
  std::erase_if(list, [&](const SettingAssignment& a) {
    if (declares(policy, a.key)) return false;
    for (const std::string& other : all_policies) {
      if (declares(other, a.key)) return true;
    }
    return false;
  });
}

void FitSettings(std::vector<CompareEntry>& entries) {
  std::vector<std::string> schedulers, networks;
  for (const CompareEntry& e : entries) {
    schedulers.push_back(e.spec.scheduler);
    networks.push_back(e.spec.network);
  }
  for (CompareEntry& e : entries) {
    FitList<TaskSchedulerRegistry>(e.spec.scheduler_settings, e.spec.scheduler, schedulers);
    FitList<NetworkPolicyRegistry>(e.spec.network_settings, e.spec.network, networks);
  }
}

// `compare`'s entries: --scheduler and --network take comma-separated lists and every
// combination runs, or --system takes a list. `spec` gets the settings shared by all.
std::vector<CompareEntry> CompareEntries(const RawFlags& f, RunSpec& spec) {
  RawFlags base = f;
  base.scheduler.clear();
  base.network.clear();
  base.system.clear();
  spec = BuildSpec(base);
  std::vector<CompareEntry> entries;
  if (!f.system.empty()) {
    if (!f.scheduler.empty() || !f.network.empty()) {
      throw InputError("", 0, "--system", "give either systems or --scheduler/--network lists");
    }
    for (const std::string& name : SplitList(f.system, "")) {
      RawFlags one = base;
      one.system = name;
      CompareEntry e{name, BuildSpec(one, /*system_replaces=*/true)};
      for (const CompareEntry& other : entries) {
        if (other.label == name)
          throw InputError("", 0, "--system", fmt::format("'{}' is listed twice", name));
      }
      entries.push_back(std::move(e));
    }
  }
  const auto schedulers = SplitList(f.scheduler, spec.scheduler);
  const auto networks = SplitList(f.network, spec.network);
  for (const auto& sched : f.system.empty() ? schedulers : std::vector<std::string>{}) {
    for (const auto& net : networks) {
      CompareEntry e;
      e.spec = spec;
      SetPolicySetting(e.spec, "scheduler.policy", sched, "", 0, "--scheduler");
      SetPolicySetting(e.spec, "network.policy", net, "", 0, "--network");
      e.label = schedulers.size() > 1 && networks.size() > 1 ? sched + "+" + net
                : schedulers.size() > 1                      ? sched
                                                             : net;
      for (const CompareEntry& other : entries) {
        if (other.label == e.label) {
          throw InputError("", 0, "--scheduler/--network",
                           fmt::format("'{}' is listed twice", e.label));
        }
      }
      entries.push_back(std::move(e));
    }
  }
  FitSettings(entries);
  // Unknown names, keys and values fail before any simulation starts.
  for (const CompareEntry& e : entries) ResolvePolicies(e.spec);
  if (entries.empty()) {
    throw InputError("", 0, f.system.empty() ? "--scheduler/--network" : "--system",
                     "the list is empty");
  }
  return entries;
}

// --out of compare: a sub-directory per entry (and per seed, with several), compare.csv with a
// row per entry and seed, and compare_summary.csv with each statistic's mean and 95 % CI.
void WriteComparison(const std::string& out, const std::vector<CompareEntry>& entries,
                     const std::vector<uint64_t>& seeds,
                     const std::vector<std::vector<RunResult>>& results) {
  const std::filesystem::path dir(out);
  for (size_t e = 0; e < entries.size(); ++e) {
    for (size_t k = 0; k < seeds.size(); ++k) {
      const std::filesystem::path sub =
          seeds.size() > 1 ? dir / entries[e].label / fmt::format("seed-{}", seeds[k])
                           : dir / entries[e].label;
      WriteOutputs(sub.string(), results[e][k]);
    }
  }
  WriteOutputFile(dir / "compare.csv", "--out",
                  [&](std::ostream& o) { WriteComparisonCsv(entries, seeds, results, o); });
  WriteOutputFile(dir / "compare_summary.csv", "--out",
                  [&](std::ostream& o) { WriteComparisonSummaryCsv(entries, results, o); });
}

// `compare`: every entry at one seed, or with --seeds N at seeds 1..N, all on the thread pool.
int CompareCommand(const RawFlags& f, int threads, int seeds) {
  RunSpec spec;
  const std::vector<CompareEntry> entries = CompareEntries(f, spec);
  if (seeds > 0 && !f.seed.empty()) {
    throw InputError("", 0, "--seeds", "give --seed or --seeds, not both");
  }
  std::vector<uint64_t> seed_list;
  for (int k = 1; k <= seeds; ++k) seed_list.push_back(static_cast<uint64_t>(k));
  if (seed_list.empty()) seed_list.push_back(spec.simulation.seed);
  // The embedded workload is generated from the seed; a trace or job file is read once.
  const bool per_seed = WorkloadDependsOnSeed(spec);
  std::deque<PreparedRun> prepared;
  for (uint64_t seed : seed_list) {
    if (!prepared.empty() && !per_seed) break;
    RunSpec s = spec;
    s.simulation.seed = seed;
    prepared.push_back(Prepare(s));
  }
  if (!f.out.empty()) MakeOutputDirectory(f.out, "--out");  // before the runs, not after
  std::deque<RunSpec> specs;
  std::vector<BatchRun> batch;
  for (const CompareEntry& e : entries) {
    for (size_t k = 0; k < seed_list.size(); ++k) {
      specs.push_back(e.spec);
      specs.back().simulation.seed = seed_list[k];
      batch.push_back({&specs.back(), &prepared[per_seed ? k : 0]});
    }
  }
  const std::vector<RunResult> flat = RunBatch(batch, threads, f.quiet);
  std::vector<std::vector<RunResult>> results(entries.size());
  for (size_t i = 0; i < flat.size(); ++i) results[i / seed_list.size()].push_back(flat[i]);
  if (!f.quiet) {
    if (per_seed && seed_list.size() > 1 && spec.jobs_file.empty() &&
        spec.generator == "synthetic") {
      fmt::print("workload synthetic(jobs={}), seeds 1..{}\n", spec.synthetic_jobs,
                 seed_list.size());
    } else if (seed_list.size() > 1) {
      fmt::print("workload {}, seeds 1..{}\n", prepared.front().workload_name, seed_list.size());
    } else {
      fmt::print("workload {}\n", prepared.front().workload_name);
    }
    PrintComparison(entries, results, std::cout);
  }
  if (!f.out.empty()) WriteComparison(f.out, entries, seed_list, results);
  int code = 0;
  for (size_t e = 0; e < entries.size(); ++e) {
    for (size_t k = 0; k < seed_list.size(); ++k) {
      const std::string label = seed_list.size() > 1
                                    ? fmt::format("{} seed {}", entries[e].label, seed_list[k])
                                    : entries[e].label;
      code = std::max(code, CheckFinished(results[e][k], label));
    }
  }
  return code;
}

void ListPolicies() {
  fmt::print("task schedulers (--scheduler):\n");
  for (const auto& [name, e] : TaskSchedulerRegistry::Get().entries())
    fmt::print("  {:<14} {}\n", name, e.description);
  fmt::print("network policies (--network):\n");
  for (const auto& [name, e] : NetworkPolicyRegistry::Get().entries())
    fmt::print("  {:<14} {}\n", name, e.description);
  fmt::print("systems (--system):\n");
  for (const SystemSpec& s : Systems()) fmt::print("  {:<14} {}\n", s.name, s.description);
  fmt::print("`slotflow policies NAME` shows a policy's settings or a system's preset.\n");
}

void PrintSettings(const std::vector<SettingSpec>& settings, std::string_view prefix) {
  if (settings.empty()) {
    fmt::print("  no settings\n");
    return;
  }
  fmt::print("  {:<32} {:<10} {:<8} {:<22} {}\n", "setting", "default", "unit", "valid", "meaning");
  for (const SettingSpec& s : settings) {
    fmt::print("  {:<32} {:<10} {:<8} {:<22} {}\n", fmt::format("{}.{}", prefix, s.name),
               s.default_value, SettingUnit(s.kind), SettingRange(s), s.meaning);
  }
}

// `policies NAME`: a scheduler's or network policy's description and settings, or a system's
// preset. InputError when nothing has that name.
void DescribePolicy(const std::string& name) {
  bool found = false;
  if (TaskSchedulerRegistry::Get().Has(name)) {
    const auto& e = TaskSchedulerRegistry::Get().Find(name, "NAME");
    fmt::print("task scheduler {}: {}\n", name, e.description);
    PrintSettings(e.settings, "scheduler");
    found = true;
  }
  if (NetworkPolicyRegistry::Get().Has(name)) {
    const auto& e = NetworkPolicyRegistry::Get().Find(name, "NAME");
    fmt::print("network policy {}: {}\n", name, e.description);
    PrintSettings(e.settings, "network");
    found = true;
  }
  for (const SystemSpec& s : Systems()) {
    if (s.name != name) continue;
    fmt::print("system {}: {}\n  scheduler {}, network {}\n", name, s.description, s.scheduler,
               s.network);
    for (const auto& [key, value] : s.settings) fmt::print("  {} = {}\n", key, value);
    found = true;
  }
  if (!found) {
    throw InputError("", 0, "NAME",
                     fmt::format("no scheduler, network policy or system is called '{}'", name));
  }
}

struct SweepFlags {
  SweepOptions options;
  std::string shard;
  MergeOptions merge;
};

// The `sweep` and `merge` subcommands; returns `sweep`.
CLI::App* AddSweepCommands(CLI::App& app, SweepFlags& f) {
  CLI::App* sweep = app.add_subcommand(
      "sweep", "run a grid of set-ups x systems x seeds described in a TOML file (resumable)");
  sweep->add_option("FILE", f.options.file, "the sweep file (see docs/sweeps.md)")
      ->required()
      ->check(kNonEmpty);
  sweep->add_option("--out", f.options.out, "directory for results.csv")
      ->required()
      ->check(kNonEmpty);
  sweep->add_option("--shard", f.shard,
                    "I/N: run only every N-th run in grid order, starting with the I-th");
  sweep->add_option("--threads", f.options.threads, "parallel runs (default: one per core)");
  sweep->add_option("--trace", f.options.trace, "use this trace instead of the file's")
      ->check(kNonEmpty);
  sweep->add_flag(
      "--quiet", [&f](int64_t) { f.options.progress = false; }, "no progress");
  CLI::App* merge = app.add_subcommand(
      "merge", "join the results.csv of several sweep shards into one, in grid order");
  merge->add_option("INPUT", f.merge.inputs, "results.csv (or journal.csv) files of shards")
      ->required()
      ->check(kNonEmpty);
  merge->add_option("--out", f.merge.out, "the merged file")->required()->check(kNonEmpty);
  merge
      ->add_option("--sweep", f.merge.sweep,
                   "the sweep file: refuse the merge when runs are missing (default: the "
                   "shard.json beside each input)")
      ->check(kNonEmpty);
  merge->add_flag("--partial", f.merge.partial, "write the merge even when runs are missing");
  return sweep;
}

}  // namespace
}  // namespace slotflow

int main(int argc, char** argv) {
  using namespace slotflow;
  g_command_line = QuotedCommandLine(argc, argv);
  CLI::App app{
      "slotflow: a flow-level simulator for task and network scheduling in data-parallel clusters"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version",
                       fmt::format("slotflow {} (commit {})", SlotflowVersion(), SlotflowCommit()));
  RawFlags flags;
  CLI::App* run = app.add_subcommand(
      "run", "simulate a workload (embedded synthetic default, --trace or --jobs)");
  AddRunFlags(*run, flags);
  run->add_option("--log", flags.log,
                  "write the decision log to FILE (JSON Lines; see docs/decision-log.md)")
      ->check(kNonEmpty);
  CLI::App* compare = app.add_subcommand(
      "compare",
      "run one workload under several policies: --scheduler and --network take comma-separated "
      "lists (every combination runs); prints mean/p50/p95/p99/max JCT and ratios to the first");
  RawFlags compare_flags;
  AddRunFlags(*compare, compare_flags);
  int threads = 0;
  compare->add_option("--threads", threads, "parallel runs (default: one per core)");
  int seeds = 0;
  compare
      ->add_option("--seeds", seeds,
                   "run every entry at seeds 1..N and show mean ± 95 % CI (default: one run)")
      ->check(CLI::Range(1, 1000));
  SweepFlags sweep_flags;
  CLI::App* sweep = AddSweepCommands(app, sweep_flags);
  CLI::App* merge = app.get_subcommand("merge");
  CLI::App* policies = app.add_subcommand(
      "policies", "list the task schedulers, network policies and systems, or describe one");
  std::string policy_name;
  policies->add_option("NAME", policy_name, "a scheduler, network policy or system to describe");
  TestbedCommand testbed;
  AddTestbedCommand(app, testbed);
  CLI::App* live = app.add_subcommand(
      "live",
      "run a workload on the testbed (needs root): the same scheduler and network policy as "
      "`run`, real agents moving real TCP bytes; writes the same outputs with measured times");
  RawFlags live_flags;
  AddRunFlags(*live, live_flags);
  LiveOptions live_options;
  AddLiveFlags(*live, live_options);
  AgentOptions agent_options;
  CLI::App* agent = AddAgentCommand(app, agent_options);
  RefuseEmptyValues(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "slotflow: error: {}\n", e.what());
    return kExitInputError;
  }
  try {
    if (policies->parsed()) {
      if (policy_name.empty()) {
        ListPolicies();
      } else {
        DescribePolicy(policy_name);
      }
      return 0;
    }
    if (compare->parsed()) return CompareCommand(compare_flags, threads, seeds);
    if (sweep->parsed()) {
      if (!sweep_flags.shard.empty()) {
        ParseShard(sweep_flags.shard, sweep_flags.options.shard, sweep_flags.options.shards);
      }
      return RunSweep(sweep_flags.options);
    }
    if (merge->parsed()) {
      MergeSweepResults(sweep_flags.merge);
      return 0;
    }
    if (testbed.testbed->parsed()) return RunTestbedCommand(testbed);
    if (live->parsed()) return LiveCommand(live_flags, live_options);
    if (agent->parsed()) return RunAgentCommand(agent_options);
    if (run->parsed()) return RunCommand(flags);
    fmt::print("{}", app.help());  // bare `slotflow`: what it can do
    return 0;
  } catch (const InputError& e) {
    fmt::print(stderr, "slotflow: error: {}\n", e.what());
    return kExitInputError;
  } catch (const CommandError& e) {
    // A program live mode runs (ip, tc) failed: the machine cannot do what was asked.
    fmt::print(stderr, "slotflow: error: {}\n", e.what());
    return kExitInputError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "slotflow: internal error: {}\n", e.what());
    return kExitInternalError;
  }
}
