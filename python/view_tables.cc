// The bulk reads of a View (slotflow.View's server_table(), job_table(), ready_table(),
// candidates() and candidate_table()): one numpy array per column.
#include <pybind11/stl.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "view.h"

namespace slotflow {
namespace {

using View = SchedulerView;

// Per server: bytes still to arrive (leave) over the network, summed over the active flows in
// the order the network lists them.
struct Traffic {
  std::vector<double> in_bytes, out_bytes;
};
Traffic TrafficOf(const SimState& state) {
  const auto n = static_cast<size_t>(state.cluster().size());
  Traffic t{std::vector<double>(n, 0), std::vector<double>(n, 0)};
  const FlowView& net = state.flows();
  for (FlowId f : net.active_flows()) {
    const FlowSpec& fs = net.flow(f).spec;
    if (fs.src == fs.dst) continue;
    const Bytes left = net.Remaining(f);
    t.in_bytes[fs.dst] += left;
    t.out_bytes[fs.src] += left;
  }
  return t;
}

// The ready tasks of the active jobs (jobs in submission order, each job's in id order).
std::vector<TaskId> AllReadyTasks(const SimState& state) {
  std::vector<TaskId> out;
  for (JobIndex j : state.active_jobs()) {
    const ReadyTasks& ready = state.job(j).ready;
    out.insert(out.end(), ready.begin(), ready.end());
  }
  return out;
}

// Calls f(t, s) for every (ready task, server) pair that may start now: jobs in submission
// order, each job's ready tasks in id order, servers in id order.
template <class F>
void ForEachCandidate(const SimState& state, F&& f) {
  if (state.servers_with_free_slots().empty()) return;
  for (TaskId t : AllReadyTasks(state)) {
    for (ServerId s : state.servers_with_free_slots()) {
      if (state.CanHost(t, s)) f(t, s);
    }
  }
}

}  // namespace

py::dict ServerTable(const View& v, const py::args& columns) {
  const SimState& state = v.get();
  const Cluster& cluster = state.cluster();
  const auto n = static_cast<size_t>(cluster.size());
  std::optional<Traffic> traffic;
  auto flows = [&]() -> const Traffic& {
    if (!traffic) traffic = TrafficOf(state);
    return *traffic;
  };
  auto info = [&](size_t s) -> const Server& { return cluster.server(ServerId(s)); };
  auto run = [&](size_t s) -> const ServerRuntime& { return state.server(ServerId(s)); };
  using Column = std::pair<const char*, std::function<py::object()>>;
  const std::vector<Column> all = {
      {"rack", [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return info(s).rack; }); }},
      {"slots", [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return info(s).slots; }); }},
      {"cpu_speed",
       [&] { return NumpyOf<double>(n, [&](size_t s) { return info(s).cpu_speed; }); }},
      {"nic", [&] { return NumpyOf<double>(n, [&](size_t s) { return info(s).nic; }); }},
      {"memory", [&] { return NumpyOf<double>(n, [&](size_t s) { return info(s).memory; }); }},
      {"free_slots",
       [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return run(s).free_slots; }); }},
      {"free_memory",
       [&] { return NumpyOf<double>(n, [&](size_t s) { return run(s).free_memory; }); }},
      {"running", [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return run(s).running; }); }},
      {"held_slots",
       [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return run(s).held_slots; }); }},
      {"computing",
       [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return run(s).computing; }); }},
      {"receiving",
       [&] { return NumpyOf<int64_t>(n, [&](size_t s) { return run(s).receiving; }); }},
      {"lost", [&] { return NumpyOf<bool>(n, [&](size_t s) { return run(s).lost; }); }},
      {"bytes_arriving",
       [&] { return NumpyOf<double>(n, [&](size_t s) { return flows().in_bytes[s]; }); }},
      {"bytes_leaving",
       [&] { return NumpyOf<double>(n, [&](size_t s) { return flows().out_bytes[s]; }); }},
      // The flows in flight into / out of it, those within the server included.
      {"flows_arriving",
       [&] {
         return NumpyOf<int64_t>(
             n, [&](size_t s) { return state.flows().IncomingFlows(ServerId(s)); });
       }},
      {"flows_leaving",
       [&] {
         return NumpyOf<int64_t>(
             n, [&](size_t s) { return state.flows().OutgoingFlows(ServerId(s)); });
       }},
  };
  py::dict out;
  if (columns.empty()) {
    for (const auto& [name, make] : all) out[name] = make();
    return out;
  }
  for (py::handle c : columns) {
    const std::string want = py::str(c);
    bool found = false;
    for (const auto& [name, make] : all) {
      if (want != name) continue;
      out[name] = make();
      found = true;
    }
    if (!found) {
      std::string known;
      for (const auto& [name, make] : all) known += (known.empty() ? "" : ", ") + std::string(name);
      throw py::key_error("server_table: no column '" + want + "' (known: " + known + ")");
    }
  }
  return out;
}

