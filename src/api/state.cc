#include "api/state.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace slotflow {

const char* TaskStateName(TaskState s) {
  switch (s) {
    case TaskState::kWaiting:
      return "waiting";
    case TaskState::kReady:
      return "ready";
    case TaskState::kLaunching:
      return "launching";
    case TaskState::kReading:
      return "reading";
    case TaskState::kComputing:
      return "computing";
    case TaskState::kWriting:
      return "writing";
    case TaskState::kDone:
      return "done";
  }
  return "?";
}

const char* LocalityName(Locality l) {
  switch (l) {
    case Locality::kNode:
      return "node";
    case Locality::kRack:
      return "rack";
    case Locality::kOffRack:
      return "off-rack";
    case Locality::kNone:
      break;
  }
  return "none";
}

SimState::Utilisation SimState::ServerUtilisation(ServerId s) const {
  const Server& sv = cluster_.server(s);
  Utilisation u;
  if (sv.slots > 0) u.cpu = static_cast<double>(servers_[s].held_slots) / sv.slots;
  if (sv.memory > 0) u.memory = 1 - servers_[s].free_memory / sv.memory;
  auto load = [&](LinkId l) { return l < 0 ? 0.0 : flows_.LinkLoad(l) / flows_.LinkCapacity(l); };
  u.disk = load(cluster_.Disk(s));
  u.uplink = load(cluster_.Uplink(s));
  u.downlink = load(cluster_.Downlink(s));
  return u;
}

SimState::BusyTotals SimState::ServerBusyTotals(ServerId s) const {
  const ServerRuntime& rt = servers_[s];
  const Server& sv = cluster_.server(s);
  const Seconds since = now() - rt.totals_at;
  BusyTotals b{rt.compute_slot_seconds, rt.memory_byte_seconds};
  b.compute_slot_seconds += rt.computing * since;
  if (sv.memory > 0) b.memory_byte_seconds += (sv.memory - rt.free_memory) * since;
  return b;
}

FlowSpec SimState::UnitSpec(TaskId t) const {
  const TaskRuntime& task = tasks_[t];
  FlowSpec spec;
  spec.size = task.spec->input;
  spec.job = task.job;
  spec.coflow = jobs_[task.job].stages[task.stage].coflow;
  spec.macroflow = t;
  spec.macroflow_bytes = task.spec->input;
  return spec;
}

std::vector<std::pair<ServerId, Bytes>> SimState::InputSources(TaskId t) const {
  const TaskRuntime& task = tasks_[t];
  const JobRuntime& job = jobs_[task.job];
  const StageSpec& st = job.spec->stages[task.stage];
  const int parent_tasks = job.spec->ParentTasks(task.stage);
  // Summed per server in a dense scratch array (a stage may have 10^5 parent tasks on a few
  // servers): linear in the parent tasks, sorted only over the distinct servers.
  source_bytes_.resize(static_cast<size_t>(cluster_.size()), 0);
  source_seen_.resize(static_cast<size_t>(cluster_.size()), 0);
  std::vector<ServerId> servers;
  int k = 0;
  for (int p : st.parents) {
    const StageRuntime& ps = job.stages[p];
    for (TaskId pt = ps.first_task; pt < ps.first_task + ps.task_count; ++pt, ++k) {
      const Bytes b = task.spec->FromParent(k, parent_tasks);
      if (!(b > 0)) continue;
      const ServerId s = tasks_[pt].server;
      if (!source_seen_[s]) {
        source_seen_[s] = 1;
        servers.push_back(s);
      }
      source_bytes_[s] += b;
    }
  }
  std::sort(servers.begin(), servers.end());
  std::vector<std::pair<ServerId, Bytes>> by_server;
  by_server.reserve(servers.size());
  for (ServerId s : servers) {
    by_server.emplace_back(s, source_bytes_[s]);
    source_bytes_[s] = 0;
    source_seen_[s] = 0;
  }
  return by_server;
}

}  // namespace slotflow
