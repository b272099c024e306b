#include "sim/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "sim/invariants.h"
#include "sim/results.h"

namespace slotflow {

Simulator::Simulator(const Cluster& cluster, const Workload& workload,
                     std::unique_ptr<TaskScheduler> scheduler,
                     std::unique_ptr<NetworkPolicy> network_policy, const SimulationConfig& config)
    : cluster_(cluster),
      config_(config),
      network_(cluster, std::move(network_policy), engine_.clock()),
      state_(cluster, network_),
      lifecycle_(cluster, network_, engine_, state_),
      driver_(
          cluster, state_, lifecycle_, std::move(scheduler),
          [this](SlotMode mode) { network_.SetSlotMode(mode); }, config.log),
      clock_(engine_) {
  lifecycle_.log = config_.log;
  network_.SetLog(config_.log);
  network_.SetTimeStep(config_.time_step);
  network_.KeepFinished(driver_.scheduler().ReadsFinishedFlows());
  const std::vector<JobIndex> jobs =
      driver_.AddJobs(workload, config_.seed, config_.estimate_error);
  driver_.Start(clock_, workload, jobs, [](JobIndex) { return true; });
}

Simulator::~Simulator() = default;

void Simulator::Settle() {
  driver_.SettleScheduler();
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
  for (ServerId s{0}; s < cluster_.size(); ++s) {
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
  r.summary = SummarizeRun(r.jobs, cluster_, state_, lifecycle_, network_, driver_);
  r.summary.time_limit_hit = time_limit_hit_;
  r.summary.events = engine_.steps();
  const FluidSolver::FillStats f = network_.fill_stats();
  r.summary.rate_solver = {{"solves", f.solves},
                           {"class_fills", f.class_fills},
                           {"dense_fills_whole", f.dense_fills},
                           {"dense_fills_local", f.local_fills},
                           {"water_fills_whole", f.water_fills},
                           {"water_fills_local", f.local_water_fills}};
  r.summary.wall_s = wall_s;
  if (config_.collect_tasks) {  // the task-level outputs: tasks.csv, modes.csv, placements.csv
    r.tasks = TaskResults(state_);
    r.modes = driver_.mode_switches();
    r.placements = driver_.placements();
  }
  r.utilisation = std::move(utilisation_);
  return r;
}

}  // namespace slotflow
