// One driver for both modes: live mode's LiveRun, driven in simulated time by the engine with
// simulated agents whose transfers follow the fluid model, makes the same decisions as the
// simulator and gets the same results — placements (with their reasons), reservations,
// heartbeats, ticks and slot-mode switches in the decision log, and under each network policy
// the classes it gives and changes, every job's times, the time in each mode.
#include "master/live_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "network/network.h"
#include "scenario.h"
#include "sim/engine_clock.h"
#include "sim/simulator.h"
#include "workload/synthetic.h"

namespace slotflow::testing {
namespace {

// Agents in simulated time: a launched task's fetches move through a fluid network (the
// simulator's) in the classes the run's network policy gives them, then it computes for the
// launch's compute time; each end is reported to the run as a real agent would. The fluid
// network serves the policy's classes themselves rather than the live classes the run marks
// sockets with: those are the classes' ranks among the flows in flight, which keep their order
// (checked at every step) but are at most seven (the testbed's priorities) and shift as classes
// come and go, and each shift would move a flow between groups of the fluid model, rounding
// its bytes anew, so its end would differ from the simulator's in the last digits.
class SimulatedAgents final : public AgentLink {
 public:
  SimulatedAgents(const Cluster& cluster, Engine& engine)
      : engine_(engine), wire_(cluster, NetworkPolicyRegistry::Get().Make("fair", {}, 1),
                               engine.clock()) {
    compute_done_ = engine_.AddKind([this](int64_t i) {
      const auto& [host, done] = computes_[static_cast<size_t>(i)];
      Report(host, done);
    });
  }
  void Attach(LiveRun& run) { run_ = &run; }
  // Called with every launch before it runs.
  std::function<void(ServerId, const Launch&)> on_launch;
  // A relaunched task reports the end of its previous attempt as it starts computing.
  bool stale_reports = false;

  void Send(ServerId host, const ControlMessage& m) override {
    if (const auto* cancel = std::get_if<Cancel>(&m)) {
      tasks_[cancel->task].fetches_left = -1;  // its fetches' ends start no compute
      return;
    }
    if (const auto* mark = std::get_if<SetClass>(&m)) {
      rank_[mark->flow] = mark->cls;  // sent to both ends: the same rank twice
      return;
    }
    const auto* launch = std::get_if<Launch>(&m);
    if (launch == nullptr) return;
    if (on_launch) on_launch(host, *launch);
    Running& task = tasks_[launch->task];
    task =
        Running{host, launch->compute_s, static_cast<int>(launch->fetches.size()), launch->attempt};
    for (const Fetch& f : launch->fetches) {
      FlowSpec wire;
      wire.src = ServerId{f.port};  // DataEndpoint's port is the source host
      wire.dst = host;
      wire.size = run_->flows().flow(f.flow).spec.size;  // f.bytes is whole bytes
      wire.macroflow = launch->task;
      fetches_.emplace(f.flow, wire);
      rank_[f.flow] = f.cls;
    }
    if (task.fetches_left == 0) Compute(launch->task);
  }
  std::pair<std::string, uint16_t> DataEndpoint(ServerId host) const override {
    return {"simulated", static_cast<uint16_t>(host)};
  }

  ContinuousProcess Process() {
    return {[this] { return wire_.NextEventTime(); },
            [this](Seconds t) {
              std::vector<FlowId> done;
              wire_.AdvanceTo(t, done);
              for (FlowId w : done) {
                const FlowSpec& spec = wire_.flow(w).spec;
                Report(spec.dst, FlowDone{live_flow_[w], static_cast<int64_t>(spec.size)});
                const TaskId task{spec.macroflow};
                Running& r = tasks_.at(task);
                if (wire_attempt_[w] != r.attempt || r.fetches_left <= 0) continue;  // cancelled
                if (--r.fetches_left == 0) Compute(task);
              }
            }};
  }
  // The fetches start in flow order, as the simulator starts its flows, so that the fluid
  // model adds up their rates in the same order; then every flow takes the class the policy
  // gives it now.
  void Settle() {
    run_->Settle();
    for (const auto& [live, wire] : fetches_) {
      live_flow_.push_back(live);
      wire_attempt_.push_back(tasks_.at(TaskId{wire.macroflow}).attempt);
      wire_.StartFlow(wire);
    }
    fetches_.clear();
    const LiveFlows& flows = run_->flows();
    std::vector<std::pair<FlowClass, int>> in_flight;  // class and rank, of each live flow
    for (FlowId w : wire_.active_flows()) {
      const FlowId live = live_flow_[w];
      if (!flows.Active(live)) continue;
      const FlowClass cls = flows.Class(live);
      if (wire_.Class(w) != cls) wire_.SetClass(w, cls, Why());
      in_flight.emplace_back(cls, rank_.at(live));
    }
    // The ranks told keep the classes' order.
    std::sort(in_flight.begin(), in_flight.end());
    for (size_t i = 1; i < in_flight.size(); ++i) {
      EXPECT_LE(in_flight[i - 1].second, in_flight[i].second) << "at " << engine_.now();
    }
    wire_.Resolve();
  }

