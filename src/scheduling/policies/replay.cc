// replay — runs a recorded run's placements again: each task on the server the recording's
// tasks.csv gives it, each server's tasks in the recording's order (by placed_s, ties in the
// order of its placements.csv, then by row: a task is placed only once every task recorded
// before it on its server has been), and the recording's slot modes (modes.csv; Duopoly §3)
// for the network policy to read. With
// `timing = recorded` (the default) no task is placed before its recorded placed_s either, so
// that slots a scheduler left empty on purpose stay empty, and replay is asked at the same
// instants as the recorded scheduler (its tick and heartbeats, read from the recording's
// setup.toml): a simulated run replayed with the same network policy, cluster and seed gives
// its jobs.csv and tasks.csv back. `timing = order` keeps only the servers and their order:
// each task starts as soon as its server's turn and a free slot allow (a live run's placements
// in the simulator's time).
//
// The recording must match the workload task for task (row i of tasks.csv is task i: job,
// stage and index) and name only servers of the cluster; every slot-holding task must have
// been placed. Anything else is an InputError at the file and line, naming the column.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/error.h"
#include "api/task_scheduler.h"

namespace slotflow {
namespace {

constexpr const char* kNoDirectory = "(required)";

std::vector<SettingSpec> ReplaySettings() {
  return {
      {"from", SettingKind::kText, kNoDirectory,
       "the recorded run's output directory (its tasks.csv, modes.csv and setup.toml)"},
      {"timing",
       SettingKind::kChoice,
       "recorded",
       "recorded: no task before its recorded placed_s, asked when the recorded scheduler was; "
       "order: only each server's order, a task as soon as its turn and a slot come",
       0,
       0,
       false,
       {"recorded", "order"}},
  };
}

// One line of a CSV file split into fields (RFC 4180 quoting within the line); nullopt when a
// quote is left open.
std::optional<std::vector<std::string>> SplitCsv(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        fields.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) return std::nullopt;
  return fields;
}

// A CSV file read whole: its header's columns and its rows with their line numbers.
struct CsvFile {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::pair<int, std::vector<std::string>>> rows;

  // The position of column `name`; InputError at line 1 when the header lacks it.
  size_t Column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw InputError(path, 1, name, "no such column in the header");
    return static_cast<size_t>(it - header.begin());
  }
};

CsvFile ReadCsv(const std::string& path, const std::string& field) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, field, "cannot open: no such file or not readable");
  CsvFile f{path, {}, {}};
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty() || text == "\r") continue;
    auto fields = SplitCsv(text);
    if (!fields) throw InputError(path, line, field, "a quoted field is not closed");
    if (f.header.empty()) {
      f.header = std::move(*fields);
    } else if (fields->size() != f.header.size()) {
      throw InputError(
          path, line, field,
          fmt::format("{} fields, the header has {}", fields->size(), f.header.size()));
    } else {
      f.rows.emplace_back(line, std::move(*fields));
    }
  }
  if (f.header.empty()) throw InputError(path, 1, field, "empty file: no header");
  return f;
}

int64_t ParseInt(const CsvFile& f, int line, const std::string& column, const std::string& text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw InputError(f.path, line, column, fmt::format("expected an integer, got '{}'", text));
  }
  return v;
}

double ParseTime(const CsvFile& f, int line, const std::string& column, const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
    throw InputError(f.path, line, column,
                     fmt::format("expected a time in seconds, got '{}'", text));
  }
  return v;
}

// One row of the recording's tasks.csv.
struct RecordedTask {
  int line = 0;
  std::string job, stage;
  int64_t index = 0, server = -1;
  bool pinned = false;
  double placed = -1;
};

