#include "workload/network_mode.h"

#include "api/random.h"

namespace slotflow {

Workload PinForNetworkMode(Workload workload, int servers, uint64_t seed) {
  Rng rng(seed ^ 0x70696e6e696e6700ULL);
  for (JobSpec& job : workload.jobs) {
    for (StageSpec& stage : job.stages) {
      for (TaskSpec& task : stage.tasks) {
        if (task.pinned == kNoServer) task.pinned = static_cast<ServerId>(rng.UniformInt(servers));
        if (stage.parents.empty()) task.input = 0;
        task.compute = 0;
      }
    }
  }
  return workload;
}

}  // namespace slotflow
