#include "scheduling/capacity_queues.h"

#include <algorithm>

namespace slotflow {

double QueueUse(const QueueShare& q, int running, int64_t total_slots) {
  return running / (q.share * static_cast<double>(total_slots));
}

int PickQueue(const std::vector<QueueShare>& queues, const std::vector<QueueLoad>& load,
              int64_t total_slots) {
  int best = -1;
  double best_use = 0;
  for (size_t q = 0; q < queues.size(); ++q) {
    if (!load[q].has_work) continue;
    // The maximum capacity: a queue may borrow idle slots only up to it.
    if (load[q].running >= queues[q].max * static_cast<double>(total_slots) - 1e-9) continue;
    const double use = QueueUse(queues[q], load[q].running, total_slots);
    if (best < 0 || use < best_use) {
      best = static_cast<int>(q);
      best_use = use;
    }
  }
  return best;
}

SettingSpec PerQueueSetting() {
  return {.name = "per_queue",
          .kind = SettingKind::kChoice,
          .default_value = "many",
          .meaning =
              "many: any job of a queue with a ready task, in order (work-conserving, see "
              "docs/readings.md); one: a queue starts its next job only when its running one "
              "has ended (JTPW §1, and its Table 3 order)",
          .choices = {"many", "one"}};
}

bool OnePerQueue(const Settings& settings) {
  return settings.Choice<bool>("per_queue", {{"many", false}, {"one", true}});
}

void KeepStartedJobs(const SimState& state, bool one, std::vector<JobIndex>& jobs) {
  if (!one) return;
  const bool any = std::any_of(jobs.begin(), jobs.end(),
                               [&](JobIndex j) { return state.job(j).first_start >= 0; });
  if (any) std::erase_if(jobs, [&](JobIndex j) { return state.job(j).first_start < 0; });
}

bool PriorityThenSubmission(const JobRuntime& a, const JobRuntime& b) {
  if (a.spec->priority != b.spec->priority) return a.spec->priority > b.spec->priority;
  if (a.spec->submit != b.spec->submit) return a.spec->submit < b.spec->submit;
  return a.index < b.index;
}

Decision PlaceLocalOrRandom(const SimState& state, JobIndex j, Rng& rng) {
  const auto& ready = state.job(j).ready;
  const auto& free = state.servers_with_free_slots();
  if (ready.empty() || free.empty()) return {};
  for (TaskId t : ready) {
    for (ServerId r : state.task(t).replicas) {
      if (state.CanHost(t, r)) return {t, r, Why().Add("rule", "local")};
    }
  }
  const auto first = static_cast<size_t>(rng.UniformInt(static_cast<int64_t>(free.size())));
  for (TaskId t : ready) {
    for (size_t k = 0; k < free.size(); ++k) {
      const ServerId s = free[(first + k) % free.size()];
      if (state.CanHost(t, s)) return {t, s, Why().Add("rule", "random-free")};
    }
  }
  return {};
}

}  // namespace slotflow
