#include "view.h"

#include <pybind11/stl.h>

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "api/first_fit.h"
#include "api/job_order.h"
#include "api/tie_break.h"

namespace slotflow {
namespace {

using View = SchedulerView;
struct TaskTag;
struct JobTag;
struct StageTag;
struct ServerTag;
using TaskRef = Ref<View, TaskTag>;
using JobRef = Ref<View, JobTag>;
using StageRef = Ref<View, StageTag>;  // stage `sub` of job `id`
using ServerRef = Ref<View, ServerTag>;

TaskId TaskOf(const SimState& state, int64_t t) {
  return Checked<TaskId>(t, TaskCount(state), "task");
}
ServerId ServerOf(const SimState& state, int64_t s) {
  return Checked<ServerId>(s, state.cluster().size(), "server");
}
JobIndex JobOf(const SimState& state, int64_t j) {
  return Checked<JobIndex>(j, static_cast<int64_t>(state.jobs().size()), "job");
}

JobOrder JobOrderNamed(const std::string& name) {
  if (const auto order = FindJobOrder(name)) return *order;
  throw py::value_error("unknown job order '" + name + "' (known: fifo, sjf, sjf-shuffle, fair)");
}

// Server ids from Python: one id, or any sequence of them (a list, a numpy array).
bool IsOne(py::handle servers) {
  return !py::isinstance<py::array>(servers) &&
         (py::isinstance<py::int_>(servers) || PyIndex_Check(servers.ptr()));
}
std::vector<ServerId> ServersOf(const SimState& state, py::handle servers) {
  std::vector<ServerId> out;
  if (IsOne(servers)) {
    out.push_back(
        ServerOf(state, py::int_(py::reinterpret_borrow<py::object>(servers)).cast<int64_t>()));
    return out;
  }
  const auto ids = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(servers);
  if (!ids || ids.ndim() != 1) {
    throw py::type_error("expected a server id or a one-dimensional sequence of them");
  }
  out.reserve(static_cast<size_t>(ids.size()));
  for (py::ssize_t i = 0; i < ids.size(); ++i) out.push_back(ServerOf(state, ids.data()[i]));
  return out;
}

// predict(t, s): NEAT+'s prediction for a ready task t on each server of s.
py::object Predict(const View& v, int64_t t, py::handle servers, const std::string& objective) {
  const SimState& state = v.get();
  const TaskId task = TaskOf(state, t);
  if (objective != "full" && objective != "own") {
    throw py::value_error("objective '" + objective + "' (known: full, own)");
  }
  if (state.task(task).state != TaskState::kReady) {
    throw py::value_error("predict: task " + std::to_string(t) + " is not ready (" +
                          TaskStateName(state.task(task).state) + ")");
  }
  const std::vector<ServerId> ids = ServersOf(state, servers);
  NeatScore& score = v.score(objective == "full");
  score.Begin(state, task);
  score.UseExact(state);
  auto times = NumpyOf<double>(ids.size(), [&](size_t i) { return score.Time(ids[i]); });
  score.End(state, task);
  if (IsOne(servers)) return py::float_(times.at(0));
  return std::move(times);
}

// hops(a, b): one id each → an int; one array → an array; two arrays → a matrix.
py::object HopsOf(const View& v, py::handle a, py::handle b) {
  const SimState& state = v.get();
  const std::vector<ServerId> from = ServersOf(state, a), to = ServersOf(state, b);
  const Cluster& cluster = state.cluster();
  if (IsOne(a) && IsOne(b)) return py::int_(Hops(cluster, from[0], to[0]));
  if (IsOne(a) || IsOne(b)) {
    const std::vector<ServerId>& many = IsOne(a) ? to : from;
    const ServerId one = IsOne(a) ? from[0] : to[0];
    return NumpyOf<int64_t>(many.size(), [&](size_t i) { return Hops(cluster, one, many[i]); });
  }
  py::array_t<int64_t> out(
      {static_cast<py::ssize_t>(from.size()), static_cast<py::ssize_t>(to.size())});
  int64_t* data = out.mutable_data();
  for (size_t i = 0; i < from.size(); ++i) {
    for (size_t k = 0; k < to.size(); ++k) data[i * to.size() + k] = Hops(cluster, from[i], to[k]);
  }
  return std::move(out);
}

py::tuple InputSourcesOf(const View& v, int64_t t) {
  const SimState& state = v.get();
  const TaskId task = TaskOf(state, t);
  const TaskRuntime& tr = state.task(task);
  if (state.job(tr.job).stages[tr.stage].unfinished_parents > 0 ||
      tr.state == TaskState::kWaiting) {
    throw py::value_error("input_sources: task " + std::to_string(t) +
                          " is waiting for its parent stages; its input is not anywhere yet");
  }
  const auto sources = state.InputSources(task);
  return py::make_tuple(
      NumpyOf<int64_t>(sources.size(), [&](size_t i) { return sources[i].first; }),
      NumpyOf<double>(sources.size(), [&](size_t i) { return sources[i].second; }));
}

const StageRuntime& StageOf(const StageRef& s) { return s.get().job(JobIndex(s.id)).stages[s.sub]; }
const StageSpec& StageSpecOf(const StageRef& s) {
  return s.get().job(JobIndex(s.id)).spec->stages[s.sub];
}

// The tie-break of the built-in schedulers (api/tie_break.h) over keys given as arrays.
class PyTieBreak {
 public:
  PyTieBreak(uint64_t seed, const std::string& ties) : tie_(TieSettings(ties), seed, /*salt=*/0) {}

