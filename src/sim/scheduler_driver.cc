#include "sim/scheduler_driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "api/random.h"
#include "sim/results.h"

namespace slotflow {
namespace {

// The slot mode of a scheduler that reports none (Duopoly §3.3): slot-insufficient iff the
// highest-priority active job under SJF (smallest estimated size, the first submitted among
// equals) has more ready tasks than there are free slots. The mode belongs to the cluster's
// slots and the job order, not to the placement, so cans switches under any scheduler.
SlotMode SjfSlotMode(const SimState& state) {
  JobIndex l0{-1};
  for (JobIndex j : state.active_jobs()) {
    if (l0 < 0 || state.job(j).size_estimate < state.job(l0).size_estimate) l0 = j;
  }
  const bool insufficient =
      l0 >= 0 && state.job(l0).ready.size() > static_cast<size_t>(state.free_slots());
  return insufficient ? SlotMode::kInsufficient : SlotMode::kSufficient;
}

}  // namespace

SchedulerDriver::SchedulerDriver(const Cluster& cluster, SimState& state, TaskLifecycle& lifecycle,
                                 std::unique_ptr<TaskScheduler> scheduler,
                                 std::function<void(SlotMode)> set_slot_mode, EventLog* log)
    : cluster_(cluster),
      state_(state),
      lifecycle_(lifecycle),
      scheduler_(std::move(scheduler)),
      set_slot_mode_(std::move(set_slot_mode)),
      log_(log) {}

SchedulerDriver::~SchedulerDriver() = default;

std::vector<JobIndex> SchedulerDriver::AddJobs(const Workload& workload, uint64_t seed,
                                               double estimate_error) {
  Rng rng(seed);
  std::vector<JobIndex> jobs;
  jobs.reserve(workload.jobs.size());
  for (const JobSpec& spec : workload.jobs) {
    // The estimate error is drawn before the job's replicas (the order fixes the outputs).
    const double error =
        estimate_error > 0 ? rng.Uniform(1 - estimate_error, 1 + estimate_error) : 1.0;
    jobs.push_back(lifecycle_.AddJob(spec, &rng, error));
  }
  return jobs;
}

void SchedulerDriver::Start(DriverClock& clock, const Workload& workload,
                            const std::vector<JobIndex>& jobs,
                            const std::function<bool(JobIndex)>& arrive) {
  clock_ = &clock;
  std::vector<Seconds> times;
  std::vector<JobIndex> arriving;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!arrive(jobs[i])) continue;
    times.push_back(workload.jobs[i].submit);
    arriving.push_back(jobs[i]);
  }
  clock.AtEach(std::move(times), [this, arriving = std::move(arriving)](int64_t i) {
    lifecycle_.Arrive(arriving[i]);
  });
  if (workload.jobs.empty()) return;
  const Seconds origin = workload.jobs.front().submit;
  auto more = [this] { return lifecycle_.unfinished_jobs() > 0; };
  if (const Seconds tick = scheduler_->tick_interval(); tick > 0) {
    clock.Every(
        origin, tick,
        [this] {
          const Why changed = scheduler_->OnTick(state_);
          if (log_ != nullptr && !changed.empty()) {
            log_->Line(clock_->now(), "tick").Reasons(changed);
          }
          lifecycle_.schedule_needed = true;
        },
        more);
  }
  if (const Seconds beat = scheduler_->server_heartbeat(); beat > 0) {
    for (const Server& sv : cluster_.servers()) {
      const ServerId s = sv.id;
      const Seconds offset = beat * static_cast<double>(s) / cluster_.size();
      clock.Every(
          origin + offset, beat, [this, s] { OfferServer(s); }, more);
    }
  }
}

void SchedulerDriver::OfferServer(ServerId s) {
  int placed = 0;
  while (state_.server(s).free_slots > 0 && state_.ready_tasks() > 0) {
    const Decision d = scheduler_->Offer(state_, s);
    if (!d) {
      ++reservations_;
      if (log_ != nullptr) LogReserve(d, s);
      break;
    }
    if (d.server != kNoServer && d.server != s) {
      throw std::logic_error(
          fmt::format("scheduler answered an offer of server {} with server {}", s, d.server));
    }
    lifecycle_.Place(d.task, s, d.why);
    placements_.push_back(d.task);
    ++placed;
  }
  if (log_ != nullptr && placed > 0) {
    log_->Line(clock_->now(), "heartbeat").Int("server", s).Int("placed", placed);
  }
}