std::vector<RecordedTask> ReadTasks(const std::string& path) {
  const CsvFile f = ReadCsv(path, "scheduler.from");
  const size_t job = f.Column("job"), stage = f.Column("stage"), task = f.Column("task"),
               server = f.Column("server"), pinned = f.Column("pinned"),
               placed = f.Column("placed_s");
  std::vector<RecordedTask> out;
  out.reserve(f.rows.size());
  for (const auto& [line, r] : f.rows) {
    RecordedTask t{line, r[job], r[stage]};
    t.index = ParseInt(f, line, "task", r[task]);
    t.server = ParseInt(f, line, "server", r[server]);
    const int64_t p = ParseInt(f, line, "pinned", r[pinned]);
    if (p != 0 && p != 1) throw InputError(path, line, "pinned", "expected 0 or 1");
    t.pinned = p == 1;
    t.placed = ParseTime(f, line, "placed_s", r[placed]);
    if (t.index < 0) throw InputError(path, line, "task", "a task index is never negative");
    if (!t.pinned && (t.server < 0 || t.placed < 0)) {
      throw InputError(path, line, t.server < 0 ? "server" : "placed_s",
                       "the recorded run never placed this task: replay needs a run in which "
                       "every task was placed");
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::pair<double, SlotMode>> ReadModes(const std::string& path) {
  const CsvFile f = ReadCsv(path, "scheduler.from");
  const size_t t_col = f.Column("t_s"), mode_col = f.Column("mode");
  std::vector<std::pair<double, SlotMode>> out;
  for (const auto& [line, r] : f.rows) {
    const double t = ParseTime(f, line, "t_s", r[t_col]);
    if (!out.empty() && t < out.back().first) {
      throw InputError(path, line, "t_s", "earlier than the row before it");
    }
    if (r[mode_col] != "sufficient" && r[mode_col] != "insufficient") {
      throw InputError(path, line, "mode",
                       fmt::format("expected sufficient or insufficient, got '{}'", r[mode_col]));
    }
    out.emplace_back(t,
                     r[mode_col] == "sufficient" ? SlotMode::kSufficient : SlotMode::kInsufficient);
  }
  return out;
}

// The rank of each task in the recorded scheduler's order of placements (placements.csv: task
// ids, tasks.csv's rows from 0, in the order placed; a task placed again after a lost server
// ranks by its last placement), for `tasks` tasks; -1 for a task it did not place.
std::vector<int64_t> ReadRanks(const std::string& path, size_t tasks) {
  const CsvFile f = ReadCsv(path, "scheduler.from");
  const size_t col = f.Column("task");
  std::vector<int64_t> rank(tasks, -1);
  int64_t next = 0;
  for (const auto& [line, r] : f.rows) {
    const int64_t t = ParseInt(f, line, "task", r[col]);
    if (t < 0 || static_cast<size_t>(t) >= tasks) {
      throw InputError(path, line, "task",
                       fmt::format("task {} is not a row of tasks.csv ({} tasks)", t, tasks));
    }
    rank[t] = next++;
  }
  return rank;
}

// When the recorded scheduler was asked besides after each step: its tick and heartbeat.
struct Triggers {
  Seconds tick = 0, heartbeat = 0;
};

std::string TomlText(const toml::node& n) {
  if (const auto* s = n.as_string()) return s->get();
  if (const auto* i = n.as_integer()) return std::to_string(i->get());
  if (const auto* d = n.as_floating_point()) return fmt::format("{}", d->get());
  if (const auto* b = n.as_boolean()) return b->get() ? "true" : "false";
  return "";
}

int LineOf(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

// The recorded scheduler, built from the recording's setup.toml as it ran, tells its triggers.
// A recording of a replay points at another recording: followed, a few deep at most.
Triggers ReadTriggers(const std::string& dir, int depth) {
  const std::string path = dir + "/setup.toml";
  if (!std::ifstream(path)) {
    throw InputError(path, 0, "scheduler.from", "cannot open: no such file or not readable");
  }
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw InputError(path, static_cast<int>(e.source().begin.line), "scheduler.from",
                     std::string(e.description()));
  }
  const toml::table* sched = root["scheduler"].as_table();
  const toml::node* policy = sched != nullptr ? sched->get("policy") : nullptr;
  if (policy == nullptr || TomlText(*policy).empty()) {
    throw InputError(path, 0, "scheduler.policy", "the recording's set-up names no scheduler");
  }
  const std::string name = TomlText(*policy);
  std::vector<SettingAssignment> given;
  for (const auto& [key, value] : *sched) {
    if (key.str() == "policy") continue;
    given.push_back({std::string(key.str()), TomlText(value), path, LineOf(value),
                     "scheduler." + std::string(key.str())});
  }
  if (name == "replay") {
    const auto from = std::find_if(given.begin(), given.end(),
                                   [](const SettingAssignment& a) { return a.key == "from"; });
    if (from == given.end() || depth >= 8) {
      throw InputError(path, LineOf(*policy), "scheduler.from",
                       "a replay of a replay of ... too deep, or without its recording");
    }
    return ReadTriggers(from->value, depth + 1);
  }
  const auto& entry =
      TaskSchedulerRegistry::Get().Find(name, "scheduler.policy", path, LineOf(*policy));
  PolicyArgs args{
      Settings(entry.settings, given, fmt::format("task scheduler '{}'", name), "scheduler."), 1,
      ""};
  if (const toml::table* net = root["network"].as_table()) {
    if (const toml::node* p = net->get("policy")) args.network_policy = TomlText(*p);
  }
  const std::unique_ptr<TaskScheduler> recorded = entry.factory(args);
  return {recorded->tick_interval(), recorded->server_heartbeat()};
}

class ReplayScheduler : public TaskScheduler {
 public:
  explicit ReplayScheduler(const PolicyArgs& args)
      : by_order_(args.settings.Choice<bool>("timing", {{"recorded", false}, {"order", true}})) {
    const SettingAssignment& from = args.settings.Source("from");
    const std::string& dir = args.settings.Text("from");
    if (dir == kNoDirectory) {
      throw InputError(from.file, from.line, from.field,
                       "replay needs a recorded run's output directory: --set scheduler.from=DIR");
    }
    tasks_path_ = dir + "/tasks.csv";
    recorded_ = ReadTasks(tasks_path_);
    modes_ = ReadModes(dir + "/modes.csv");
    rank_ = ReadRanks(dir + "/placements.csv", recorded_.size());
    if (!by_order_) triggers_ = ReadTriggers(dir, 0);
  }

  Decision Next(const SimState& state) override {
    Bind(state);
    TaskId best{-1};
    const int servers = static_cast<int>(queues_.size());
    for (ServerId s{0}; s < servers; ++s) {
      const TaskId t = Head(state, s);
      if (t >= 0 && (best < 0 || Before(t, best))) best = t;
    }
    return Place(state, best);
  }

  Seconds server_heartbeat() const override { return triggers_.heartbeat; }
  Decision Offer(const SimState& state, ServerId s) override {
    Bind(state);
    return Place(state, Head(state, s));
  }

  Seconds tick_interval() const override { return triggers_.tick; }
  Why OnTick(const SimState& state) override {
    Bind(state);
    return {};
  }

  // The recorded mode in force now: the last switch at or before now (the first one's before
  // it). Called after every step, so the workload is checked here first whatever happens.
  std::optional<SlotMode> mode(const SimState& state) const override {
    const_cast<ReplayScheduler*>(this)->Bind(state);
    if (modes_.empty()) return std::nullopt;
    const auto after = std::upper_bound(
        modes_.begin(), modes_.end(), state.now(),
        [](double t, const std::pair<double, SlotMode>& m) { return t < m.first; });
    return after == modes_.begin() ? modes_.front().second : std::prev(after)->second;
  }

  void AddStats(std::vector<std::pair<std::string, double>>& out) const override {
    out.emplace_back("placed_later_than_recorded", static_cast<double>(late_));
  }

 private:
  // The first time the scheduler sees the workload: every task against its recorded row.
  void Bind(const SimState& state);

  // Server s's next task in the recorded order if it may start now, else -1.
  TaskId Head(const SimState& state, ServerId s) const {
    const size_t k = next_[s];
    if (k >= queues_[s].size()) return TaskId{-1};
    const TaskId t = queues_[s][k];
    if (state.task(t).state != TaskState::kReady || !state.CanHost(t, s)) return TaskId{-1};
    if (!by_order_ && state.now() < Due(recorded_[t].placed)) return TaskId{-1};
    return t;
  }

  // The recorded order: by placed_s, then as the recorded scheduler placed them, then by row.
  bool Before(TaskId a, TaskId b) const {
    if (recorded_[a].placed != recorded_[b].placed)
      return recorded_[a].placed < recorded_[b].placed;
    return rank_[a] != rank_[b] ? rank_[a] < rank_[b] : a < b;
  }

  Decision Place(const SimState& state, TaskId t) {
    if (t < 0) return Decision{TaskId{-1}, kNoServer, Why().Add("rule", "wait-for-recorded")};
    const double placed = recorded_[t].placed;
    const auto s = static_cast<ServerId>(recorded_[t].server);
    ++next_[s];
    if (state.now() > placed + Slack(placed)) ++late_;
    return {t, s, Why().Add("rule", "recorded").Add("placed_s", placed)};
  }

  // tasks.csv's times have 12 significant digits: a time is due from half a unit of its last
  // digit before the written value, the earliest the unrounded time could have been.
  static double Slack(double t) {
    return t > 0 ? 0.5 * std::pow(10.0, std::floor(std::log10(t)) - 11) : 0;
  }
  static double Due(double t) { return t - Slack(t); }

  bool by_order_;
  std::string tasks_path_;
  std::vector<RecordedTask> recorded_;  // by task id, once bound
  std::vector<std::pair<double, SlotMode>> modes_;
  std::vector<int64_t> rank_;  // by task id: its place in the recorded order of placements
  Triggers triggers_;
  bool bound_ = false;
  std::vector<std::vector<TaskId>> queues_;  // per server: its slot-holding tasks in order
  std::vector<size_t> next_;                 // per server: the position of its next task
  int64_t late_ = 0;
};

void ReplayScheduler::Bind(const SimState& state) {
  if (bound_) return;
  bound_ = true;
  const std::string& path = tasks_path_;
  size_t row = 0;
  for (const JobRuntime& job : state.jobs()) {
    for (size_t k = 0; k < job.stages.size(); ++k) {
      const StageSpec& stage = job.spec->stages[k];
      for (int i = 0; i < job.stages[k].task_count; ++i, ++row) {
        const std::string name = fmt::format("{}/{}/{}", job.spec->name, stage.name, i);
        if (row >= recorded_.size()) {  // named where its row would be
          throw InputError(path, recorded_.empty() ? 2 : recorded_.back().line + 1, "job",
                           fmt::format("the workload's task {} is not in the recording ({} rows)",
                                       name, recorded_.size()));
        }
        const RecordedTask& r = recorded_[row];
        const char* field = r.job != job.spec->name ? "job"
                            : r.stage != stage.name ? "stage"
                            : r.index != i          ? "task"
                                                    : nullptr;
        if (field != nullptr) {
          throw InputError(path, r.line, field,
                           fmt::format("records {}/{}/{} where the workload's task {} is {}", r.job,
                                       r.stage, r.index, row, name));
        }
        const TaskRuntime& t = state.task(TaskId{static_cast<int32_t>(row)});
        if (r.pinned != !t.HoldsSlot()) {
          throw InputError(path, r.line, "pinned",
                           fmt::format("recorded as {}pinned, the workload's {} is {}",
                                       r.pinned ? "" : "not ", name, t.HoldsSlot() ? "not" : "so"));
        }
      }
    }
  }
  if (row < recorded_.size()) {
    const RecordedTask& r = recorded_[row];
    throw InputError(path, r.line, "job",
                     fmt::format("the recording's task {}/{}/{} is not in the workload (it has {} "
                                 "tasks)",
                                 r.job, r.stage, r.index, row));
  }
  const int servers = state.cluster().size();
  queues_.assign(servers, {});
  next_.assign(servers, 0);
  std::vector<TaskId> order;
  for (size_t t = 0; t < recorded_.size(); ++t) {
    const RecordedTask& r = recorded_[t];
    if (r.server >= servers) {
      throw InputError(
          path, r.line, "server",
          fmt::format("server {} is beyond the cluster's {} servers", r.server, servers));
    }
    if (!r.pinned) order.push_back(TaskId{static_cast<int32_t>(t)});
  }
  std::stable_sort(order.begin(), order.end(), [this](TaskId a, TaskId b) { return Before(a, b); });
  for (TaskId t : order) queues_[recorded_[t].server].push_back(t);
}

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "replay",
    "a recorded run's placements again: each task on its recorded server, in each server's "
    "recorded order, with the recorded slot modes (--set scheduler.from=DIR)",
    ReplaySettings(), ReplayScheduler);

}  // namespace slotflow
