// What a run produced: per-job results and the summary, and their writers:
// summary.json, jobs.csv and a readable table.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "api/flow.h"
#include "api/units.h"

namespace slotflow {

struct JobResult {
  std::string name;
  Seconds submit = 0, first_start = 0, finish = 0;
  Seconds jct = 0;
  Bytes bytes = 0;  // input + shuffle bytes of the job
  int tasks = 0;
  double local_fraction = 1;  // root tasks that read their input locally
  int size_group = 0;         // 1..7, by total bytes (see SizeGroup)
};

// One task's life, for tasks.csv. Times are -1 where the task never got there.
struct TaskResult {
  std::string job, stage;
  int index = 0;  // within its stage
  int server = -1;
  bool pinned = false;   // runs where its job file pinned it, outside the slots
  std::string locality;  // node, rack, off-rack or none (api/state.h Locality)
  double ready = -1, placed = -1, read_done = -1, compute_done = -1, output_written = -1,
         finish = -1;
  Bytes input_bytes = 0;   // what it reads: its block, or its share of its parents' outputs
  Bytes remote_bytes = 0;  // the part of that which crossed the network
};

// One server's utilisation from time t until its next sample (api/state.h ServerUtilisation:
// slots, memory, disk, uplink and downlink in use, each in [0, 1]).
struct UtilisationSample {
  double t = 0;
  int server = 0;
  double cpu = 0, memory = 0, disk = 0, uplink = 0, downlink = 0;
};

// The slot mode in force from time t (the scheduler's, or the SJF job's for a scheduler that
// reports none; Duopoly §3): one per switch, the first at the run's first decision.
struct ModeSwitch {
  double t = 0;
  SlotMode mode = SlotMode::kSufficient;
};

struct RunSummary {
  std::string system, scheduler, network, workload;
  // Network mode: tasks pinned, no compute; completion times are coflow completion times (CCT)
  // and what only placement decides (scheduler, locality, slots, reservations) does not apply.
  bool network_mode = false;
  // Every policy setting in force: "scheduler.order" → "sjf", "network.queues" → "8", ...
  std::vector<std::pair<std::string, std::string>> settings;
  uint64_t seed = 1;
  // Provenance: how the process was invoked, and the complete resolved set-up as JSON text (a
  // config that reproduces the run; cli/setup.h). Written to summary.json with the version.
  std::string command_line, setup;
  int jobs = 0;
  int unfinished_jobs = 0;
  bool time_limit_hit = false;  // stopped at the engine's time limit (see engine.h)
  Seconds mean_jct = 0, p50_jct = 0, p95_jct = 0, p99_jct = 0, max_jct = 0;
  std::vector<double> mean_jct_by_group;  // 7 entries; NaN where a group is empty
  std::vector<int> jobs_by_group;
  Seconds makespan = 0;
  double locality = 1;              // fraction of root tasks with a local read
  double slot_utilisation = 0;      // busy slot-seconds / (slots × makespan)
  double downlink_utilisation = 0;  // network bytes / (Σ downlink capacity × makespan)
  Bytes network_bytes = 0;
  int64_t flows = 0;
  int64_t reservations = 0;  // scheduling rounds that left free slots empty with tasks ready
  // What the scheduler reports of itself (nats: share of rounds per branch of Alg. 3/4, share
  // of monitoring ticks with the congestion flag set) and, for schedulers with a slot mode,
  // the time spent in each mode and the number of switches.
  std::vector<std::pair<std::string, double>> scheduler_stats;
  // How the rate allocator worked (simulations): solves, classes filled, and by which fill;
  // empty in live mode.
  std::vector<std::pair<std::string, int64_t>> rate_solver;
  int64_t events = 0;
  double wall_s = 0;
  // Live mode only (written only when `live`): hosts whose agents were lost, in the order they
  // were lost, and the task runs their loss undid (each such task ran again).
  bool live = false;
  std::vector<int> lost_hosts;
  std::vector<int> rejoined_hosts;  // lost hosts whose new agent joined again, in that order
  int64_t tasks_rerun = 0;
  int jobs_from_journal = 0;  // completed in an earlier run, as the journal recorded them
  // Tasks of the other jobs completed in an earlier run (the journal recorded them), not run.
  int tasks_from_journal = 0;
  std::string block_reads;  // how agents read local blocks: memory or file (run/live.h)
  // The machine's 1-minute load average (/proc/loadavg) as the run started and as it ended;
  // -1 where it could not be read.
  double load_start = -1, load_end = -1;
};

// Duopoly groups jobs by size into 7 bins; we use decades of total bytes starting at 10 MiB:
// [0,10MiB) [10,100MiB) [100MiB,1GiB) ... [1TiB,∞) (ours: the paper does not give its bins).
int SizeGroup(Bytes bytes);
std::string SizeGroupLabel(int group);

// Percentile with linear interpolation between closest ranks (numpy's default).
double Percentile(std::vector<double> values, double p);

RunSummary Summarize(const std::vector<JobResult>& jobs);

void WriteSummaryJson(const RunSummary& s, std::ostream& out, bool include_wall_time = true);
void WriteJobsCsv(const std::vector<JobResult>& jobs, std::ostream& out);
void WriteTasksCsv(const std::vector<TaskResult>& tasks, std::ostream& out);
// utilisation.csv: t_s,server,cpu,memory,disk,uplink,downlink; a row whenever a value changed.
void WriteUtilisationCsv(const std::vector<UtilisationSample>& samples, std::ostream& out);
// modes.csv: t_s,mode (sufficient / insufficient), a row per switch; t_s in the shortest form
// that reads back as the same double, so that a replay switches at the same instant.
void WriteModesCsv(const std::vector<ModeSwitch>& modes, std::ostream& out);
void PrintSummaryTable(const RunSummary& s, std::ostream& out);

}  // namespace slotflow
