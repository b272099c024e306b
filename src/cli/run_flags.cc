#include "cli/run_flags.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "api/error.h"
#include "api/generator.h"
#include "api/units.h"
#include "cli/flags.h"
#include "cluster/cluster_keys.h"
#include "common/input_file.h"
#include "run/config_file.h"

namespace slotflow {
namespace {

// A flag's help: the declaration's meaning and default.
std::string Help(const SettingSpec& s) {
  return fmt::format("{} (default {})", s.meaning, s.default_value);
}

// A flag of its own for each declared [cluster] key, run-wide workload value and generator
// setting, each the same as --set TABLE.KEY=VALUE.
void AddDeclaredFlags(CLI::App& cmd, RunFlags& f) {
  for (const ClusterKey& key : ClusterKeys()) {
    cmd.add_option(FlagName(key.setting.name), f.cluster[key.setting.name], Help(key.setting));
  }
  std::vector<const SettingSpec*> workload;
  for (const WorkloadValue& w : WorkloadValues()) workload.push_back(&w.setting);
  for (const auto& [name, entry] : GeneratorRegistry::Get().entries()) {
    for (const SettingSpec& s : entry.settings) workload.push_back(&s);
  }
  for (const WorkloadValue& r : RatesValues()) {
    cmd.add_option(FlagName(r.setting.name), f.rates[r.setting.name],
                   fmt::format("same as --set rates.{}=VALUE: {}", r.setting.name, Help(r.setting)));
  }
  for (const SettingSpec* s : workload) {
    if (f.workload.contains(s->name)) continue;  // declared by two generators: one flag
    cmd.add_option(FlagName(s->name), f.workload[s->name],
                   fmt::format("same as --set workload.{}=VALUE: {}", s->name, Help(*s)));
  }
}

}  // namespace

void AddRunFlags(CLI::App& cmd, RunFlags& f) {
  cmd.add_option("--trace", f.trace,
                 "Facebook coflow-benchmark trace file (e.g. FB2010-1Hr-150-0.txt)")
      ->check(NonEmptyFile());
  cmd.add_option("--jobs", f.jobs, "TOML job file (see docs/job-file.md); may define the cluster")
      ->check(NonEmptyFile());
  cmd.add_option("--mode", f.mode,
                 "jobs: tasks are placed by the scheduler (default); network: tasks pinned, no "
                 "compute, only the network policy matters (trace ports become servers)");
  cmd.add_option("--config", f.config,
                 "TOML config file: seed, system, [cluster], [workload], [scheduler], [network]")
      ->check(NonEmptyFile());
  cmd.add_option("--scheduler", f.scheduler,
                 "task-scheduling policy (see `slotflow policies`; default greedy)");
  cmd.add_option("--network", f.network, "network policy (see `slotflow policies`; default fair)");
  cmd.add_option("--system", f.system,
                 "a named preset of scheduler, network and their settings, e.g. duopoly, neat, "
                 "aalo (see `slotflow policies`)");
  cmd.add_option("--set", f.set,
                 "a policy, cluster or workload setting, KEY=VALUE (repeatable), e.g. "
                 "network.queues=unlimited, scheduler.monitor_interval=100ms, workload.flows=500, "
                 "cluster.nic=10Gbps; `slotflow policies NAME` lists a policy's");
  cmd.add_option("--order", f.order, "same as --set scheduler.order=ORDER (fifo, sjf, fair)");
  cmd.add_option("--queues", f.queues, "same as --set network.queues=N (a count or unlimited)");
  cmd.add_option("--trace-window", f.trace_window,
                 "START:END, e.g. 1h:2h: only the trace's jobs submitted in [START, END), "
                 "shifted to start at 0 (workload.trace_start, workload.trace_length)");
  cmd.add_option("--generator", f.generator,
                 "the workload generator when no trace or job file is given (default synthetic; "
                 "`slotflow policies` lists them, `slotflow policies NAME` their settings)");
  AddDeclaredFlags(cmd, f);
  cmd.add_option("--seed", f.seed,
                 "random seed: block replicas, synthetic jobs, random choices (default 1)");
  cmd.add_option("--out", f.out, "directory for summary.json, jobs.csv and tasks.csv")
      ->check(NonEmptyFile());
  cmd.add_flag("--quiet", f.quiet, "no summary table on stdout and no progress on stderr");
  cmd.add_flag("--utilisation", f.utilisation,
               "with --out: also write utilisation.csv, each server's CPU (slots), memory, disk, "
               "uplink and downlink utilisation over time");
  cmd.add_flag("--check", f.check,
               "verify after every event that no link, slot or memory is over-committed, no flow "
               "beat its slowest link and no task started before its inputs (slower)");
}

RunSpec BuildSpec(const RunFlags& f, bool system_replaces) {
  RunSpec spec;
  spec.command_line = f.command_line;
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
  if (!f.mode.empty()) {
    spec.mode = ParseRunMode(f.mode, "--mode");
    spec.given_at["workload.mode"] = {"mode", f.mode, "", 0, "--mode"};
  }
  if (!f.system.empty()) ApplySystem(spec, f.system, "--system", system_replaces);
  if (!f.scheduler.empty())
    SetPolicySetting(spec, "scheduler.policy", f.scheduler, "", 0, "--scheduler");
  if (!f.network.empty()) SetPolicySetting(spec, "network.policy", f.network, "", 0, "--network");
  if (!f.order.empty()) SetPolicySetting(spec, "scheduler.order", f.order, "", 0, "--order");
  if (!f.queues.empty()) SetPolicySetting(spec, "network.queues", f.queues, "", 0, "--queues");
  // --set wins over the flags that are its shorthands: cluster and workload values are set
  // after them.
  auto table_of = [](const std::string& a) { return a.substr(0, a.find('.')); };
  for (const std::string& a : f.set) {
    if (table_of(a) != "workload" && table_of(a) != "cluster" && table_of(a) != "rates") {
      ApplyAssignment(spec, a, "--set");
    }
  }
  for (const auto& [key, text] : f.cluster) {
    if (!text.empty()) SetClusterValue(spec, key, text, "", 0, FlagName(key));
  }
  for (const auto& [key, text] : f.rates) {
    if (!text.empty()) SetRatesValue(spec, key, text, "", 0, FlagName(key));
  }
  for (const std::string& a : f.set) {
    if (table_of(a) == "cluster" || table_of(a) == "rates") ApplyAssignment(spec, a, "--set");
  }
  if (!f.seed.empty()) spec.simulation.seed = ParseSeed(f.seed, "--seed");
  spec.simulation.check = f.check;
  spec.simulation.collect_tasks = !f.out.empty();
  if (f.utilisation && f.out.empty()) {
    throw InputError("", 0, "--utilisation", "needs --out DIR to write utilisation.csv into");
  }
  spec.simulation.collect_utilisation = f.utilisation;
  if (!f.generator.empty()) SetWorkloadValue(spec, "generator", f.generator, "", 0, "--generator");
  for (const auto& [key, text] : f.workload) {
    if (!text.empty()) SetWorkloadValue(spec, key, text, "", 0, FlagName(key));
  }
  if (!f.trace_window.empty()) {
    const size_t colon = f.trace_window.find(':');
    if (colon == std::string::npos) {
      throw InputError("", 0, "--trace-window",
                       fmt::format("expected START:END, e.g. 1h:2h, got '{}'", f.trace_window));
    }
    const Seconds start = ParseSeconds(f.trace_window.substr(0, colon), "--trace-window");
    const Seconds end = ParseSeconds(f.trace_window.substr(colon + 1), "--trace-window");
    if (!(end > start)) {
      throw InputError("", 0, "--trace-window",
                       fmt::format("END must come after START, got '{}'", f.trace_window));
    }
    SetWorkloadValue(spec, "trace_start", fmt::format("{}", start), "", 0, "--trace-window");
    SetWorkloadValue(spec, "trace_length", fmt::format("{}", end - start), "", 0, "--trace-window");
  }
  for (const std::string& a : f.set) {
    if (table_of(a) == "workload") ApplyAssignment(spec, a, "--set");
  }
  return spec;
}

}  // namespace slotflow