 private:
  struct Running {
    ServerId host = kNoServer;
    Seconds compute = 0;
    int fetches_left = 0;
    int attempt = 0;
  };
  void Compute(TaskId t) {
    const Running& task = tasks_.at(t);
    // As an agent's report of an earlier attempt, cancelled since, could arrive now.
    if (stale_reports && task.attempt > 0) Report(task.host, TaskDone{t, task.attempt - 1});
    computes_.emplace_back(task.host, TaskDone{t, task.attempt});
    engine_.Schedule(engine_.now() + task.compute, compute_done_,
                     static_cast<int64_t>(computes_.size() - 1));
  }
  void Report(ServerId host, const ControlMessage& m) {
    const std::string wrong = run_->OnReport(host, m);
    EXPECT_EQ(wrong, "");
  }

  Engine& engine_;
  Network wire_;
  LiveRun* run_ = nullptr;
  int32_t compute_done_ = -1;
  std::map<TaskId, Running> tasks_;
  std::map<FlowId, FlowSpec> fetches_;  // launched since the last step, by live flow
  std::map<FlowId, int> rank_;          // per live flow, the live class (rank) last told
  std::vector<FlowId> live_flow_;       // per wire flow, the live flow it carries
  std::vector<int> wire_attempt_;       // per wire flow, its task's attempt
  std::vector<std::pair<ServerId, TaskDone>> computes_;  // each compute's report, by event
};

// A scheduler with a tick and a slot-mode signal (none of the built-in ones that have them
// reads only the state: they read the network's link loads, which live mode measures as
// averages between reports): the first ready task on the first free server; at every tick it
// says how many tasks wait; its mode is insufficient while more tasks are ready than slots free.
class TickingScheduler final : public TaskScheduler {
 public:
  Decision Next(const SimState& state) override {
    for (const Server& sv : state.cluster().servers()) {
      if (state.server(sv.id).free_slots == 0) continue;
      for (JobIndex j : state.active_jobs()) {
        for (const StageRuntime& sr : state.job(j).stages) {
          for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
            if (state.task(t).state != TaskState::kReady) continue;
            Decision d{t, sv.id};
            d.why.Add("rule", "first");
            return d;
          }
        }
      }
    }
    return {};
  }
  Seconds tick_interval() const override { return 0.7; }
  Why OnTick(const SimState& state) override {
    Why why;
    why.Add("ready", state.ready_tasks());
    return why;
  }
  std::optional<SlotMode> mode(const SimState& state) const override {
    return state.ready_tasks() > state.free_slots() ? SlotMode::kInsufficient
                                                    : SlotMode::kSufficient;
  }
};

std::unique_ptr<TaskScheduler> MakeScheduler(const std::string& name) {
  if (name == "ticking") return std::make_unique<TickingScheduler>();
  return TaskSchedulerRegistry::Get().Make(name, {}, 3);
}

// aalo demotes a coflow when the bytes it has sent cross a threshold, at the instant the rates
// in force predict. Live mode knows bytes and rates only from the agents' progress reports (a
// rate is the bytes between the last two, live_flows.h), which lag every change of rates, so it
// cannot demote at the simulator's instants (and the simulated agents report only ends). Here
// aalo's first threshold lies beyond every coflow's bytes: its classes are those of its first
// queue, coflows first come, first served.
std::unique_ptr<NetworkPolicy> MakeNetworkPolicy(const std::string& name) {
  if (name == "aalo")
    return NetworkPolicyRegistry::Get().Make(name, {{"first_threshold", "1e15"}}, 3);
  return NetworkPolicyRegistry::Get().Make(name, {}, 3);
}

// The decision log's lines about the scheduler (placements, reservations, heartbeats, ticks,
// slot modes) and about the network policy and its flows (each flow's start with its first
// class, class changes, ends).
//  - A flow's start line is kept without its rate: live mode logs the rate measured so far
//    (none yet), the simulator the one the fluid model gives it.
//  - A policy that re-classes every flow in flight at once (cans at a mode switch) goes
//    through FlowView::active_flows(), which is in no particular order (api/flow_view.h): the
//    fluid network moves its last flow into the place of one that ends, live mode keeps them in
//    start order. So each instant's run of class changes is compared sorted.
std::vector<std::string> Decisions(const std::string& log) {
  static const std::regex kRate(",\"rate\":[^,}]*");
  std::vector<std::string> out;
  for (const std::string& line : Lines(log)) {
    for (const char* event : {"\"place\"", "\"reserve\"", "\"heartbeat\"", "\"tick\"", "\"mode\"",
                              "\"flow_start\"", "\"class\"", "\"flow_end\""}) {
      if (line.find(std::string("\"event\":") + event) != std::string::npos) {
        out.push_back(std::regex_replace(line, kRate, ""));
      }
    }
  }
  // The time and event that start a line, up to its first other field.
  auto instant = [](const std::string& line) { return line.substr(0, line.find(",\"flow\"")); };
  for (auto run = out.begin(); run != out.end();) {
    if (run->find("\"event\":\"class\"") == std::string::npos) {
      ++run;
      continue;
    }
    auto end = std::find_if(
        run, out.end(), [&](const std::string& line) { return instant(line) != instant(*run); });
    std::sort(run, end);
    run = end;
  }
  return out;
}

struct Outcome {
  std::vector<std::string> decisions;
  std::vector<JobResult> jobs;
  std::vector<std::pair<std::string, double>> scheduler_stats;  // with the time in each mode
  int64_t reservations = 0;
};

Outcome Simulate(const Cluster& cluster, const Workload& w, const std::string& scheduler,
                 const std::string& network) {
  std::ostringstream text;
  EventLog log(text);
  SimulationConfig config;
  config.seed = 3;
  config.log = &log;
  Simulator sim(cluster, w, MakeScheduler(scheduler), MakeNetworkPolicy(network), config);
  Outcome out;
  const RunResult r = sim.Run();
  out.jobs = r.jobs;
  out.scheduler_stats = r.summary.scheduler_stats;
  out.reservations = r.summary.reservations;
  log.Flush();
  out.decisions = Decisions(text.str());
  return out;
}

Outcome Live(const Cluster& cluster, const Workload& w, const std::string& scheduler,
             const std::string& network) {
  std::ostringstream text;
  EventLog log(text);
  Engine engine;
  EngineClock clock(engine);
  SimulatedAgents agents(cluster, engine);
  LiveRun run(cluster, w, MakeScheduler(scheduler), MakeNetworkPolicy(network),
              LiveRunConfig{.seed = 3, .log = &log}, clock, agents);
  agents.Attach(run);
  run.Begin();
  EXPECT_TRUE(engine.Run(agents.Process(), [&] { agents.Settle(); }));
  EXPECT_EQ(run.unfinished_jobs(), 0);
  Outcome out;
  const RunResult r = run.Collect(0);
  out.jobs = r.jobs;
  out.scheduler_stats = r.summary.scheduler_stats;
  out.reservations = r.summary.reservations;
  log.Flush();
  out.decisions = Decisions(text.str());
  return out;
}

// A scheduler and a network policy.
using Policies = std::tuple<const char*, const char*>;
class OneDriver : public ::testing::TestWithParam<Policies> {};

TEST_P(OneDriver, LiveRunInSimulatedTimeDecidesAsTheSimulator) {
  const auto [scheduler, network] = GetParam();
  ClusterSpec spec = UnitCluster(8, 2);
  spec.classes[0].nic = 125e6;
  spec.slot_rate = 1e9;
  const Cluster cluster(spec);
  const Workload w = GenerateSynthetic({.jobs = 30, .mean_interarrival_s = 0.5, .seed = 3});
  const Outcome sim = Simulate(cluster, w, scheduler, network);
  const Outcome live = Live(cluster, w, scheduler, network);
  ASSERT_GT(sim.decisions.size(), 100u);
  auto count = [&sim](const char* event) {
    return std::count_if(sim.decisions.begin(), sim.decisions.end(), [event](const auto& line) {
      return line.find(std::string("\"event\":\"") + event + "\"") != std::string::npos;
    });
  };
  const std::string name = scheduler;
  if (name == "fifo" || name == "delay" || name == "tcds") EXPECT_GT(count("heartbeat"), 10);
  if (name == "ticking") {
    EXPECT_GT(count("tick"), 10);
    EXPECT_GT(count("mode"), 2);
  }
  // The network policy's decisions are compared too: every flow's first class (aalo's one per
  // coflow, by arrival) and cans' changes at each slot-mode switch.
  EXPECT_GT(count("flow_start"), 100);
  std::set<std::string> first_classes;
  static const std::regex kClass("\"class\":(-?[0-9]+)");
  for (const std::string& line : sim.decisions) {
    std::smatch m;
    if (line.find("\"event\":\"flow_start\"") != std::string::npos &&
        std::regex_search(line, m, kClass)) {
      first_classes.insert(m[1]);
    }
  }
  const std::string policy = network;
  if (policy == "fair") {
    EXPECT_EQ(first_classes.size(), 1u);
  }
  if (policy == "aalo") {
    EXPECT_GT(first_classes.size(), 20u);
  }
  if (policy == "cans") {
    EXPECT_GT(first_classes.size(), 2u);
    EXPECT_GT(count("class"), 10);
  }
  EXPECT_EQ(live.decisions.size(), sim.decisions.size());
  for (size_t i = 0; i < std::min(live.decisions.size(), sim.decisions.size()); ++i) {
    ASSERT_EQ(live.decisions[i], sim.decisions[i]) << "decision " << i;
  }
  ASSERT_EQ(live.jobs.size(), sim.jobs.size());
  for (size_t j = 0; j < sim.jobs.size(); ++j) {
    EXPECT_EQ(live.jobs[j].name, sim.jobs[j].name);
    ASSERT_EQ(live.jobs[j].first_start, sim.jobs[j].first_start) << sim.jobs[j].name;
    ASSERT_EQ(live.jobs[j].finish, sim.jobs[j].finish) << sim.jobs[j].name;
  }
  EXPECT_EQ(live.scheduler_stats, sim.scheduler_stats);
  EXPECT_EQ(live.reservations, sim.reservations);
}

// Next() after every step (greedy, capacity), offers at heartbeats with waits for locality
// (fifo, delay, tcds), a tick and the slot-mode signal (ticking); under fair sharing, aalo and
// cans.
INSTANTIATE_TEST_SUITE_P(Schedulers, OneDriver,
                         ::testing::Combine(::testing::Values("greedy", "capacity", "fifo", "delay",
                                                              "tcds", "ticking"),
                                            ::testing::Values("fair", "aalo", "cans")),
                         [](const ::testing::TestParamInfo<Policies>& info) {
                           return std::string(std::get<0>(info.param)) + "_" +
                                  std::get<1>(info.param);
                         });

// A live run on simulated agents of one job, two 1-s maps and a reducer reading 2 MB, on two
// servers of one slot at 1 MB/s (ticking + fair), with `config`.
struct OneJobRun {
  static ClusterSpec Spec() {
    ClusterSpec spec = UnitCluster(2, 1);
    spec.classes[0].nic = 1e6;
    return spec;
  }
  static Workload Jobs() {
    Workload w;
    w.source = "one job";
    w.jobs = {Job("A", 0,
                  {StageSpec{"map", {}, {Task(0, 1), Task(0, 1)}},
                   StageSpec{"reduce", {0}, {Task(2e6, 1)}}})};
    return w;
  }
  explicit OneJobRun(const LiveRunConfig& config)
      : run(cluster, w, MakeScheduler("ticking"), NetworkPolicyRegistry::Get().Make("fair", {}, 3),
            config, clock, agents) {
    agents.Attach(run);
  }

