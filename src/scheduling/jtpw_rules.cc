#include "scheduling/jtpw_rules.h"

#include <limits>

namespace slotflow {

const char* JobClassName(JobClass c) { return c == JobClass::kIo ? "io" : "cpu"; }

BytesPerSecond MapDataRate(int n, double rho, Bytes d_in, Seconds t_map) {
  const double moved = n * (1 + rho) * d_in;
  if (moved <= 0) return 0;
  if (t_map <= 0) return std::numeric_limits<double>::infinity();
  return moved / t_map;
}

JobClass ClassifyByRate(BytesPerSecond v, BytesPerSecond disk) {
  if (disk <= 0) return JobClass::kCpu;
  return v > disk ? JobClass::kIo : JobClass::kCpu;
}

double MapOutputRatio(const JobSpec& job) {
  Bytes in = 0, out = 0;
  for (size_t s = 0; s < job.stages.size(); ++s) {
    const StageSpec& st = job.stages[s];
    if (!st.parents.empty()) continue;
    for (const TaskSpec& t : st.tasks) {
      in += t.input;
      if (t.output >= 0) out += t.output;
    }
  }
  // Map tasks without an explicit output write what their child stages read from them.
  for (size_t s = 0; s < job.stages.size(); ++s) {
    const StageSpec& st = job.stages[s];
    const int parent_tasks = job.ParentTasks(s);
    size_t k = 0;
    for (int p : st.parents) {
      const StageSpec& ps = job.stages[p];
      for (const TaskSpec& pt : ps.tasks) {
        if (ps.parents.empty() && pt.output < 0) {
          for (const TaskSpec& child : st.tasks) out += child.FromParent(k, parent_tasks);
        }
        ++k;
      }
    }
  }
  return in > 0 ? out / in : 0;
}

double NodeLoad(const LoadWeights& w, double u_cpu, double u_mem, double u_disk, double u_net) {
  return w.cpu * u_cpu + w.mem * u_mem + w.disk * u_disk + w.net * u_net;
}

double PriorityWeight(const PriorityWeights& w, int p, Seconds waited, double p_cpu, double p_mem) {
  if (waited <= w.threshold) return p;  // §2.3: only a wait that exceeds T (超过) counts
  const double sum = w.time * (waited / w.threshold) + w.cpu * p_cpu + w.mem * p_mem + w.prio * p;
  return w.plus_p ? p + sum : sum;
}

}  // namespace slotflow