void SchedulerDriver::SettleScheduler() {
  if (!lifecycle_.schedule_needed) return;
  lifecycle_.schedule_needed = false;
  if (scheduler_->server_heartbeat() <= 0) {
    while (state_.free_slots() > 0 && state_.ready_tasks() > 0) {
      const Decision d = scheduler_->Next(state_);
      if (!d) {
        ++reservations_;  // free slots left empty on purpose while tasks wait
        if (log_ != nullptr) LogReserve(d, kNoServer);
        break;
      }
      lifecycle_.Place(d.task, d.server, d.why);
      placements_.push_back(d.task);
    }
  }
  const std::optional<SlotMode> reported = scheduler_->mode(state_);
  const SlotMode mode = reported ? *reported : SjfSlotMode(state_);
  if (mode_ != mode) {
    const Seconds now = clock_->now();
    if (mode_) mode_seconds_[static_cast<int>(*mode_)] += now - mode_since_;
    mode_ = mode;
    mode_since_ = now;
    mode_log_.push_back({now, mode});
  }
  set_slot_mode_(mode);
}

// Free slots left empty while tasks are ready: on purpose (the scheduler said nothing). A
// reservation that only repeats the previous line (nothing else logged since, same counts and
// reasons, as at every tick of a periodic trigger) is not written again.
void SchedulerDriver::LogReserve(const Decision& d, ServerId server) {
  EventLog& log = *log_;
  const int free = server != kNoServer ? state_.server(server).free_slots : state_.free_slots();
  std::string key = fmt::format("{} {} {}", server, free, state_.ready_tasks());
  for (const Why::Value& v : d.why) {
    key += v.text != nullptr ? fmt::format(" {}={}", v.name, v.text)
                             : fmt::format(" {}={}", v.name, v.number);
  }
  if (log.lines() == last_reserve_line_ && key == last_reserve_) return;
  LogLine line = log.Line(clock_->now(), "reserve");
  if (server != kNoServer) line.Int("server", server);
  line.Int("free_slots", free).Int("ready_tasks", state_.ready_tasks()).Reasons(d.why);
  last_reserve_ = std::move(key);
  last_reserve_line_ = log.lines();
}

void SchedulerDriver::AddSummary(RunSummary& s, Seconds makespan) const {
  s.reservations = reservations_;
  scheduler_->AddStats(s.scheduler_stats);
  if (!mode_) return;
  double seconds[2] = {mode_seconds_[0], mode_seconds_[1]};
  seconds[static_cast<int>(*mode_)] += std::max(0.0, makespan - mode_since_);
  const double total = seconds[0] + seconds[1];
  s.scheduler_stats.emplace_back("sufficient_s", seconds[0]);
  s.scheduler_stats.emplace_back("insufficient_s", seconds[1]);
  s.scheduler_stats.emplace_back("insufficient_share", total > 0 ? seconds[1] / total : 0.0);
  // The first entry is the mode at the first decision, each later one a switch.
  s.scheduler_stats.emplace_back("mode_switches", static_cast<double>(mode_log_.size() - 1));
}

RunSummary SummarizeRun(const std::vector<JobResult>& jobs, const Cluster& cluster,
                        const SimState& state, const TaskLifecycle& lifecycle,
                        const FlowView& network, const SchedulerDriver& driver) {
  Seconds makespan = 0;
  for (const JobResult& jr : jobs) makespan = std::max(makespan, jr.finish);
  RunSummary s = Summarize(jobs);
  s.unfinished_jobs = lifecycle.unfinished_jobs();
  s.makespan = makespan;
  s.locality = ReadLocality(state);
  const double slot_capacity = static_cast<double>(cluster.TotalSlots()) * makespan;
  s.slot_utilisation = slot_capacity > 0 && std::isfinite(slot_capacity)
                           ? lifecycle.busy_slot_seconds() / slot_capacity
                           : 0;
  const Bytes net = network.StartedNetworkBytes();
  s.network_bytes = net;
  s.flows = network.FlowCount();
  BytesPerSecond down = 0;
  for (const Server& sv : cluster.servers()) down += cluster.LinkCapacity(cluster.Downlink(sv.id));
  s.downlink_utilisation = makespan > 0 ? net / (down * makespan) : 0;
  driver.AddSummary(s, makespan);
  return s;
}

}  // namespace slotflow
