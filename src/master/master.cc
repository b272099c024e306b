#include "master/master.h"

#include <fmt/format.h>

#include <algorithm>
#include <asio.hpp>
#include <chrono>
#include <csignal>
#include <optional>
#include <stdexcept>

#include "common/error.h"
#include "common/random.h"
#include "live/line_channel.h"
#include "live/testbed_plan.h"
#include "master/journal.h"
#include "master/live_flows.h"
#include "sim/lifecycle.h"
#include "sim/results.h"
#include "sim/state.h"

namespace slotflow {

using asio::ip::tcp;
using WallClock = std::chrono::steady_clock;

namespace {

WallClock::duration ToDuration(Seconds s) {
  return std::chrono::duration_cast<WallClock::duration>(std::chrono::duration<double>(s));
}

}  // namespace

struct Master::Impl {
  Impl(const Cluster& c, std::unique_ptr<TaskScheduler> s, std::unique_ptr<NetworkPolicy> n,
       const MasterConfig& cfg)
      : cluster(c),
        config(cfg),
        scheduler(std::move(s)),
        flows(c, std::move(n), [this] { return Now(); }),
        state(c, flows),
        lifecycle(c, flows, state),
        acceptor(io),
        join_timer(io),
        arrival_timer(io),
        tick_timer(io),
        reclassify_timer(io),
        deadline_timer(io),
        signals(io),
        agents(c.size()),
        agent_address(c.size()),
        data_port(c.size(), 0) {}

  // The time of the event being handled: read once per event, so that all it causes happens
  // at one instant, as in the simulator.
  Seconds Now() const { return now; }
  void Advance() {
    if (started)
      now = std::max(now, std::chrono::duration<double>(WallClock::now() - start).count());
  }
  void Listen();
  void Accept();
  void OnHello(const std::shared_ptr<LineChannel>& channel, const Hello& h);
  void OnAgentMessage(int host, const ControlMessage& m);
  void OnReport(int host, const ControlMessage& m);
  void ArmSilence(int host);
  void OnFetchFailed(int host, const FetchFailed& f);
  void LoseAgent(int host, const std::string& why);
  void OpenJournal();
  void RecordCompleted();
  void Begin();
  void ScheduleArrival();
  void ScheduleTick(int64_t k);
  void ScheduleBeat(ServerId s, int64_t k);
  void OfferServer(ServerId s);
  void Settle();
  void RunScheduler();
  void LaunchPlaced();
  void RankClasses();
  void SendClassChanges();
  void ScheduleReclassify();
  void Abort(const std::string& why);
  void End();
  RunResult Collect() const;

