#include "cli/run_flags.h"

#include <fmt/format.h>

#include <cmath>
#include <tuple>
#include <utility>

#include "api/error.h"
#include "api/units.h"
#include "cli/flags.h"
#include "cluster/cluster_config.h"
#include "common/input_file.h"
#include "run/config_file.h"

namespace slotflow {
namespace {

// The cluster flags, each checked against the same domain as its [cluster] key, so a bad value
// is reported under the flag that gave it.
void SetClusterFlags(const RunFlags& f, ClusterOverrides& o) {
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
  if (const auto& e = f.payload_efficiency; e && !(*e > 0 && *e <= 1)) {
    throw InputError("", 0, "--payload-efficiency", fmt::format("must be in (0, 1], got {}", *e));
  }
  o.payload_efficiency = f.payload_efficiency;
  if (!f.task_launch_latency.empty())
    o.task_launch_latency = ParseSeconds(f.task_launch_latency, "--task-launch-latency");
  if (!f.flow_start_latency.empty())
    o.flow_start_latency = ParseSeconds(f.flow_start_latency, "--flow-start-latency");
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
                 "a policy or workload setting, KEY=VALUE (repeatable), e.g. "
                 "network.queues=unlimited, scheduler.monitor_interval=100ms, workload.flows=500; "
                 "`slotflow policies NAME` lists them");
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
  cmd.add_option("--map-reads", f.map_reads,
                 "how a map task away from its block reads it: network (default) or "
                 "compute-only (Duopoly §2.1: no network use)");
  cmd.add_option("--payload-efficiency", f.payload_efficiency,
                 "share of a network link's rate that carries payload, in (0, 1] (default 1; "
                 "TCP/IP headers take the rest: `slotflow testbed calibrate` measures it)");
  cmd.add_option("--task-launch-latency", f.task_launch_latency,
                 "time from a task's placement to the start of its reads, e.g. 5ms (default 0)");
  cmd.add_option("--flow-start-latency", f.flow_start_latency,
                 "more time before a task's network flows move bytes (connection set-up), "
                 "e.g. 2ms (default 0)");
  cmd.add_option("--servers-per-rack", f.servers_per_rack, "servers per rack (default 10)");
  cmd.add_option("--oversubscription", f.oversubscription,
                 "two-tier rack uplink oversubscription (default 1)");
  cmd.add_option("--traffic-scale", f.traffic_scale,
                 "multiply every byte count of the workload (default 1)");
  cmd.add_option("--trace-format", f.trace_format,
                 "same as --set workload.trace_format=F: coflow, swim, alibaba or auto "
                 "(default: told apart by content)");
  cmd.add_option("--trace-window", f.trace_window,
                 "START:END, e.g. 1h:2h: only the trace's jobs submitted in [START, END), "
                 "shifted to start at 0 (workload.trace_start, workload.trace_length)");
  cmd.add_option("--map-input-ratio", f.map_input_ratio,
                 "trace/synthetic jobs: map input = ratio x job shuffle / maps (default: "
                 "balanced, each job's map stage as long as its reduce stage on an idle 1 Gbps, "
                 "1 GB/s-per-slot cluster, Duopoly §6.1)");
  cmd.add_option("--synthetic-jobs", f.synthetic_jobs,
                 "same as --set workload.synthetic_jobs=N: jobs of the synthetic generator "
                 "(default 200)");
  cmd.add_option("--generator", f.generator,
                 "the workload generator when no trace or job file is given (default synthetic; "
                 "`slotflow policies` lists them, `slotflow policies NAME` their settings)");
  cmd.add_option("--tcds-group", f.tcds_group,
                 "same as --set workload.tcds_group=N: the tcds generator's task mix, the TCDS "
                 "paper's Table 1 group 1..5 (default 1)");
  cmd.add_option("--flow-sizes", f.flow_sizes,
                 "same as --set workload.flow_sizes=SIZES: websearch (DCTCP) or datamining (VL2, "
                 "default) flow sizes");
  cmd.add_option("--flow-load", f.flow_load,
                 "same as --set workload.flow_load=L: mean load of the edge links, in (0, 1] "
                 "(default 0.5)");
  cmd.add_option("--flows", f.flows,
                 "same as --set workload.flows=N: number of flows (default 2000)");
  cmd.add_option("--estimate-error", f.estimate_error,
                 "SJF size estimates multiplied by a random factor in [1-e, 1+e] (default 0)");
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
  // --set wins over the flags that are its shorthands: workload values are set after them.
  auto workload = [](const std::string& a) { return a.rfind("workload.", 0) == 0; };
  for (const std::string& a : f.set) {
    if (!workload(a)) ApplySetFlag(spec, a);
  }
  SetClusterFlags(f, spec.overrides);
  if (!f.topology.empty()) spec.overrides.topology = ParseTopology(f.topology, "--topology");
  if (!f.map_reads.empty()) spec.overrides.map_reads = ParseMapReads(f.map_reads, "--map-reads");
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
        std::tuple{"flows", "--flows", &f.flows},
        std::tuple{"trace_format", "--trace-format", &f.trace_format}}) {
    if (!text->empty()) SetWorkloadValue(spec, key, *text, "", 0, flag);
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
    if (workload(a)) ApplySetFlag(spec, a);
  }
  return spec;
}

}  // namespace slotflow
