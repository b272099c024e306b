// capacity — Hadoop's capacity scheduler, the baseline of JTPW (JTPW §1).
//  - §1: queues each hold a capacity share of the cluster; a free slot goes to the queue with
//    the smallest ratio of running tasks to its share ("先计算队列中运行的任务数和应分得计算
//    资源的比值，选择比值最小的队列"); queues lend idle slots to each other up to each one's
//    maximum capacity (Hadoop's maximum-capacity).
//  - §1: inside a queue, jobs by initial priority, then submission (FIFO); no pre-emption
//    (§2.3: "容量调度器不支持资源抢占"). §1 also says a queue gives resources to a new job only
//    after its running job has ended, so that as many jobs run as there are queues; Table 3's
//    execution order shows the same. slotflow's default does not read it so (docs/readings.md):
//    setting per_queue (many, the default, or one).
//  - Placement as Hadoop's node-local first: a task whose block is on a free server reads
//    locally, else a random free server (whichever node's heartbeat comes first).
// A job names its queue in the job file (`queue`); a job without one goes to the first queue.
// The default is Hadoop's own: one queue, `default`, with all the capacity.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "api/error.h"
#include "scheduling/capacity_queues.h"

namespace slotflow {
namespace {

// "capacity" in ASCII, mixed into the seed so the random server draws are this policy's own.
constexpr uint64_t kSeedSalt = 0x6361706163697479ULL;

std::vector<SettingSpec> CapacitySettings() {
  return {{.name = "queues",
           .kind = SettingKind::kQueueShares,
           .default_value = "default:1",
           .meaning = "the queues, each name:share[:max] (shares of the slots summing to 1; max, "
                      "default 1, caps what it may borrow); jobs name theirs, else the first"},
          PerQueueSetting()};
}

class CapacityScheduler : public TaskScheduler {
 public:
  explicit CapacityScheduler(const PolicyArgs& args)
      : queues_(args.settings.QueueShares("queues")),
        queues_from_(args.settings.Source("queues")),
        one_per_queue_(OnePerQueue(args.settings)),
        rng_(args.seed ^ kSeedSalt) {}

  Decision Next(const SimState& state) override {
    if (state.free_slots() == 0) return {};
    Group(state);
    const int64_t slots = state.cluster().TotalSlots();
    for (int q; (q = PickQueue(queues_, load_, slots)) >= 0;) {
      for (JobIndex j : members_[q]) {
        Decision d = PlaceLocalOrRandom(state, j, rng_);
        if (!d) continue;
        d.why.Add("queue", queues_[q].name.c_str())
            .Add("share", queues_[q].share)
            .Add("use", QueueUse(queues_[q], load_[q].running, slots));
        return d;
      }
      load_[q].has_work = false;  // nothing of this queue fits a free slot
    }
    return {};
  }

 private:
  // The queue a job belongs to: its own, else the first. A name no queue has is an error.
  int QueueOf(const JobRuntime& job) {
    if (static_cast<size_t>(job.index) < job_queue_.size() && job_queue_[job.index] >= 0) {
      return job_queue_[job.index];
    }
    if (job_queue_.size() <= static_cast<size_t>(job.index)) job_queue_.resize(job.index + 1, -1);
    int q = job.spec->queue.empty() ? 0 : -1;
    for (size_t k = 0; k < queues_.size() && q < 0; ++k) {
      if (queues_[k].name == job.spec->queue) q = static_cast<int>(k);
    }
    if (q < 0) {
      std::string known;
      for (const QueueShare& s : queues_) known += (known.empty() ? "" : ", ") + s.name;
      throw InputError(queues_from_.file, queues_from_.line, queues_from_.field,
                       fmt::format("job '{}' is submitted to queue '{}', which is not configured "
                                   "(queues: {})",
                                   job.spec->name, job.spec->queue, known));
    }
    return job_queue_[job.index] = q;
  }

  // Each queue's jobs in order and its running tasks.
  void Group(const SimState& state) {
    members_.assign(queues_.size(), {});
    load_.assign(queues_.size(), {});
    for (JobIndex j : state.active_jobs()) {
      const JobRuntime& job = state.job(j);
      const int q = QueueOf(job);
      members_[q].push_back(j);
      load_[q].running += job.running;
      load_[q].has_work = load_[q].has_work || !job.ready.empty();
    }
    for (auto& m : members_) {
      std::stable_sort(m.begin(), m.end(), [&](JobIndex a, JobIndex b) {
        return PriorityThenSubmission(state.job(a), state.job(b));
      });
      KeepStartedJobs(state, one_per_queue_, m);
    }
  }

  std::vector<QueueShare> queues_;
  SettingAssignment queues_from_;  // where they were set, for a job naming another queue
  bool one_per_queue_ = false;
  Rng rng_;
  std::vector<int> job_queue_;
  std::vector<std::vector<JobIndex>> members_;
  std::vector<QueueLoad> load_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "capacity", "Hadoop's capacity scheduler: queues with shares, jobs by priority then submission",
    CapacitySettings(), CapacityScheduler);

}  // namespace slotflow
