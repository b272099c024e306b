#include "sim/results.h"

namespace slotflow {

std::vector<JobResult> FinishedJobResults(const SimState& state) {
  std::vector<JobResult> out;
  for (const JobRuntime& job : state.jobs()) {
    if (job.finished) out.push_back(JobResultOf(job));
  }
  return out;
}

JobResult JobResultOf(const JobRuntime& job) {
  JobResult jr;
  jr.name = job.spec->name;
  jr.submit = job.spec->submit;
  jr.first_start = job.first_start;
  jr.finish = job.finish;
  jr.jct = job.finish - job.spec->submit;
  jr.bytes = job.spec->InputBytes() + job.spec->ShuffleBytes();
  jr.tasks = job.spec->TaskCount();
  const int reads = job.local_reads + job.remote_reads;
  jr.local_fraction = reads == 0 ? 1.0 : static_cast<double>(job.local_reads) / reads;
  jr.size_group = SizeGroup(jr.bytes);
  return jr;
}

std::vector<TaskResult> TaskResults(const SimState& state) {
  size_t tasks = 0;
  for (const JobRuntime& job : state.jobs()) {
    for (const StageRuntime& sr : job.stages) tasks += static_cast<size_t>(sr.task_count);
  }
  std::vector<TaskResult> out;
  out.reserve(tasks);
  for (const JobRuntime& job : state.jobs()) {
    for (size_t st = 0; st < job.stages.size(); ++st) {
      const StageRuntime& sr = job.stages[st];
      for (TaskId t = sr.first_task; t < sr.first_task + sr.task_count; ++t) {
        const TaskRuntime& task = state.task(t);
        TaskResult& tr = out.emplace_back();
        tr.job = job.spec->name;
        tr.stage = job.spec->stages[st].name;
        tr.index = task.index;
        tr.server = task.server;
        tr.pinned = !task.HoldsSlot();
        tr.locality = LocalityName(task.locality);
        tr.ready = task.ready_at;
        tr.placed = task.placed_at;
        tr.read_done = task.compute_at;
        tr.compute_done = task.computed_at;
        tr.output_written = task.finish_at;
        tr.finish = task.finish_at;
        tr.input_bytes = task.spec->input;
        tr.remote_bytes = task.network_bytes;
      }
    }
  }
  return out;
}

double ReadLocality(const SimState& state) {
  int local = 0, reads = 0;
  for (const JobRuntime& job : state.jobs()) {
    local += job.local_reads;
    reads += job.local_reads + job.remote_reads;
  }
  return reads == 0 ? 1.0 : static_cast<double>(local) / reads;
}

}  // namespace slotflow
