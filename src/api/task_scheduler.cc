#include "api/task_scheduler.h"

namespace slotflow {

SLOTFLOW_DEFINE_REGISTRY(TaskSchedulerRegistry);

}  // namespace slotflow