  void Start() { tie_.Start(); }
  void Better() { tie_.Better(); }
  bool Equal() { return tie_.Equal(); }

  // The index of the smallest key (compared as tuples over the given arrays, in order), ties
  // broken as set; -1 when the arrays are empty.
  int64_t Smallest(const py::args& keys) {
    if (keys.empty() || keys.size() > 3) {
      throw py::value_error("smallest() takes one to three arrays of keys");
    }
    std::vector<py::array_t<double, py::array::c_style | py::array::forcecast>> arrays;
    for (py::handle k : keys) {
      arrays.push_back(py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(k));
      if (!arrays.back() || arrays.back().ndim() != 1 ||
          arrays.back().size() != arrays.front().size()) {
        throw py::value_error("smallest(): the keys must be one-dimensional and of one length");
      }
    }
    const py::ssize_t n = arrays.front().size();
    std::vector<ServerId> index(static_cast<size_t>(n));
    for (py::ssize_t i = 0; i < n; ++i) index[i] = ServerId(static_cast<int32_t>(i));
    using Key = std::tuple<double, double, double>;
    auto at = [&](size_t a, ServerId i) { return a < arrays.size() ? arrays[a].data()[i] : 0.0; };
    Key chosen;
    const ServerId best = tie_.Smallest(
        index, [&](ServerId i) { return Key(at(0, i), at(1, i), at(2, i)); }, chosen);
    return best;
  }

