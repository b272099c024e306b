#include "metrics/report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/version.h"

namespace slotflow {

int SizeGroup(Bytes bytes) {
  double bound = 10 * kMiB;
  for (int g = 1; g < 7; ++g, bound *= 10) {
    if (bytes < bound) return g;
  }
  return 7;
}

std::string SizeGroupLabel(int group) {
  static const char* kLabels[] = {"<10MiB",    "10-100MiB", "0.1-1GiB", "1-10GiB",
                                  "10-100GiB", "0.1-1TiB",  ">=1TiB"};
  return group >= 1 && group <= 7 ? kLabels[group - 1] : "?";
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (rank - static_cast<double>(lo));
}

RunSummary Summarize(const std::vector<JobResult>& jobs) {
  RunSummary s;
  s.jobs = static_cast<int>(jobs.size());
  std::vector<double> jct;
  jct.reserve(jobs.size());
  std::vector<double> group_sum(7, 0);
  s.jobs_by_group.assign(7, 0);
  double sum = 0;
  for (const JobResult& j : jobs) {
    jct.push_back(j.jct);
    sum += j.jct;
    group_sum[j.size_group - 1] += j.jct;
    ++s.jobs_by_group[j.size_group - 1];
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.mean_jct = jobs.empty() ? nan : sum / static_cast<double>(jobs.size());
  s.p50_jct = Percentile(jct, 50);
  s.p95_jct = Percentile(jct, 95);
  s.p99_jct = Percentile(jct, 99);
  s.max_jct = jct.empty() ? nan : *std::max_element(jct.begin(), jct.end());
  for (int g = 0; g < 7; ++g) {
    s.mean_jct_by_group.push_back(s.jobs_by_group[g] ? group_sum[g] / s.jobs_by_group[g] : nan);
  }
  return s;
}

namespace {
nlohmann::json Number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}
}  // namespace

void WriteSummaryJson(const RunSummary& s, std::ostream& out, bool include_wall_time) {
  nlohmann::ordered_json j;
  if (!s.system.empty()) j["system"] = s.system;
  j["mode"] = s.network_mode ? "network" : "jobs";
  if (!s.network_mode) j["scheduler"] = s.scheduler;
  j["network"] = s.network;
  j["seed"] = s.seed;
  nlohmann::ordered_json settings = nlohmann::ordered_json::object();
  for (const auto& [key, value] : s.settings) settings[key] = value;
  j["settings"] = settings;
  j["workload"] = s.workload;
  j["slotflow"] = {{"version", SlotflowVersion()}, {"commit", SlotflowCommit()}};
  if (!s.command_line.empty()) j["command_line"] = s.command_line;
  if (!s.setup.empty()) j["setup"] = nlohmann::ordered_json::parse(s.setup);
  j["jobs"] = s.jobs;
  j["unfinished_jobs"] = s.unfinished_jobs;
  j["mean_jct_s"] = Number(s.mean_jct);
  j["p50_jct_s"] = Number(s.p50_jct);
  j["p95_jct_s"] = Number(s.p95_jct);
  j["p99_jct_s"] = Number(s.p99_jct);
  j["max_jct_s"] = Number(s.max_jct);
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (int g = 0; g < 7; ++g) {
    groups.push_back(
        {{"group", g + 1},
         {"bytes", SizeGroupLabel(g + 1)},
         {"jobs", s.jobs_by_group.empty() ? 0 : s.jobs_by_group[g]},
         {"mean_jct_s", s.mean_jct_by_group.empty() ? nullptr : Number(s.mean_jct_by_group[g])}});
  }
  j["size_groups"] = groups;
  j["makespan_s"] = s.makespan;
  if (!s.network_mode) {
    j["locality"] = s.locality;
    j["slot_utilisation"] = s.slot_utilisation;
  }
  j["downlink_utilisation"] = s.downlink_utilisation;
  j["network_bytes"] = s.network_bytes;
  j["flows"] = s.flows;
  if (!s.network_mode) j["reservations"] = s.reservations;
  if (!s.scheduler_stats.empty() && !s.network_mode) {
    nlohmann::ordered_json stats = nlohmann::ordered_json::object();
    for (const auto& [key, value] : s.scheduler_stats) stats[key] = Number(value);
    j["scheduler_stats"] = stats;
  }
  j["events"] = s.events;
  if (!s.rate_solver.empty()) {
    nlohmann::ordered_json solver = nlohmann::ordered_json::object();
    for (const auto& [key, value] : s.rate_solver) solver[key] = value;
    j["rate_solver"] = solver;
  }
  if (s.live) {
    j["lost_hosts"] = s.lost_hosts;
    j["rejoined_hosts"] = s.rejoined_hosts;
    j["tasks_rerun"] = s.tasks_rerun;
    j["jobs_from_journal"] = s.jobs_from_journal;
    j["tasks_from_journal"] = s.tasks_from_journal;
    j["block_reads"] = s.block_reads;
    j["load_average"] = {{"start", s.load_start}, {"end", s.load_end}};
  }
  if (include_wall_time) j["wall_s"] = s.wall_s;
  out << j.dump(2) << "\n";
}

namespace {
// A CSV field per RFC 4180: quoted when it holds a comma, a quote or a line break, with quotes
// doubled.
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
}  // namespace

void WriteJobsCsv(const std::vector<JobResult>& jobs, std::ostream& out) {
  out << "job,submit_s,first_start_s,finish_s,jct_s,bytes,tasks,local_fraction,size_group\n";
  for (const JobResult& j : jobs) {
    // Times with 12 significant digits (10 ns at 10^4 s): the simulator's own precision; more
    // digits show only floating-point rounding. Bytes are exact.
    fmt::print(out, "{},{:.12g},{:.12g},{:.12g},{:.12g},{},{},{:.12g},{}\n", CsvField(j.name),
               j.submit, j.first_start, j.finish, j.jct, j.bytes, j.tasks, j.local_fraction,
               j.size_group);
  }
}

void WriteTasksCsv(const std::vector<TaskResult>& tasks, std::ostream& out) {
  out << "job,stage,task,server,pinned,locality,ready_s,placed_s,read_done_s,compute_done_s,"
         "output_written_s,finish_s,input_bytes,remote_bytes\n";
  for (const TaskResult& t : tasks) {
    fmt::print(out, "{},{},{},{},{},{},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{:.12g},{},{}\n",
               CsvField(t.job), CsvField(t.stage), t.index, t.server, t.pinned ? 1 : 0, t.locality,
               t.ready, t.placed, t.read_done, t.compute_done, t.output_written, t.finish,
               t.input_bytes, t.remote_bytes);
  }
}

void WriteUtilisationCsv(const std::vector<UtilisationSample>& samples, std::ostream& out) {
  out << "t_s,server,cpu,memory,disk,uplink,downlink\n";
  for (const UtilisationSample& u : samples) {
    fmt::print(out, "{:.12g},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", u.t, u.server, u.cpu,
               u.memory, u.disk, u.uplink, u.downlink);
  }
}

void WriteModesCsv(const std::vector<ModeSwitch>& modes, std::ostream& out) {
  out << "t_s,mode\n";
  for (const ModeSwitch& m : modes) {
    fmt::print(out, "{},{}\n", m.t,
               m.mode == SlotMode::kInsufficient ? "insufficient" : "sufficient");
  }
}

void PrintSummaryTable(const RunSummary& s, std::ostream& out) {
  // Network mode measures coflows (CCT) under the network policy alone.
  const char* what = s.network_mode ? "CCT" : "JCT";
  const std::string policies =
      s.network_mode ? fmt::format("network {}  (network mode)", s.network)
                     : fmt::format("scheduler {}  network {}", s.scheduler, s.network);
  fmt::print(out, "{}{}  workload {}\n", s.system.empty() ? "" : "system " + s.system + "  ",
             policies, s.workload);
  fmt::print(out, "  {} {:>8}{}\n", s.network_mode ? "coflows" : "jobs", s.jobs,
             s.unfinished_jobs ? fmt::format("   ({} did not finish)", s.unfinished_jobs) : "");
  fmt::print(out,
             "  {}  mean {:>10} s   p50 {:>10} s   p95 {:>10} s   p99 {:>10} s   max {:>10} s\n",
             what, FormatTime(s.mean_jct), FormatTime(s.p50_jct), FormatTime(s.p95_jct),
             FormatTime(s.p99_jct), FormatTime(s.max_jct));
  fmt::print(out, "  mean {} by {} size:", what, s.network_mode ? "coflow" : "job");
  for (int g = 0; g < 7; ++g) {
    if (s.jobs_by_group.empty() || s.jobs_by_group[g] == 0) continue;
    fmt::print(out, "  {} ({}): {} s", SizeGroupLabel(g + 1), s.jobs_by_group[g],
               FormatTime(s.mean_jct_by_group[g]));
  }
  fmt::print(out, "\n");
  if (s.network_mode) {
    fmt::print(out, "  makespan {} s   downlink utilisation {:.1f}%\n", FormatTime(s.makespan),
               100 * s.downlink_utilisation);
  } else {
    fmt::print(out,
               "  makespan {} s   locality {:.1f}%   slot utilisation {:.1f}%   downlink "
               "utilisation {:.1f}%\n",
               FormatTime(s.makespan), 100 * s.locality, 100 * s.slot_utilisation,
               100 * s.downlink_utilisation);
  }
  fmt::print(out, "  flows {}   network bytes {}{}   events {}   wall {:.3f} s\n", s.flows,
             FormatBytes(s.network_bytes),
             s.network_mode ? "" : fmt::format("   reservations {}", s.reservations), s.events,
             s.wall_s);
  if (s.jobs_from_journal > 0 || s.tasks_from_journal > 0) {
    fmt::print(out,
               "  jobs from the journal {} (completed by an earlier run; run now {})"
               "   tasks of the others from it {}\n",
               s.jobs_from_journal, s.jobs - s.jobs_from_journal, s.tasks_from_journal);
  }
  if (!s.lost_hosts.empty()) {
    fmt::print(
        out, "  lost hosts {}   tasks rerun {}{}\n", fmt::join(s.lost_hosts, ","), s.tasks_rerun,
        s.rejoined_hosts.empty() ? ""
                                 : fmt::format("   rejoined {}", fmt::join(s.rejoined_hosts, ",")));
  }
}

}  // namespace slotflow