  const Cluster& cluster;
  MasterConfig config;
  std::unique_ptr<TaskScheduler> scheduler;
  LiveFlows flows;
  SimState state;
  TaskLifecycle lifecycle;
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer join_timer, arrival_timer, tick_timer, reclassify_timer, deadline_timer;
  asio::signal_set signals;  // SIGINT and SIGTERM end the run as a failure, cleanly
  std::vector<std::unique_ptr<asio::steady_timer>> beat_timers;  // per server
  std::vector<std::unique_ptr<asio::steady_timer>> silence;      // per host: agent_timeout
  std::vector<std::shared_ptr<asio::steady_timer>> fetch_grace;  // one per failed fetch
  std::vector<int> lost_hosts;
  std::unique_ptr<Journal> journal;
  std::vector<char> journaled;  // per job: recorded in the journal (this run or an earlier one)
  int jobs_from_journal = 0;
  std::vector<char> rerun;                           // per task: a lost host undid some run of it
  std::vector<std::shared_ptr<LineChannel>> agents;  // by host
  std::vector<std::string> agent_address;
  std::vector<uint16_t> data_port;
  std::vector<std::pair<Seconds, JobIndex>> arrivals;  // by submit time
  size_t next_arrival = 0;
  std::vector<char> launched;  // per task
  FlowId launched_flows = 0;   // flows below this one have been sent to their agents
  std::vector<int> rank;       // per flow: its class's rank among the flows in flight
  std::vector<int> marked;     // per flow: the rank its sockets were last told
  int joined = 0;
  bool started = false, ended = false;
  Seconds now = 0;
  WallClock::time_point start, run_start;
  std::string error;
  int64_t reservations = 0, messages = 0;
  // The scheduler's slot mode, since when, the time spent in each and the switches.
  std::optional<SlotMode> mode;
  Seconds mode_since = 0;
  double mode_seconds[2] = {0, 0};
  int64_t mode_switches = 0;
};

Master::Master(const Cluster& cluster, const Workload& workload,
               std::unique_ptr<TaskScheduler> scheduler,
               std::unique_ptr<NetworkPolicy> network_policy, const MasterConfig& config)
    : impl_(std::make_unique<Impl>(cluster, std::move(scheduler), std::move(network_policy),
                                   config)) {
  Impl& m = *impl_;
  if (cluster.HasDisks()) {
    throw InputError("", 0, "--disk", "live mode does not model disks; leave --disk out");
  }
  // Random numbers drawn in the simulator's order (Simulator::Build), so a seed places the same
  // replicas and makes the same estimate errors.
  Rng rng(config.seed);
  for (const JobSpec& spec : workload.jobs) {
    const double error = config.estimate_error > 0
                             ? rng.Uniform(1 - config.estimate_error, 1 + config.estimate_error)
                             : 1.0;
    m.arrivals.emplace_back(spec.submit, m.lifecycle.AddJob(spec, &rng, error));
  }
  std::stable_sort(m.arrivals.begin(), m.arrivals.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t tasks = 0;
  for (const JobRuntime& job : m.state.jobs()) {
    for (const StageRuntime& sr : job.stages) tasks += static_cast<size_t>(sr.task_count);
  }
  m.launched.assign(tasks, 0);
  m.OpenJournal();
  m.rerun.assign(tasks, 0);
  for (ServerId s = 0; s < cluster.size(); ++s) {
    m.silence.push_back(std::make_unique<asio::steady_timer>(m.io));
  }
  m.Listen();
}

Master::~Master() = default;

uint16_t Master::port() const { return impl_->acceptor.local_endpoint().port(); }

// Jobs the journal records as completed never arrive: they count as done.
void Master::Impl::OpenJournal() {
  journaled.assign(state.jobs().size(), 0);
  if (config.journal.empty()) return;
  std::vector<std::string> names;
  for (const JobRuntime& job : state.jobs()) names.push_back(job.spec->name);
  journal = std::make_unique<Journal>(config.journal, names);
  for (const auto& [j, result] : journal->completed()) {
    lifecycle.Skip(j);
    journaled[j] = 1;
    ++jobs_from_journal;
  }
  std::erase_if(arrivals, [this](const auto& a) { return journaled[a.second] != 0; });
}

void Master::Impl::RecordCompleted() {
  if (!journal) return;
  for (const JobRuntime& job : state.jobs()) {
    if (!job.finished || journaled[job.index]) continue;
    journal->Record(job.index, JobResultOf(job));
    journaled[job.index] = 1;
  }
}

void Master::Impl::Listen() {
  std::error_code ec;
  const auto address = asio::ip::make_address(config.listen_address, ec);
  if (ec) throw InputError("the master's address is not IPv4: " + config.listen_address);
  const tcp::endpoint at(address, config.port);
  acceptor.open(at.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(at, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw InputError(fmt::format("the master cannot listen on {}:{}: {}", config.listen_address,
                                 config.port, ec.message()));
  }
}

RunResult Master::Run() {
  Impl& m = *impl_;
  m.run_start = WallClock::now();
  m.deadline_timer.expires_after(ToDuration(m.config.deadline));
  m.deadline_timer.async_wait([&m](std::error_code e) {
    if (e) return;
    m.Abort(m.started ? fmt::format("the deadline of {:g} s passed with {} of {} jobs unfinished",
                                    m.config.deadline, m.lifecycle.unfinished_jobs(),
                                    m.state.jobs().size())
                      : fmt::format("the deadline of {:g} s passed before every agent joined",
                                    m.config.deadline));
  });
  m.join_timer.expires_after(ToDuration(m.config.join_timeout));
  m.join_timer.async_wait([&m](std::error_code e) {
    if (e || m.started) return;
    m.Abort(fmt::format("only {} of {} agents said hello within {:g} s", m.joined, m.cluster.size(),
                        m.config.join_timeout));
  });
  m.signals.add(SIGINT);
  m.signals.add(SIGTERM);
  m.signals.async_wait([&m](std::error_code e, int signal) {
    if (!e) m.Abort(fmt::format("interrupted by signal {}", signal));
  });
  m.Accept();
  m.io.run();
  m.signals.clear();
  if (!m.error.empty()) throw LiveRunError(m.error);
  return m.Collect();
}

void Master::Impl::Accept() {
  acceptor.async_accept([this](std::error_code e, tcp::socket socket) {
    if (ended || !acceptor.is_open()) return;  // closed once every agent has joined
    if (e) {
      Accept();
      return;
    }
    socket.set_option(tcp::no_delay(true));
    MarkSocket(socket.native_handle(), ControlTos());
    auto channel = std::make_shared<LineChannel>(std::move(socket));
    std::weak_ptr<LineChannel> weak = channel;
    channel->Start(
        [this, weak](const ControlMessage& m) {
          const auto h = std::get_if<Hello>(&m);
          if (h == nullptr) {
            Abort(fmt::format("an agent sent {} before hello", MessageType(m)));
            return;
          }
          if (auto c = weak.lock()) OnHello(c, *h);
        },
        [this](const std::string& why) {
          if (!why.empty()) Abort("an agent's connection failed before hello: " + why);
        });
    Accept();
  });
}

void Master::Impl::OnHello(const std::shared_ptr<LineChannel>& channel, const Hello& h) {
  if (h.host < 0 || h.host >= cluster.size()) {
    Abort(fmt::format("an agent says it is host {}, but the cluster has hosts 0..{}", h.host,
                      cluster.size() - 1));
    return;
  }
  if (agents[h.host]) {
    Abort(fmt::format("two agents say they are host {}", h.host));
    return;
  }
  std::error_code ec;
  agent_address[h.host] = channel->socket().remote_endpoint(ec).address().to_string();
  data_port[h.host] = h.data_port;
  agents[h.host] = channel;
  // From now on this channel's messages are host h's.
  channel->Rebind([this, host = h.host](const ControlMessage& m) { OnAgentMessage(host, m); },
                  [this, host = h.host](const std::string& why) {
                    if (ended) return;
                    const std::string what =
                        fmt::format("its connection closed{}", why.empty() ? "" : ": " + why);
                    if (started) return LoseAgent(host, what);
                    Abort(fmt::format("agent {} went away before the run began: {}", host, what));
                  });
  ArmSilence(h.host);
  if (++joined == cluster.size()) Begin();
}

void Master::Impl::Begin() {
  std::error_code ignored;
  acceptor.close(ignored);
  join_timer.cancel();
  started = true;
  start = WallClock::now();
  ScheduleArrival();
  if (scheduler->tick_interval() > 0) ScheduleTick(0);
  if (scheduler->server_heartbeat() > 0) {
    for (ServerId s = 0; s < cluster.size(); ++s) {
      beat_timers.push_back(std::make_unique<asio::steady_timer>(io));
      ScheduleBeat(s, 0);
    }
  }
  Settle();
}

void Master::Impl::ScheduleArrival() {
  if (next_arrival >= arrivals.size()) return;
  arrival_timer.expires_at(start + ToDuration(arrivals[next_arrival].first));
  arrival_timer.async_wait([this](std::error_code e) {
    if (e || ended) return;
    Advance();
    while (next_arrival < arrivals.size() && arrivals[next_arrival].first <= Now()) {
      lifecycle.Arrive(arrivals[next_arrival++].second);
    }
    Settle();
    ScheduleArrival();
  });
}

// As in the simulator: from the first submission, at origin + k · interval, while jobs remain.
void Master::Impl::ScheduleTick(int64_t k) {
  const Seconds origin = arrivals.empty() ? 0 : arrivals.front().first;
  tick_timer.expires_at(start + ToDuration(origin + k * scheduler->tick_interval()));
  tick_timer.async_wait([this, k](std::error_code e) {
    if (e || ended) return;
    Advance();
    scheduler->OnTick(state);
    lifecycle.schedule_needed = true;
    Settle();
    if (lifecycle.unfinished_jobs() > 0) ScheduleTick(k + 1);
  });
}

// As in the simulator: server s beats at origin + (s / servers + k) · interval.
void Master::Impl::ScheduleBeat(ServerId s, int64_t k) {
  const Seconds beat = scheduler->server_heartbeat();
  const Seconds origin = (arrivals.empty() ? 0 : arrivals.front().first) +
                         beat * static_cast<double>(s) / cluster.size();
  beat_timers[s]->expires_at(start + ToDuration(origin + k * beat));
  beat_timers[s]->async_wait([this, s, k](std::error_code e) {
    if (e || ended) return;
    Advance();
    OfferServer(s);
    Settle();
    if (lifecycle.unfinished_jobs() > 0) ScheduleBeat(s, k + 1);
  });
}

void Master::Impl::OfferServer(ServerId s) {
  while (state.server(s).free_slots > 0 && state.ready_tasks() > 0) {
    const Decision d = scheduler->Offer(state, s);
    if (!d) {
      ++reservations;
      break;
    }
    if (d.server != kNoServer && d.server != s) {
      throw std::logic_error(
          fmt::format("scheduler answered an offer of server {} with server {}", s, d.server));
    }
    lifecycle.Place(d.task, s, d.why);
  }
}

void Master::Impl::OnAgentMessage(int host, const ControlMessage& m) {
  if (ended || !agents[host]) return;
  ArmSilence(host);
  if (std::holds_alternative<Heartbeat>(m)) return;
  Advance();
  ++messages;
  OnReport(host, m);
  Settle();
}

// Reports for flows cancelled, or tasks undone, by a lost host are late news, not errors.
void Master::Impl::OnReport(int host, const ControlMessage& m) {
  if (const auto* p = std::get_if<FlowProgress>(&m)) {
    if (p->flow >= flows.FlowCount()) return Abort(fmt::format("agent {}: unknown flow", host));
    flows.OnProgress(p->flow, static_cast<Bytes>(p->bytes));
  } else if (const auto* d = std::get_if<FlowDone>(&m)) {
    if (d->flow < flows.FlowCount() && flows.Cancelled(d->flow)) return;
    if (d->flow >= flows.FlowCount() || !flows.Active(d->flow)) {
      return Abort(fmt::format("agent {}: flow {} is not running", host, d->flow));
    }
    flows.OnFinished(d->flow);
    lifecycle.OnFlowDone(d->flow);
  } else if (const auto* t = std::get_if<TaskDone>(&m)) {
    const bool known = t->task >= 0 && t->task < static_cast<TaskId>(launched.size());
    if (!known || state.task(t->task).server != host ||
        state.task(t->task).state != TaskState::kComputing) {
      if (known && rerun[t->task]) return;  // the end of a run that a lost host undid
      return Abort(fmt::format("agent {}: task {} is not computing", host, t->task));
    }
    lifecycle.OnComputeDone(t->task);
  } else if (const auto* ff = std::get_if<FetchFailed>(&m)) {
    OnFetchFailed(host, *ff);
  } else if (const auto* f = std::get_if<AgentFailure>(&m)) {
    Abort(f->text);
  } else {
    Abort(fmt::format("agent {} sent {}, which only the master sends", host, MessageType(m)));
  }
}

void Master::Impl::ArmSilence(int host) {
  asio::steady_timer& t = *silence[host];
  t.expires_after(ToDuration(config.agent_timeout));
  t.async_wait([this, host](std::error_code e) {
    if (e || ended || !agents[host]) return;
    if (!started) {
      return Abort(fmt::format("agent {} was silent for {:g} s before the run began", host,
                               config.agent_timeout));
    }
    LoseAgent(host, fmt::format("silent for {:g} s", config.agent_timeout));
  });
}

// A fetch fails when its source dies, often before the source's own connection is seen to
// close: the source gets agent_timeout to be found lost (which cancels the flow); a flow still
// running then failed for another reason, and ends the run.
void Master::Impl::OnFetchFailed(int host, const FetchFailed& f) {
  if (f.flow < 0 || f.flow >= flows.FlowCount()) {
    return Abort(fmt::format("agent {}: unknown flow {}", host, f.flow));
  }
  if (!flows.Active(f.flow)) return;
  auto timer = std::make_shared<asio::steady_timer>(io, ToDuration(config.agent_timeout));
  fetch_grace.push_back(timer);
  timer->async_wait([this, timer, f](std::error_code e) {
    if (e || ended || !flows.Active(f.flow)) return;
    Abort(fmt::format("{} (its source, agent {}, is still connected)", f.text,
                      flows.flow(f.flow).spec.src));
  });
}

// The host's server is lost to the life cycle; whatever that undid is cancelled on the agents
// still running it, and placed again by the next step.
void Master::Impl::LoseAgent(int host, const std::string& why) {
  if (ended || !agents[host]) return;
  Advance();
  std::shared_ptr<LineChannel> gone = std::move(agents[host]);
  gone->Rebind([](const ControlMessage&) {}, [](const std::string&) {});
  gone->Close();
  silence[host]->cancel();
  lost_hosts.push_back(host);
  const auto loss = lifecycle.LoseServer(host);
  if (!loss.unrecoverable.empty()) {
    return Abort(fmt::format("agent {} was lost ({}), and {}", host, why, loss.unrecoverable));
  }
  if (std::none_of(agents.begin(), agents.end(), [](const auto& a) { return a != nullptr; })) {
    return Abort(
        fmt::format("agent {} was lost ({}): no agent is left to run the {} unfinished "
                    "jobs",
                    host, why, lifecycle.unfinished_jobs()));
  }
  for (FlowId f : loss.cancelled) flows.Cancel(f);
  for (const auto& [t, at] : loss.reset) {
    rerun[t] = 1;
    if (!launched[t]) continue;
    launched[t] = 0;
    if (at != kNoServer && agents[at]) agents[at]->Send(Cancel{t});
  }
  Settle();
}

// The step after every event, as Simulator::Settle: decisions, then the network policy.
void Master::Impl::Settle() {
  if (ended) return;
  RunScheduler();
  flows.Resolve();
  RankClasses();
  LaunchPlaced();
  SendClassChanges();
  ScheduleReclassify();
  RecordCompleted();
  if (lifecycle.unfinished_jobs() == 0) End();
}

void Master::Impl::RunScheduler() {
  // A heartbeat-driven scheduler places only at its servers' beats (ScheduleBeat).
  if (lifecycle.schedule_needed && scheduler->server_heartbeat() <= 0) {
    while (state.free_slots() > 0 && state.ready_tasks() > 0) {
      const Decision d = scheduler->Next(state);
      if (!d) {
        ++reservations;
        break;
      }
      lifecycle.Place(d.task, d.server, d.why);
    }
  }
  lifecycle.schedule_needed = false;
  if (auto now_mode = scheduler->mode(state)) {
    if (mode != now_mode) {
      if (mode) {
        mode_seconds[static_cast<int>(*mode)] += Now() - mode_since;
        ++mode_switches;
      }
      mode = now_mode;
      mode_since = Now();
    }
    flows.SetSlotMode(*now_mode);
  }
}

// A policy's classes are any numbers, each its own strict priority (Aalo's encode queue, then
// arrival). The testbed has 7 for data: the distinct classes of the flows in flight, in order,
// take ranks 0..6 (the seventh class and beyond share rank 6), which keeps the order the fluid
// model gives them as far as 7 priorities can. Live class r is priority r + 1 (TosOfClass).
void Master::Impl::RankClasses() {
  constexpr int kLastRank = kPriorityClasses - 2;
  std::vector<FlowClass> in_use;
  for (FlowId f : flows.active_flows()) in_use.push_back(flows.Class(f));
  std::sort(in_use.begin(), in_use.end());
  in_use.erase(std::unique(in_use.begin(), in_use.end()), in_use.end());
  rank.resize(flows.FlowCount(), kLastRank);
  marked.resize(flows.FlowCount(), -1);
  for (FlowId f : flows.active_flows()) {
    const auto at = std::lower_bound(in_use.begin(), in_use.end(), flows.Class(f));
    rank[f] = static_cast<int>(std::min<ptrdiff_t>(at - in_use.begin(), kLastRank));
  }
}

// Every task placed since the last step goes to its host: its local block, the flows into it
// (each from its source host's data server, in its class's rank) and its compute.
void Master::Impl::LaunchPlaced() {
  std::vector<std::vector<Fetch>> fetches(launched.size());
  // Flows start only when a task is placed, so the flows since the last step are the new ones.
  for (FlowId f = launched_flows; f < flows.FlowCount(); ++f) {
    const FlowSpec& fs = flows.flow(f).spec;
    fetches[fs.macroflow].push_back(
        Fetch{f, agent_address[fs.src], data_port[fs.src], static_cast<int64_t>(fs.size), rank[f]});
    marked[f] = rank[f];
  }
  launched_flows = flows.FlowCount();
  for (JobIndex j : state.active_jobs()) {
    for (const StageRuntime& sr : state.job(j).stages) {
      for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
        const TaskRuntime& task = state.task(t);
        if (launched[t] || task.server == kNoServer) continue;
        launched[t] = 1;
        Launch l{t, 0, lifecycle.ComputeSeconds(t), std::move(fetches[t])};
        if (task.root && task.local_read) l.local_bytes = static_cast<int64_t>(task.spec->input);
        if (agents[task.server]) agents[task.server]->Send(l);
      }
    }
  }
}

// A flow whose rank moved (its class changed, or classes above it came or went) is re-marked at
// both ends.
void Master::Impl::SendClassChanges() {
  for (FlowId f : flows.active_flows()) {
    if (marked[f] == rank[f]) continue;
    marked[f] = rank[f];
    const FlowSpec& fs = flows.flow(f).spec;
    if (agents[fs.src]) agents[fs.src]->Send(SetClass{f, rank[f]});
    if (fs.dst != fs.src && agents[fs.dst]) agents[fs.dst]->Send(SetClass{f, rank[f]});
  }
}

void Master::Impl::ScheduleReclassify() {
  const Seconds at = flows.reclassify_at();
  if (at == kForever) {
    reclassify_timer.cancel();
    return;
  }
  reclassify_timer.expires_at(start + ToDuration(at));
  reclassify_timer.async_wait([this](std::error_code e) {
    if (e || ended) return;
    Advance();
    Settle();
  });
}

void Master::Impl::Abort(const std::string& why) {
  if (ended) return;
  error = why;
  End();
}

void Master::Impl::End() {
  if (ended) return;
  ended = true;
  std::error_code ignored;
  acceptor.close(ignored);
  for (auto* t : {&join_timer, &arrival_timer, &tick_timer, &reclassify_timer, &deadline_timer}) {
    t->cancel();
  }
  for (auto& t : beat_timers) t->cancel();
  for (auto& t : silence) t->cancel();
  for (auto& t : fetch_grace) t->cancel();
  signals.cancel();
  for (auto& a : agents) {
    if (!a) continue;
    a->Send(Stop{});
    a->CloseWhenSent();
  }
}

// As Simulator::Collect, from measured times: makespan, locality, slot use and bytes moved.
RunResult Master::Impl::Collect() const {
  RunResult r;
  for (const JobRuntime& job : state.jobs()) {  // in job order, as FinishedJobResults
    if (job.finished) {
      r.jobs.push_back(JobResultOf(job));
    } else if (journal && journaled[job.index]) {
      r.jobs.push_back(journal->completed().at(job.index));
    }
  }
  r.tasks = TaskResults(state);
  r.summary = Summarize(r.jobs);
  RunSummary& s = r.summary;
  for (const JobResult& jr : r.jobs) s.makespan = std::max(s.makespan, jr.finish);
  s.unfinished_jobs = lifecycle.unfinished_jobs();
  s.locality = ReadLocality(state);
  const double slot_capacity = static_cast<double>(cluster.TotalSlots()) * s.makespan;
  s.slot_utilisation = slot_capacity > 0 ? lifecycle.busy_slot_seconds() / slot_capacity : 0;
  for (FlowId f = 0; f < flows.FlowCount(); ++f) {
    const FlowSpec& fs = flows.flow(f).spec;
    if (fs.src != fs.dst) s.network_bytes += fs.size;
  }
  s.flows = flows.FlowCount();
  BytesPerSecond down = 0;
  for (const Server& sv : cluster.servers()) down += cluster.LinkCapacity(cluster.Downlink(sv.id));
  s.downlink_utilisation = s.makespan > 0 ? s.network_bytes / (down * s.makespan) : 0;
  s.reservations = reservations;
  scheduler->AddStats(s.scheduler_stats);
  if (mode) {  // as the simulator reports them
    double seconds[2] = {mode_seconds[0], mode_seconds[1]};
    seconds[static_cast<int>(*mode)] += std::max(0.0, s.makespan - mode_since);
    const double total = seconds[0] + seconds[1];
    s.scheduler_stats.emplace_back("sufficient_s", seconds[0]);
    s.scheduler_stats.emplace_back("insufficient_s", seconds[1]);
    s.scheduler_stats.emplace_back("insufficient_share", total > 0 ? seconds[1] / total : 0.0);
    s.scheduler_stats.emplace_back("mode_switches", static_cast<double>(mode_switches));
  }
  s.events = messages;
  s.live = true;
  s.lost_hosts = lost_hosts;
  s.tasks_rerun = lifecycle.tasks_rerun();
  s.jobs_from_journal = jobs_from_journal;
  s.wall_s = std::chrono::duration<double>(WallClock::now() - run_start).count();
  return r;
}

}  // namespace slotflow
