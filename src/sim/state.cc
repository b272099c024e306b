#include "sim/state.h"

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

std::vector<std::pair<ServerId, Bytes>> SimState::InputSources(TaskId t) const {
  const TaskRuntime& task = tasks_[t];
  const JobRuntime& job = jobs_[task.job];
  const StageSpec& st = job.spec->stages[task.stage];
  const int parent_tasks = job.spec->ParentTasks(task.stage);
  std::vector<std::pair<ServerId, Bytes>> by_server;
  int k = 0;
  for (int p : st.parents) {
    const StageRuntime& ps = job.stages[p];
    for (TaskId pt = ps.first_task; pt < ps.first_task + ps.task_count; ++pt, ++k) {
      const Bytes b = task.spec->FromParent(k, parent_tasks);
      if (b > 0) by_server.emplace_back(tasks_[pt].server, b);
    }
  }
  std::sort(by_server.begin(), by_server.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  // Merge equal servers.
  size_t out = 0;
  for (size_t i = 0; i < by_server.size(); ++i) {
    if (out > 0 && by_server[out - 1].first == by_server[i].first) {
      by_server[out - 1].second += by_server[i].second;
    } else {
      by_server[out++] = by_server[i];
    }
  }
  by_server.resize(out);
  return by_server;
}

}  // namespace slotflow
