// jtpw — JTPW, the capacity scheduler with job types and priority weights (JTPW §2). The
// readings it takes where the paper is silent or unclear are in docs/readings.md.
// Hadoop's capacity scheduler (capacity.cc) with two queues and three changes:
//  - §2.1 job types: a job is IO-bound iff its map tasks on a node move data faster than the
//    node's disk ("大于"), V = N·(1+ρ)·D_in / T_map > disk rate (eqs. (1)-(4)), else CPU-bound;
//    IO-bound jobs go to the IO queue, the others to the CPU/memory queue ("内存队列").
//    At submission (ours) V is predicted from the job's spec: its ρ and mean D_in, T_map its
//    mean map compute at the cluster's mean CPU speed, N as many maps as a node has slots
//    (at most the job's maps), against the mean disk rate. Each map that finishes
//    re-evaluates it with the measured T_map, the node's disk and N = the job's maps running
//    there then; the latest evaluation holds (§2.1: maps of a job behave alike).
//    T_map (ours, setting map_time): the map's compute time. A measured whole-task time
//    includes its own disk phases, so V computed from it can never exceed the disk rate and
//    every job would come out CPU-bound in a fluid model; the compute time gives the rate the
//    maps ask of the disk, which is what §2.1 compares ("the job needs a lot of I/O").
//  - §2.2 node load: L = w_cpu·U_cpu + w_mem·U_mem + w_disk·U_disk + w_net·U_net (eqs. (5)-(6),
//    equal weights by default, ours); nodes are ranked by L, refreshed every heartbeat
//    (setting refresh), and a task goes to the least loaded node that can take it. §2.2 defines
//    the U as the node's utilisation of its CPU, memory, disk and network ("使用率"), collected
//    in real time, and re-sorts the nodes every few heartbeats. So by default (node_load
//    measured) each U is the node's mean use over the last refresh interval (NodeMeter): the
//    share of its slots computing, of its memory in use, of what its disk and its NIC could
//    carry; the ranking holds until the next refresh, so the tasks placed between two refreshes
//    go to the nodes that were least loaded at the last one. node_load = slots is the reading
//    slotflow had before: U_cpu and U_mem are the slots and memory allocated now, following the
//    scheduler's own placements at once; U_disk and U_net the disk's and NIC's load at the last
//    refresh. U_net is the busier of the node's uplink and downlink (ours). Locality (ours,
//    setting locality):
//    JTPW extends the capacity scheduler, which places node-local first, and §2.2 does not say
//    it gives that up; so the least loaded of the nodes holding a task's block comes first,
//    then the least loaded of all. (On the paper's cluster every block is on every worker, so
//    this never binds there.) Ties: a node holding the block, then the lowest id.
//    Setting rank (ours): load (the default) ranks by L as §2.2 defines it, the weighted sum
//    of utilisations ("使用率", l. 628), sorted from small to large (l. 468); L has no term
//    for a node's speed. speed-aware ranks by L / the node's cpu_speed, ties to the faster
//    node (then a node holding the block, then the lowest id): §2.2 motivates the ranking by
//    nodes whose computing power differs widely ("各个节点计算能力差别较大", l. 466) but
//    gives L no term for it, so this reading is ours.
//  - §2.3 priority weight: P_w = P until the job has waited more than T since submission, else
//    eq. (7)'s second case, P + w_time·T_wait/T + w_cpu·P_cpu + w_mem·P_mem + w_prio·P (P_cpu
//    its share of the slots, P_mem its share of the memory), with §3.2's T = 30 s and weights
//    0.2 / 0.3 / 0.3 / 0.2; jobs in a queue by P_w (higher first), then submission. Eq. (7) as
//    printed starts with "P +", so waiting past T only ever raises a job, as §2.3's text says
//    ("通过提高其权重实现作业优先级提升"). Setting weight_form = sum drops that P.
// Queues: io and cpu with shares io_share and 1 − io_share, each allowed up to max_share
// (ours: the paper does not give them). per_queue as in capacity.cc (§1: one job per queue).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>