  const Cluster cluster{Spec()};
  const Workload w = Jobs();
  Engine engine;
  EngineClock clock{engine};
  SimulatedAgents agents{cluster, engine};
  LiveRun run;
};

// A reducer fetching from a host that is lost is cancelled and launched again on the same host
// (attempt 1); the end of its first attempt, reported as the second computes, is late news: the
// second attempt still computes its whole second.
TEST(LiveRunAttempts, TheEndOfACancelledAttemptIsToldApart) {
  OneJobRun one(LiveRunConfig{.seed = 3});
  Engine& engine = one.engine;
  SimulatedAgents& agents = one.agents;
  LiveRun& run = one.run;
  agents.stale_reports = true;
  const int32_t lose = engine.AddKind(
      [&](int64_t host) { EXPECT_EQ(run.LoseHost(ServerId{static_cast<int32_t>(host)}), ""); });
  std::vector<std::pair<TaskId, int>> launches;
  agents.on_launch = [&](ServerId host, const Launch& l) {
    launches.emplace_back(l.task, l.attempt);
    // The reducer's first launch, on server 0, fetching from server 1: server 1 is lost.
    if (l.task == TaskId{2} && l.attempt == 0) {
      EXPECT_EQ(host, ServerId{0});
      engine.Schedule(engine.now() + 0.1, lose, 1);
    }
  };
  run.Begin();
  EXPECT_TRUE(engine.Run(agents.Process(), [&] { agents.Settle(); }));
  EXPECT_EQ(run.unfinished_jobs(), 0);
  EXPECT_EQ(launches.back(), std::make_pair(TaskId{2}, 1));
  const RunResult r = run.Collect(0);
  ASSERT_EQ(r.tasks.size(), 3U);
  EXPECT_EQ(r.tasks[2].server, 0);
  EXPECT_DOUBLE_EQ(r.tasks[2].finish - r.tasks[2].read_done, 1);  // not cut short
  EXPECT_EQ(r.summary.tasks_rerun, 2);  // the map whose output was lost, and the reducer
}

// The journal records a task when it completes and forgets it when a lost host takes its output:
// a master started after the loss would run that map again, not take its output as there.
TEST(LiveRunJournal, ALostHostsOutputsLeaveTheJournal) {
  const std::filesystem::path file = std::filesystem::path(::testing::TempDir()) /
                                     ("slotflow_live_run_journal_" + std::to_string(getpid()));
  std::filesystem::remove(file);
  OneJobRun one(LiveRunConfig{.seed = 3, .journal = file.string()});
  Engine& engine = one.engine;
  SimulatedAgents& agents = one.agents;
  LiveRun& run = one.run;
  const Workload& w = one.w;
  // What the journal records, as "stage/index@server", read from the file.
  auto recorded = [&] {
    const Journal journal(file.string(), w, 3);
    std::vector<std::string> tasks;
    for (const JournaledTask& t : journal.completed_tasks()) {
      tasks.push_back(fmt::format("{}/{}@{}", t.stage, t.index, t.done.server));
    }
    return tasks;
  };
  std::vector<std::vector<std::string>> seen;  // before and after the loss
  const int32_t lose = engine.AddKind([&](int64_t host) {
    seen.push_back(recorded());
    EXPECT_EQ(run.LoseHost(ServerId{static_cast<int32_t>(host)}), "");
    seen.push_back(recorded());
  });
  agents.on_launch = [&](ServerId, const Launch& l) {
    if (l.task == TaskId{2} && l.attempt == 0) engine.Schedule(engine.now() + 0.1, lose, 1);
  };
  run.Begin();
  EXPECT_TRUE(engine.Run(agents.Process(), [&] { agents.Settle(); }));
  EXPECT_EQ(run.unfinished_jobs(), 0);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], (std::vector<std::string>{"0/0@0", "0/1@1"}));
  EXPECT_EQ(seen[1], std::vector<std::string>{"0/0@0"});
  EXPECT_TRUE(recorded().empty());  // the job's record replaced its tasks'
  EXPECT_EQ(Journal(file.string(), w, 3).completed().size(), 1u);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace slotflow::testing