 private:
  static Settings TieSettings(const std::string& ties) {
    return Settings({TieSetting()}, std::map<std::string, std::string>{{"ties", ties}}, "TieBreak");
  }
  TieBreak tie_;
};

// The View's scalars, its job orders and the objects it hands out.
void BindViewState(py::class_<View>& view) {
  view.def_property_readonly("now", [](const View& v) { return v.get().now(); })
      .def_property_readonly("servers", [](const View& v) { return v.get().cluster().size(); })
      .def_property_readonly("racks", [](const View& v) { return v.get().cluster().racks(); })
      .def_property_readonly("topology",
                             [](const View& v) {
                               return v.get().cluster().spec().topology == TopologyKind::kTwoTier
                                          ? "two-tier"
                                          : "big-switch";
                             })
      .def_property_readonly("network_policy",
                             [](const View& v) {
                               v.get();
                               return v.network();
                             })
      .def_property_readonly(
          "predictor",
          [](const View& v) { return std::string(NeatPolicyName(v.score(true).policy())); })
      .def_property_readonly(
          "free_servers", [](const View& v) { return IntList(v.get().servers_with_free_slots()); })
      .def_property_readonly("free_slots", [](const View& v) { return v.get().free_slots(); })
      .def_property_readonly("ready_tasks", [](const View& v) { return v.get().ready_tasks(); })
      .def_property_readonly("active_jobs",
                             [](const View& v) { return IntList(v.get().active_jobs()); })
      .def(
          "ordered_jobs",
          [](const View& v, const std::string& order) {
            std::vector<JobIndex> jobs;
            OrderJobs(v.get(), JobOrderNamed(order), jobs);
            return IntList(jobs);
          },
          py::arg("order") = "fifo",
          "Active jobs in a job order (fifo, sjf, sjf-shuffle, fair), as the built-in "
          "schedulers order them.")
      .def("job",
           [](py::object self, int64_t j) {
             return MakeRef<JobRef, View>(self, JobOf(self.cast<const View&>().get(), j));
           })
      .def("task",
           [](py::object self, int64_t t) {
             return MakeRef<TaskRef, View>(self, TaskOf(self.cast<const View&>().get(), t));
           })
      .def("server",
           [](py::object self, int64_t s) {
             return MakeRef<ServerRef, View>(self, ServerOf(self.cast<const View&>().get(), s));
           })
      .def("flow", [](py::object self, int64_t f) { return FlowObject(self, f); })
      .def("link", [](py::object self, int64_t l) { return LinkObject(self, l); })
      .def("can_host",
           [](const View& v, int64_t t, int64_t s) {
             const SimState& st = v.get();
             return st.CanHost(TaskOf(st, t), ServerOf(st, s));
           })
      .def(
          "hosts",
          [](const View& v, int64_t t) {
            const SimState& st = v.get();
            return IntList(Hosts(st, TaskOf(st, t)));
          },
          "The servers that can host task t now, in increasing id order.");
}

// The View's tables, as numpy arrays (view_tables.cc).
void BindViewTables(py::class_<View>& view) {
  view.def("server_table", &ServerTable,
           "Per server, as numpy arrays: the named columns, or all of them.")
      .def("job_table", &JobTable, "Every job of the workload, as numpy arrays.")
      .def("ready_table", &ReadyTable, "The ready tasks of the active jobs, as numpy arrays.")
      .def(
          "flow_table", [](const View& v) { return FlowTable(v.get().flows()); },
          "The flows in flight, as numpy arrays.")
      .def(
          "link_table", [](const View& v) { return LinkTable(v.get().flows()); },
          "Every link's capacity and current load (bytes/s), as numpy arrays.")
      .def("candidates", &Candidates,
           "Every (ready task, server) pair that may start now, as an (n, 2) array.")
      .def("candidate_table", &CandidateTable,
           "Per candidate: task, server, job, input, local (the server holds the task's "
           "block), remote_input (bytes it would read over the network there).");
}

// The View's network: hops, paths and links between servers, where a task's input is, coflows,
// NEAT+'s predictor and the class the network policy in force would give.
void BindViewNetwork(py::class_<View>& view) {
  view.def("hops", &HopsOf, py::arg("a"), py::arg("b"),
           "Network hops between servers: 0 on one server, 2 through one switch, 4 through the "
           "core; ids or arrays of them.")
      .def(
          "path",
          [](const View& v, int64_t a, int64_t b) {
            const SimState& st = v.get();
            return IntList(st.cluster().Path(ServerOf(st, a), ServerOf(st, b)));
          },
          "The links a transfer from server a to server b crosses.")
      .def("uplink",
           [](const View& v, int64_t s) {
             const SimState& st = v.get();
             return int64_t{st.cluster().Uplink(ServerOf(st, s))};
           })
      .def("downlink",
           [](const View& v, int64_t s) {
             const SimState& st = v.get();
             return int64_t{st.cluster().Downlink(ServerOf(st, s))};
           })
      .def("link_name",
           [](const View& v, int64_t l) {
             const SimState& st = v.get();
             return st.cluster().LinkName(Checked<LinkId>(l, st.cluster().LinkCount(), "link"));
           })
      .def("input_sources", &InputSourcesOf,
           "Where task t's input is: (servers, bytes) arrays, one entry per server holding "
           "parent outputs (empty for a block read: see task(t).replicas).")
      .def("coflow",
           [](const View& v, int64_t c) {
             const FlowView& net = v.get().flows();
             const Coflow& cf = net.coflow(
                 Checked<CoflowId>(c, static_cast<int64_t>(net.CoflowCount()), "coflow"));
             py::dict d;
             d["job"] = int64_t{cf.job};
             d["stage"] = cf.stage;
             d["arrival"] = cf.arrival;
             d["total_bytes"] = cf.total_bytes;
             d["width"] = cf.width;
             d["length"] = cf.length;
             return d;
           })
      .def("predict", &Predict, py::arg("t"), py::arg("s"), py::arg("objective") = "full",
           "The completion time NEAT+'s predictor gives ready task t's input on server s (an "
           "id or an array of them) under the network policy in force: objective (2) (full) or "
           "the transfer's own time (own).")
      .def(
          "expected_class",
          [](const View& v, int64_t t) -> py::object {
            const SimState& st = v.get();
            const auto cls = st.flows().ExpectedClass(st.UnitSpec(TaskOf(st, t)));
            return cls ? py::object(py::int_(static_cast<int64_t>(*cls))) : py::object(py::none());
          },
          "The class the network policy in force would give task t's flows; None when it "
          "cannot tell.");
}

// slotflow.Job and slotflow.Stage.
void BindJobs(py::module_& m) {
  auto job = [](const JobRef& j) -> const JobRuntime& { return j.get().job(JobIndex(j.id)); };
  py::class_<JobRef>(m, "Job", "A job as the scheduler sees it (valid during the call).")
      .def_property_readonly("index", [](const JobRef& j) { return j.id; })
      .def_property_readonly("name", [job](const JobRef& j) { return job(j).spec->name; })
      .def_property_readonly("submit", [job](const JobRef& j) { return job(j).spec->submit; })
      .def_property_readonly("priority", [job](const JobRef& j) { return job(j).spec->priority; })
      .def_property_readonly("queue", [job](const JobRef& j) { return job(j).spec->queue; })
      .def_property_readonly("ready", [job](const JobRef& j) { return IntList(job(j).ready); })
      .def_property_readonly("running", [job](const JobRef& j) { return job(j).running; })
      .def_property_readonly("unfinished_tasks",
                             [job](const JobRef& j) { return job(j).unfinished_tasks; })
      .def_property_readonly("size_estimate",
                             [job](const JobRef& j) { return job(j).size_estimate; })
      .def_property_readonly("shuffle_estimate",
                             [job](const JobRef& j) { return job(j).shuffle_estimate; })
      .def_property_readonly("arrived", [job](const JobRef& j) { return job(j).arrived; })
      .def_property_readonly("finished", [job](const JobRef& j) { return job(j).finished; })
      .def_property_readonly("stages", [job](const JobRef& j) {
        py::list out;
        const auto count = static_cast<int32_t>(job(j).stages.size());
        for (int32_t s = 0; s < count; ++s) out.append(StageRef{j.owner, j.scoped, j.id, s});
        return out;
      });

  py::class_<StageRef>(m, "Stage", "A stage of a job's DAG (valid during the call).")
      .def_property_readonly("job", [](const StageRef& s) { return s.id; })
      .def_property_readonly("index", [](const StageRef& s) { return s.sub; })
      .def_property_readonly("name", [](const StageRef& s) { return StageSpecOf(s).name; })
      .def_property_readonly("parents", [](const StageRef& s) { return StageSpecOf(s).parents; })
      .def_property_readonly("children", [](const StageRef& s) { return StageOf(s).children; })
      .def_property_readonly("first_task",
                             [](const StageRef& s) { return int64_t{StageOf(s).first_task}; })
      .def_property_readonly("tasks", [](const StageRef& s) { return StageOf(s).task_count; })
      .def_property_readonly("unfinished_tasks",
                             [](const StageRef& s) { return StageOf(s).unfinished_tasks; })
      .def_property_readonly("unfinished_parents",
                             [](const StageRef& s) { return StageOf(s).unfinished_parents; })
      .def_property_readonly("input_bytes",
                             [](const StageRef& s) { return StageOf(s).input_bytes; })
      .def_property_readonly("coflow",
                             [](const StageRef& s) { return int64_t{StageOf(s).coflow}; });
}

// slotflow.Task.
void BindTasks(py::module_& m) {
  auto task = [](const TaskRef& t) -> const TaskRuntime& { return t.get().task(TaskId(t.id)); };
  py::class_<TaskRef>(m, "Task", "A task as the scheduler sees it (valid during the call).")
      .def_property_readonly("id", [](const TaskRef& t) { return t.id; })
      .def_property_readonly("job", [task](const TaskRef& t) { return int64_t{task(t).job}; })
      .def_property_readonly("stage", [task](const TaskRef& t) { return task(t).stage; })
      .def_property_readonly("index", [task](const TaskRef& t) { return task(t).index; })
      .def_property_readonly("server", [task](const TaskRef& t) { return int64_t{task(t).server}; })
      .def_property_readonly("state",
                             [task](const TaskRef& t) { return TaskStateName(task(t).state); })
      .def_property_readonly("root", [task](const TaskRef& t) { return task(t).root; })
      .def_property_readonly("replicas",
                             [task](const TaskRef& t) { return IntList(task(t).replicas); })
      .def_property_readonly("input", [task](const TaskRef& t) { return task(t).spec->input; })
      .def_property_readonly("memory", [task](const TaskRef& t) { return task(t).spec->memory; })
      .def_property_readonly("cpus", [task](const TaskRef& t) { return task(t).spec->cpus; })
      .def_property_readonly("ready_at", [task](const TaskRef& t) { return task(t).ready_at; })
      .def_property_readonly("placed_at", [task](const TaskRef& t) { return task(t).placed_at; });
}

// slotflow.Server.
void BindServers(py::module_& m) {
  auto server = [](const ServerRef& s) -> const ServerRuntime& {
    return s.get().server(ServerId(s.id));
  };
  auto info = [](const ServerRef& s) -> const Server& {
    return s.get().cluster().server(ServerId(s.id));
  };
  py::class_<ServerRef>(m, "Server", "A server as the scheduler sees it (valid during the call).")
      .def_property_readonly("id", [](const ServerRef& s) { return s.id; })
      .def_property_readonly("rack", [info](const ServerRef& s) { return info(s).rack; })
      .def_property_readonly("slots", [info](const ServerRef& s) { return info(s).slots; })
      .def_property_readonly("nic", [info](const ServerRef& s) { return info(s).nic; })
      .def_property_readonly("memory", [info](const ServerRef& s) { return info(s).memory; })
      .def_property_readonly("cpu_speed", [info](const ServerRef& s) { return info(s).cpu_speed; })
      .def_property_readonly("free_slots",
                             [server](const ServerRef& s) { return server(s).free_slots; })
      .def_property_readonly("free_memory",
                             [server](const ServerRef& s) { return server(s).free_memory; })
      .def_property_readonly("running", [server](const ServerRef& s) { return server(s).running; })
      .def_property_readonly("held_slots",
                             [server](const ServerRef& s) { return server(s).held_slots; })
      .def_property_readonly("computing",
                             [server](const ServerRef& s) { return server(s).computing; })
      .def_property_readonly("receiving",
                             [server](const ServerRef& s) { return server(s).receiving; })
      .def_property_readonly("lost", [server](const ServerRef& s) { return server(s).lost; });
}

// slotflow.TieBreak.
void BindTieBreak(py::module_& m) {
  py::class_<PyTieBreak>(m, "TieBreak",
                         "The built-in schedulers' tie-break (ties = random: reservoir sampling "
                         "from a seeded Rng, one draw per tie met in order; first: the first).")
      .def(py::init<uint64_t, const std::string&>(), py::arg("seed"), py::arg("ties") = "random")
      .def("smallest", &PyTieBreak::Smallest,
           "The index of the smallest key, keys compared as tuples over the arrays given; -1 "
           "when they are empty.")
      .def("start", &PyTieBreak::Start, "A new choice starts: the next candidate is the first.")
      .def("better", &PyTieBreak::Better, "The candidate is strictly better than the best so far.")
      .def("equal", &PyTieBreak::Equal,
           "The candidate ties with the best so far: whether it takes the best's place.");
}

}  // namespace

// Tasks are numbered in workload order (jobs, stages, tasks), so the last stage ends the ids.
int64_t TaskCount(const SimState& state) {
  if (state.jobs().empty()) return 0;
  const StageRuntime& stage = state.jobs().back().stages.back();
  return static_cast<int64_t>(stage.first_task) + stage.task_count;
}

void BindView(py::module_& m) {
  py::class_<View> view(m, "View",
                        "The simulator's state during one call of a task scheduler (read-only).");
  BindViewState(view);
  BindViewTables(view);
  BindViewNetwork(view);
  BindJobs(m);
  BindTasks(m);
  BindServers(m);
  BindTieBreak(m);
}

}  // namespace slotflow