py::dict JobTable(const View& v) {
  const std::vector<JobRuntime>& jobs = v.get().jobs();
  const size_t n = jobs.size();
  py::dict t;
  t["job"] = NumpyOf<int64_t>(n, [&](size_t j) { return j; });
  t["submit"] = NumpyOf<double>(n, [&](size_t j) { return jobs[j].spec->submit; });
  t["arrived"] = NumpyOf<bool>(n, [&](size_t j) { return jobs[j].arrived; });
  t["finished"] = NumpyOf<bool>(n, [&](size_t j) { return jobs[j].finished; });
  t["first_start"] = NumpyOf<double>(n, [&](size_t j) { return jobs[j].first_start; });
  t["finish"] = NumpyOf<double>(n, [&](size_t j) { return jobs[j].finish; });
  t["tasks"] = NumpyOf<int64_t>(n, [&](size_t j) { return jobs[j].spec->TaskCount(); });
  t["unfinished_tasks"] = NumpyOf<int64_t>(n, [&](size_t j) { return jobs[j].unfinished_tasks; });
  t["running"] = NumpyOf<int64_t>(n, [&](size_t j) { return jobs[j].running; });
  t["ready"] = NumpyOf<int64_t>(n, [&](size_t j) { return jobs[j].ready.size(); });
  t["size_estimate"] = NumpyOf<double>(n, [&](size_t j) { return jobs[j].size_estimate; });
  t["shuffle_estimate"] = NumpyOf<double>(n, [&](size_t j) { return jobs[j].shuffle_estimate; });
  return t;
}

py::dict ReadyTable(const View& v) {
  const SimState& state = v.get();
  const std::vector<TaskId> ready = AllReadyTasks(state);
  const size_t n = ready.size();
  auto task = [&](size_t i) -> const TaskRuntime& { return state.task(ready[i]); };
  py::dict t;
  t["task"] = NumpyOf<int64_t>(n, [&](size_t i) { return ready[i]; });
  t["job"] = NumpyOf<int64_t>(n, [&](size_t i) { return task(i).job; });
  t["stage"] = NumpyOf<int64_t>(n, [&](size_t i) { return task(i).stage; });
  t["index"] = NumpyOf<int64_t>(n, [&](size_t i) { return task(i).index; });
  t["root"] = NumpyOf<bool>(n, [&](size_t i) { return task(i).root; });
  t["input"] = NumpyOf<double>(n, [&](size_t i) { return task(i).spec->input; });
  t["cpus"] = NumpyOf<int64_t>(n, [&](size_t i) { return task(i).spec->cpus; });
  t["memory"] = NumpyOf<double>(n, [&](size_t i) { return task(i).spec->memory; });
  t["ready_at"] = NumpyOf<double>(n, [&](size_t i) { return task(i).ready_at; });
  return t;
}

py::array_t<int64_t> Candidates(const View& v) {
  std::vector<int64_t> pairs;
  ForEachCandidate(v.get(), [&](TaskId t, ServerId s) {
    pairs.push_back(t);
    pairs.push_back(s);
  });
  py::array_t<int64_t> out({static_cast<py::ssize_t>(pairs.size() / 2), py::ssize_t{2}});
  std::copy(pairs.begin(), pairs.end(), out.mutable_data());
  return out;
}

py::dict CandidateTable(const View& v) {
  const SimState& state = v.get();
  std::vector<int64_t> tasks, servers, jobs;
  std::vector<double> input, remote;
  std::vector<uint8_t> local;
  TaskId current{-1};
  std::vector<std::pair<ServerId, Bytes>> sources;
  Bytes total = 0;
  ForEachCandidate(state, [&](TaskId t, ServerId s) {
    const TaskRuntime& task = state.task(t);
    if (t != current) {
      current = t;
      sources = task.root ? std::vector<std::pair<ServerId, Bytes>>{} : state.InputSources(t);
      total = 0;
      for (const auto& [src, bytes] : sources) total += bytes;
    }
    const bool holds =
        std::find(task.replicas.begin(), task.replicas.end(), s) != task.replicas.end();
    Bytes away = 0;
    if (task.root) {
      away = task.replicas.empty() || holds ? 0 : task.spec->input;
    } else {
      away = total;
      for (const auto& [src, bytes] : sources) away -= src == s ? bytes : 0;
    }
    tasks.push_back(t);
    servers.push_back(s);
    jobs.push_back(task.job);
    input.push_back(task.spec->input);
    local.push_back(holds);
    remote.push_back(std::max(0.0, away));
  });
  const size_t n = tasks.size();
  py::dict out;
  out["task"] = NumpyOf<int64_t>(n, [&](size_t i) { return tasks[i]; });
  out["server"] = NumpyOf<int64_t>(n, [&](size_t i) { return servers[i]; });
  out["job"] = NumpyOf<int64_t>(n, [&](size_t i) { return jobs[i]; });
  out["input"] = NumpyOf<double>(n, [&](size_t i) { return input[i]; });
  out["local"] = NumpyOf<bool>(n, [&](size_t i) { return local[i] != 0; });
  out["remote_input"] = NumpyOf<double>(n, [&](size_t i) { return remote[i]; });
  return out;
}

}  // namespace slotflow