#include "api/error.h"
#include "scheduling/capacity_queues.h"
#include "scheduling/jtpw_rules.h"
#include "scheduling/node_meter.h"

namespace slotflow {
namespace {

SettingSpec Weight(const char* name, const char* value, const char* meaning) {
  return {.name = name,
          .kind = SettingKind::kNumber,
          .default_value = value,
          .meaning = meaning,
          .min = 0,
          .max = 1};
}

std::vector<SettingSpec> JtpwSettings() {
  return {{.name = "refresh",
           .kind = SettingKind::kSeconds,
           .default_value = "1s",
           .meaning = "how often node loads are refreshed, and with node_load measured the "
                      "interval they are measured over (JTPW §2.2: every heartbeat; YARN's "
                      "NodeManager heartbeat is 1 s in Hadoop 2.7)",
           .min = 1e-3,
           .max = 3600},
          {.name = "rank",
           .kind = SettingKind::kChoice,
           .default_value = "load",
           .meaning = "how nodes are ranked: load, by L of JTPW eq. (6), the weighted sum of "
                      "utilisations, from small to large (JTPW §2.2); speed-aware, by L divided "
                      "by the node's cpu_speed, ties to the faster node (ours: §2.2 motivates the "
                      "ranking by nodes of different computing power, L has no term for it)",
           .choices = {"load", "speed-aware"}},
          {.name = "node_load",
           .kind = SettingKind::kChoice,
           .default_value = "measured",
           .meaning = "the utilisations in JTPW eq. (6): measured, each node's mean use over the "
                      "last refresh interval (share of slots computing, of memory in use, of "
                      "what its disk and NIC could carry), ranked until the next refresh (JTPW "
                      "§2.2); or slots, the slots and memory allocated now and the disk's and "
                      "NIC's load at the last refresh",
           .choices = {"measured", "slots"}},
          Weight("w_cpu", "0.25", "node load weight of CPU use (JTPW eq. (6); ours)"),
          Weight("w_mem", "0.25", "node load weight of memory in use (JTPW eq. (6); ours)"),
          Weight("w_disk", "0.25", "node load weight of disk utilisation (JTPW eq. (6); ours)"),
          Weight("w_net", "0.25", "node load weight of NIC utilisation (JTPW eq. (6); ours)"),
          {.name = "wait_threshold",
           .kind = SettingKind::kSeconds,
           .default_value = "30s",
           .meaning = "T: P_w = P until a job has waited longer than this (JTPW §2.3, §3.2: 30 s)",
           // T_wait / T must stay finite: from 1 ms, waits up to the engine's time limit
           // (2^40 s) give at most about 10^15.
           .min = 1e-3,
           .max = 1e6},
          Weight("w_time", "0.2", "P_w weight of T_wait / T (JTPW eq. (7), §3.2)"),
          Weight("w_pcpu", "0.3", "P_w weight of the job's share of slots (JTPW eq. (7), §3.2)"),
          Weight("w_pmem", "0.3", "P_w weight of the job's share of memory (JTPW eq. (7), §3.2)"),
          Weight("w_prio", "0.2", "P_w weight of the initial priority (JTPW eq. (7), §3.2)"),
          {.name = "weight_form",
           .kind = SettingKind::kChoice,
           .default_value = "p-plus",
           .meaning = "P_w once a job has waited T: p-plus, P + the weighted sum (JTPW eq. (7) "
                      "as printed starts with P +, so waiting only raises a job, JTPW §2.3), "
                      "or sum, the weighted sum alone (a job can fall below its P)",
           .choices = {"p-plus", "sum"}},
          {.name = "map_time",
           .kind = SettingKind::kChoice,
           .default_value = "compute",
           .meaning = "T_map measured as the map's compute time (compute) or its whole time "
                      "from placement to done (task) (JTPW §2.1; ours)",
           .choices = {"compute", "task"}},
          Weight("io_share", "0.5", "the IO queue's capacity share; the CPU queue has the rest"),
          Weight("max_share", "1", "the most of the slots either queue may use (ours)"),
          PerQueueSetting(),
          {.name = "locality",
           .kind = SettingKind::kChoice,
           .default_value = "first",
           .meaning = "first: the least loaded of the nodes holding the task's block, if any "
                      "has room, else of all (the capacity scheduler's node-local preference "
                      "kept; ours); tie-break: the least loaded of all, locality only breaks ties",
           .choices = {"first", "tie-break"}}};
}

// Eqs. (5) and (8): each set of weights must sum to 1.
void CheckSum(const Settings& s, std::initializer_list<std::string_view> weights, const char* eq) {
  double sum = 0;
  std::string names;
  for (std::string_view w : weights) {
    sum += s.Number(w);
    names += (names.empty() ? "" : " + ") + std::string(w);
  }
  if (std::fabs(sum - 1) > 1e-6) {
    throw s.Conflict(weights,
                     fmt::format("the weights {} sum to {:g}; {} needs 1", names, sum, eq));
  }
}

struct JobType {
  bool known = false;
  JobClass cls = JobClass::kCpu;
  double rho = 0;
  int evaluated = 0;  // maps whose finish has been evaluated
  int changes = 0;    // times the class changed
};

class JtpwScheduler : public TaskScheduler {
 public:
  explicit JtpwScheduler(const PolicyArgs& args) {
    const Settings& s = args.settings;
    refresh_ = s.Number("refresh");
    measured_ = s.Choice<bool>("node_load", {{"measured", true}, {"slots", false}});
    speed_aware_ = s.Choice<bool>("rank", {{"load", false}, {"speed-aware", true}});
    load_w_ = {s.Number("w_cpu"), s.Number("w_mem"), s.Number("w_disk"), s.Number("w_net")};
    CheckSum(s, {"w_cpu", "w_mem", "w_disk", "w_net"}, "JTPW eq. (5)");
    prio_w_ = {s.Number("w_time"),
               s.Number("w_pcpu"),
               s.Number("w_pmem"),
               s.Number("w_prio"),
               s.Number("wait_threshold"),
               s.Choice<bool>("weight_form", {{"p-plus", true}, {"sum", false}})};
    CheckSum(s, {"w_time", "w_pcpu", "w_pmem", "w_prio"}, "JTPW eq. (8)");
    whole_task_ = s.Choice<bool>("map_time", {{"compute", false}, {"task", true}});
    one_per_queue_ = OnePerQueue(s);
    locality_first_ = s.Choice<bool>("locality", {{"first", true}, {"tie-break", false}});
    const double io = s.Number("io_share"), max = s.Number("max_share");
    if (io <= 0 || io >= 1 || max < std::max(io, 1 - io)) {
      throw s.Conflict({"io_share", "max_share"},
                       fmt::format("needs 0 < io_share < 1 and max_share >= both shares, got "
                                   "io_share {:g}, max_share {:g}",
                                   io, max));
    }
    queues_ = {{"io", io, max}, {"cpu", 1 - io, max}};
  }

