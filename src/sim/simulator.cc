#include "sim/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "common/random.h"
#include "sim/invariants.h"
#include "sim/results.h"

namespace slotflow {

Simulator::Simulator(const Cluster& cluster, const Workload& workload,
                     std::unique_ptr<TaskScheduler> scheduler,
                     std::unique_ptr<NetworkPolicy> network_policy, const SimulationConfig& config)
    : cluster_(cluster),
      config_(config),
      scheduler_(std::move(scheduler)),
      network_(cluster, std::move(network_policy), engine_.clock()),
      state_(cluster, network_),
      lifecycle_(cluster, network_, engine_, state_) {
  lifecycle_.log = config_.log;
  network_.SetLog(config_.log);
  Build(workload);
}

Simulator::~Simulator() = default;

void Simulator::Build(const Workload& workload) {
  Rng rng(config_.seed);
  const int32_t arrival =
      engine_.AddKind([this](int64_t j) { lifecycle_.Arrive(static_cast<JobIndex>(j)); });
  for (const JobSpec& spec : workload.jobs) {
    // The estimate error is drawn before the job's replicas (the order fixes the outputs).
    const double error = config_.estimate_error > 0
                             ? rng.Uniform(1 - config_.estimate_error, 1 + config_.estimate_error)
                             : 1.0;
    engine_.Schedule(spec.submit, arrival, lifecycle_.AddJob(spec, &rng, error));
  }
  if (!workload.jobs.empty()) ScheduleTriggers(workload.jobs.front().submit);
}

// The scheduler's periodic triggers start with the first job and stop once every job is done.
void Simulator::ScheduleTriggers(Seconds origin) {
  auto more = [this] { return lifecycle_.unfinished_jobs() > 0; };
  if (const Seconds tick = scheduler_->tick_interval(); tick > 0) {
    const int32_t kind = engine_.AddKind([this](int64_t) {
      const Why changed = scheduler_->OnTick(state_);
      if (config_.log != nullptr && !changed.empty()) {
        config_.log->Line(engine_.now(), "tick").Reasons(changed);
      }
      lifecycle_.schedule_needed = true;
    });
    engine_.SchedulePeriodic(origin, tick, kind, more);
  }
  if (const Seconds beat = scheduler_->server_heartbeat(); beat > 0) {
    for (const Server& sv : cluster_.servers()) {
      const ServerId s = sv.id;
      const int32_t server_kind = engine_.AddKind([this, s](int64_t) { OfferServer(s); });
      const Seconds offset = beat * static_cast<double>(s) / cluster_.size();
      engine_.SchedulePeriodic(origin + offset, beat, server_kind, more);
    }
  }
}

void Simulator::OfferServer(ServerId s) {
  int placed = 0;
  while (state_.server(s).free_slots > 0 && state_.ready_tasks() > 0) {
    const Decision d = scheduler_->Offer(state_, s);
    if (!d) {
      ++reservations_;
      if (config_.log != nullptr) LogReserve(d, s);
      break;
    }
    if (d.server != kNoServer && d.server != s) {
      throw std::logic_error(
          fmt::format("scheduler answered an offer of server {} with server {}", s, d.server));
    }
    lifecycle_.Place(d.task, s, d.why);
    ++placed;
  }
  if (config_.log != nullptr && placed > 0) {
    config_.log->Line(engine_.now(), "heartbeat").Int("server", s).Int("placed", placed);
  }
}

void Simulator::RunScheduler() {
  if (!lifecycle_.schedule_needed) return;
  lifecycle_.schedule_needed = false;
  if (scheduler_->server_heartbeat() <= 0) {
    while (state_.free_slots() > 0 && state_.ready_tasks() > 0) {
      const Decision d = scheduler_->Next(state_);
      if (!d) {
        ++reservations_;  // free slots left empty on purpose while tasks wait
        if (config_.log != nullptr) LogReserve(d, kNoServer);
        break;
      }
      lifecycle_.Place(d.task, d.server, d.why);
    }
  }
  if (auto mode = scheduler_->mode(state_)) {
    if (mode_ != mode) {
      if (mode_) {
        mode_seconds_[static_cast<int>(*mode_)] += engine_.now() - mode_since_;
        ++mode_switches_;
      }
      mode_ = mode;
      mode_since_ = engine_.now();
    }
    network_.SetSlotMode(*mode);
  }
}

// Free slots left empty while tasks are ready: on purpose (the scheduler said nothing). A
// reservation that only repeats the previous line (nothing else logged since, same counts and
// reasons, as at every tick of a periodic trigger) is not written again.
void Simulator::LogReserve(const Decision& d, ServerId server) {
  EventLog& log = *config_.log;
  const int free = server != kNoServer ? state_.server(server).free_slots : state_.free_slots();
  std::string key = fmt::format("{} {} {}", server, free, state_.ready_tasks());
  for (const Why::Value& v : d.why) {
    key += v.text != nullptr ? fmt::format(" {}={}", v.name, v.text)
                             : fmt::format(" {}={}", v.name, v.number);
  }
  if (log.lines() == last_reserve_line_ && key == last_reserve_) return;
  LogLine line = log.Line(engine_.now(), "reserve");
  if (server != kNoServer) line.Int("server", server);
  line.Int("free_slots", free).Int("ready_tasks", state_.ready_tasks()).Reasons(d.why);
  last_reserve_ = std::move(key);
  last_reserve_line_ = log.lines();
}

void Simulator::Settle() {
  RunScheduler();
  network_.Resolve();
}

RunResult Simulator::Run() {
  const auto wall_start = std::chrono::steady_clock::now();
  auto last_progress = wall_start;
  bool shown_progress = false;
  const ContinuousProcess fluid{[this] { return network_.NextEventTime(); },
                                [this](Seconds t) {
                                  completed_.clear();
                                  network_.AdvanceTo(t, completed_);
                                  for (FlowId f : completed_) lifecycle_.OnFlowDone(f);
                                }};
  lifecycle_.check_inputs = config_.check;
  time_limit_hit_ = !engine_.Run(fluid, [&] {
    Settle();
    if (config_.collect_utilisation) SampleUtilisation();
    if (config_.check) CheckInvariants(cluster_, state_, network_, completed_);
    if (config_.progress != ProgressStyle::kOff && (engine_.steps() & 0x3fff) == 0) {
      const auto now = std::chrono::steady_clock::now();
      const bool line = config_.progress == ProgressStyle::kLine;
      if (now - last_progress > std::chrono::seconds(line ? 1 : 5)) {
        last_progress = now;
        std::fprintf(
            stderr, "%sslotflow: t=%.1fs  jobs done %zu/%zu  active flows %zu  events %lld%s",
            line ? "\r" : "", engine_.now(), state_.jobs().size() - lifecycle_.unfinished_jobs(),
            state_.jobs().size(), network_.active_flows().size(),
            static_cast<long long>(engine_.steps()), line ? "   " : "\n");
        shown_progress = true;
      }
    }
  });
  if (config_.progress == ProgressStyle::kLine && shown_progress) std::fprintf(stderr, "\n");
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return Collect(wall);
}

// A row per server whose utilisation differs from its last row (rates settle only at steps).
void Simulator::SampleUtilisation() {
  last_sample_.resize(cluster_.size(), -1);
  for (ServerId s = 0; s < cluster_.size(); ++s) {
    const SimState::Utilisation u = state_.ServerUtilisation(s);
    const UtilisationSample now{engine_.now(), s, u.cpu, u.memory, u.disk, u.uplink, u.downlink};
    if (last_sample_[s] >= 0) {
      const UtilisationSample& was = utilisation_[last_sample_[s]];
      if (was.cpu == now.cpu && was.memory == now.memory && was.disk == now.disk &&
          was.uplink == now.uplink && was.downlink == now.downlink) {
        continue;
      }
      if (was.t == now.t) {  // changed again within one instant: keep the last values
        utilisation_[last_sample_[s]] = now;
        continue;
      }
    }
    last_sample_[s] = static_cast<int64_t>(utilisation_.size());
    utilisation_.push_back(now);
  }
}

RunResult Simulator::Collect(double wall_s) {
  RunResult r;
  r.jobs = FinishedJobResults(state_);
  Seconds makespan = 0;
  for (const JobResult& jr : r.jobs) makespan = std::max(makespan, jr.finish);
  r.summary = Summarize(r.jobs);
  RunSummary& s = r.summary;
  s.unfinished_jobs = lifecycle_.unfinished_jobs();
  s.time_limit_hit = time_limit_hit_;
  s.makespan = makespan;
  s.locality = ReadLocality(state_);
  const double slot_capacity = static_cast<double>(cluster_.TotalSlots()) * makespan;
  s.slot_utilisation = slot_capacity > 0 && std::isfinite(slot_capacity)
                           ? lifecycle_.busy_slot_seconds() / slot_capacity
                           : 0;
  Bytes net = 0;
  for (FlowId f = 0; f < network_.FlowCount(); ++f) {
    const FlowSpec& fs = network_.flow(f).spec;
    if (fs.src != fs.dst) net += fs.size;
  }
  s.network_bytes = net;
  s.flows = network_.FlowCount();
  BytesPerSecond down = 0;
  for (const Server& sv : cluster_.servers())
    down += cluster_.LinkCapacity(cluster_.Downlink(sv.id));
  s.downlink_utilisation = makespan > 0 ? net / (down * makespan) : 0;
  s.reservations = reservations_;
  scheduler_->AddStats(s.scheduler_stats);
  if (mode_) {
    double seconds[2] = {mode_seconds_[0], mode_seconds_[1]};
    seconds[static_cast<int>(*mode_)] += std::max(0.0, makespan - mode_since_);
    const double total = seconds[0] + seconds[1];
    s.scheduler_stats.emplace_back("sufficient_s", seconds[0]);
    s.scheduler_stats.emplace_back("insufficient_s", seconds[1]);
    s.scheduler_stats.emplace_back("insufficient_share", total > 0 ? seconds[1] / total : 0.0);
    s.scheduler_stats.emplace_back("mode_switches", static_cast<double>(mode_switches_));
  }
  s.events = engine_.steps();
  s.wall_s = wall_s;
  if (config_.collect_tasks) r.tasks = TaskResults(state_);
  r.utilisation = std::move(utilisation_);
  return r;
}

}  // namespace slotflow