  Decision Next(const SimState& state) override;
  Seconds tick_interval() const override { return refresh_; }
  Why OnTick(const SimState& state) override {
    Refresh(state);
    return {};
  }
  // The node meter reads the bytes of every flow started since its last reading.
  FinishedFlows ReadsFinishedFlows() const override { return FinishedFlows::kRecords; }

  void AddStats(std::vector<std::pair<std::string, double>>& out) const override {
    int io = 0, cpu = 0, changes = 0;
    for (const JobType& t : types_) {
      if (!t.known) continue;
      (t.cls == JobClass::kIo ? io : cpu) += 1;
      changes += t.changes;
    }
    out.emplace_back("jobs_io", io);
    out.emplace_back("jobs_cpu", cpu);
    out.emplace_back("class_changes", changes);
  }

 private:
  void Refresh(const SimState& state);
  double Load(const SimState& state, ServerId s) const;
  void Classify(const SimState& state, JobIndex j);
  JobClass Predict(const SimState& state, const JobRuntime& job) const;
  JobClass Measure(const SimState& state, const JobRuntime& job, TaskId t) const;
  double PriorityOf(const SimState& state, const JobRuntime& job) const;
  void Group(const SimState& state);
  Decision PlaceRanked(const SimState& state, JobIndex j);

  Seconds refresh_ = 1;
  bool measured_ = true;
  bool speed_aware_ = false;  // rank by L / cpu_speed
  NodeMeter meter_;
  LoadWeights load_w_;
  PriorityWeights prio_w_;
  bool whole_task_ = false;
  bool one_per_queue_ = false;
  bool locality_first_ = true;
  std::vector<QueueShare> queues_;
  std::vector<JobType> types_;
  // Per server at the last refresh: L (node_load measured), or w_disk·U_disk + w_net·U_net
  // (slots).
  std::vector<double> reported_;
  std::vector<std::vector<JobIndex>> members_;
  std::vector<QueueLoad> load_;
  std::vector<double> weight_;  // P_w of each job at this decision
  std::vector<TaskId> finished_;
};

// §2.2: each node's load as its heartbeat reports it: measured, its mean use since the last
// refresh; slots, the disk and network parts as they are now.
void JtpwScheduler::Refresh(const SimState& state) {
  reported_.resize(state.cluster().size());
  if (measured_) {
    const std::vector<NodeMeter::Use>& use = meter_.Read(state);
    for (ServerId s{0}; s < state.cluster().size(); ++s) {
      const NodeMeter::Use& u = use[s];
      reported_[s] = NodeLoad(load_w_, u.cpu, u.memory, u.disk, u.net);
    }
    return;
  }
  for (ServerId s{0}; s < state.cluster().size(); ++s) {
    const SimState::Utilisation u = state.ServerUtilisation(s);
    reported_[s] = NodeLoad(load_w_, 0, 0, u.disk, std::max(u.uplink, u.downlink));
  }
}

// Eq. (6): measured, L as last refreshed; slots, with U_cpu and U_mem as allocated now and
// U_disk, U_net as last refreshed.
double JtpwScheduler::Load(const SimState& state, ServerId s) const {
  if (measured_) return reported_[s];
  const SimState::Utilisation u = state.ServerUtilisation(s);
  return NodeLoad(load_w_, u.cpu, u.memory, 0, 0) + reported_[s];
}

// §2.1 at submission (ours): V predicted from the spec (see the top of this file).
JobClass JtpwScheduler::Predict(const SimState& state, const JobRuntime& job) const {
  const Cluster& cluster = state.cluster();
  double speed = 0, disk = 0, slots = 0;
  int disks = 0;
  for (const Server& sv : cluster.servers()) {
    speed += sv.cpu_speed / cluster.size();
    slots += static_cast<double>(sv.slots) / cluster.size();
    if (sv.disk > 0) disk += sv.disk, ++disks;
  }
  if (disks == 0) return JobClass::kCpu;
  Bytes d_in = 0;
  Seconds t_map = 0;
  int maps = 0;
  for (const StageSpec& st : job.spec->stages) {
    if (!st.parents.empty()) continue;
    for (const TaskSpec& t : st.tasks) {
      const Bytes work = t.work >= 0 ? t.work : t.input;
      d_in += t.input;
      t_map += t.compute >= 0 ? t.compute : work / cluster.spec().slot_rate;
      ++maps;
    }
  }
  if (maps == 0) return JobClass::kCpu;
  const int n = std::max(1, static_cast<int>(std::min<double>(maps, std::floor(slots))));
  const double v = MapDataRate(n, types_[job.index].rho, d_in / maps, t_map / maps / speed);
  return ClassifyByRate(v, disk / disks);
}

// §2.1 eqs. (2)-(4) for finished map t: its T_map, its node's disk, N = the job's maps
// running on that node when t's compute (or, with map_time task, t itself) ended.
JobClass JtpwScheduler::Measure(const SimState& state, const JobRuntime& job, TaskId t) const {
  const TaskRuntime& task = state.task(t);
  const Seconds end = whole_task_ ? task.finish_at : task.computed_at;
  const Seconds t_map = end - (whole_task_ ? task.placed_at : task.compute_at);
  const StageRuntime& st = job.stages[task.stage];
  int n = 0;
  for (TaskId o = st.first_task; o < st.first_task + st.task_count; ++o) {
    const TaskRuntime& other = state.task(o);
    if (other.server != task.server || other.placed_at < 0 || other.placed_at > end) continue;
    if (other.finish_at < 0 || other.finish_at >= end) ++n;
  }
  const double v = MapDataRate(n, types_[job.index].rho, task.spec->input, t_map);
  return ClassifyByRate(v, state.cluster().server(task.server).disk);
}

// §2.1: the job's class, predicted at first sight, then re-evaluated by each finished map.
void JtpwScheduler::Classify(const SimState& state, JobIndex j) {
  if (types_.size() <= static_cast<size_t>(j)) types_.resize(j + 1);
  JobType& type = types_[j];
  const JobRuntime& job = state.job(j);
  if (!type.known) {
    type.rho = MapOutputRatio(*job.spec);
    type.cls = Predict(state, job);
    type.known = true;
  }
  int done = 0;
  for (size_t s = 0; s < job.stages.size(); ++s) {
    if (job.spec->stages[s].parents.empty()) {
      done += job.stages[s].task_count - job.stages[s].unfinished_tasks;
    }
  }
  if (done == type.evaluated) return;
  finished_.clear();
  for (size_t s = 0; s < job.stages.size(); ++s) {
    if (!job.spec->stages[s].parents.empty()) continue;
    const StageRuntime& st = job.stages[s];
    for (TaskId t = st.first_task; t < st.first_task + st.task_count; ++t) {
      if (state.task(t).state == TaskState::kDone) finished_.push_back(t);
    }
  }
  std::stable_sort(finished_.begin(), finished_.end(), [&](TaskId a, TaskId b) {
    return state.task(a).finish_at < state.task(b).finish_at;
  });
  for (size_t k = type.evaluated; k < finished_.size(); ++k) {
    const JobClass cls = Measure(state, job, finished_[k]);
    if (cls != type.cls) ++type.changes;
    type.cls = cls;
  }
  type.evaluated = done;
}

// §2.3 eq. (7) for a job now: P_cpu its share of the slots, P_mem of the memory.
double JtpwScheduler::PriorityOf(const SimState& state, const JobRuntime& job) const {
  const Cluster& cluster = state.cluster();
  Bytes memory = 0, held = 0;
  for (const Server& sv : cluster.servers()) memory += sv.memory;
  if (memory > 0) {
    for (size_t s = 0; s < job.stages.size(); ++s) {
      const StageRuntime& st = job.stages[s];
      for (TaskId t = st.first_task; t < st.first_task + st.task_count; ++t) {
        const TaskRuntime& task = state.task(t);
        const bool holds = task.placed_at >= 0 && task.state != TaskState::kDone;
        if (holds && task.HoldsSlot()) held += task.spec->memory;
      }
    }
  }
  const double p_cpu =
      static_cast<double>(job.running) / std::max<int64_t>(1, cluster.TotalSlots());
  return PriorityWeight(prio_w_, job.spec->priority, state.now() - job.spec->submit, p_cpu,
                        memory > 0 ? held / memory : 0);
}

// Each queue's jobs by P_w, and its running tasks.
void JtpwScheduler::Group(const SimState& state) {
  members_.assign(queues_.size(), {});
  load_.assign(queues_.size(), {});
  if (weight_.size() < state.jobs().size()) weight_.resize(state.jobs().size());
  for (JobIndex j : state.active_jobs()) {
    Classify(state, j);
    const JobRuntime& job = state.job(j);
    const int q = types_[j].cls == JobClass::kIo ? 0 : 1;
    members_[q].push_back(j);
    load_[q].running += job.running;
    load_[q].has_work = load_[q].has_work || !job.ready.empty();
    if (!job.ready.empty()) weight_[j] = PriorityOf(state, job);
  }
  for (auto& m : members_) {
    std::stable_sort(m.begin(), m.end(), [&](JobIndex a, JobIndex b) {
      if (weight_[a] != weight_[b]) return weight_[a] > weight_[b];
      return state.job(a).spec->submit < state.job(b).spec->submit;
    });
    KeepStartedJobs(state, one_per_queue_, m);
  }
}

Decision JtpwScheduler::Next(const SimState& state) {
  if (state.free_slots() == 0) return {};
  if (reported_.empty()) Refresh(state);
  Group(state);
  const int64_t slots = state.cluster().TotalSlots();
  for (int q; (q = PickQueue(queues_, load_, slots)) >= 0;) {
    for (JobIndex j : members_[q]) {
      if (state.job(j).ready.empty()) continue;
      Decision d = PlaceRanked(state, j);
      if (!d) continue;
      d.why.Add("queue", queues_[q].name.c_str())
          .Add("class", JobClassName(types_[j].cls))
          .Add("p_w", weight_[j])
          .Add("waited_s", state.now() - state.job(j).spec->submit);
      return d;
    }
    load_[q].has_work = false;  // nothing of this queue fits a free slot
  }
  return {};
}

// §2.2: the least loaded node with room for one of job j's ready tasks (nodes holding a
// task's block first, with locality first); there, a task whose block it holds, else the
// job's first ready task that fits. With rank speed-aware, "least loaded" is the least
// L / cpu_speed, and of two nodes tied in it the faster comes first.
Decision JtpwScheduler::PlaceRanked(const SimState& state, JobIndex j) {
  const auto& ready = state.job(j).ready;
  ServerId best = kNoServer;
  TaskId best_task{-1};
  double best_load = 0, best_key = 0, best_speed = 0;
  bool best_local = false;
  for (ServerId s : state.servers_with_free_slots()) {
    TaskId pick{-1};
    bool local = false;
    for (TaskId t : ready) {
      if (!state.CanHost(t, s)) continue;
      const auto& reps = state.task(t).replicas;
      const bool here = std::find(reps.begin(), reps.end(), s) != reps.end();
      if (pick < 0 || here) pick = t, local = here;
      if (here) break;
    }
    if (pick < 0) continue;
    const double load = Load(state, s);
    const double speed = state.cluster().server(s).cpu_speed;
    const double key = speed_aware_ ? load / speed : load;
    bool better = true;
    if (best != kNoServer && locality_first_ && local != best_local) {
      better = local;  // locality first: a node holding the block beats any that does not
    } else if (best != kNoServer) {
      if (key < best_key - 1e-12) {
        better = true;
      } else if (key > best_key + 1e-12) {
        better = false;
      } else if (speed_aware_ && speed != best_speed) {
        better = speed > best_speed;
      } else {
        better = local && !best_local;
      }
    }
    if (better) {
      best = s, best_task = pick, best_local = local;
      best_load = load, best_key = key, best_speed = speed;
    }
  }
  if (best == kNoServer) return {};
  Decision d{best_task, best, Why()};
  d.why.Add("load", best_load);
  if (speed_aware_) d.why.Add("load_per_speed", best_key);
  d.why.Add("local", best_local ? 1 : 0);
  return d;
}

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "jtpw", "JTPW: capacity queues by job type (IO / CPU), least-loaded nodes, priority weights",
    JtpwSettings(), JtpwScheduler);

}  // namespace slotflow
