// Task schedulers written in Python: a Python class registered by name becomes an entry of the
// task scheduler registry like any built-in one, so `run`, `compare`, `sweep`, the decision log
// and live mode use it unchanged. Each call takes the GIL (runs of a comparison share it) and
// hands the policy a View of the simulator's state: read-only, wrapping the state without
// copying it, and valid only during the call.
#include "sim/task_scheduler.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/random.h"
#include "policies.h"
#include "scheduling/job_order.h"

namespace slotflow {
namespace {

// The state a task scheduler reads during one call (slotflow.View).
using View = CallScoped<SimState>;

// Tasks are numbered in workload order (jobs, stages, tasks), so the last stage ends the ids.
int64_t PyTaskCount(const SimState& state) {
  if (state.jobs().empty()) return 0;
  const StageRuntime& stage = state.jobs().back().stages.back();
  return static_cast<int64_t>(stage.first_task) + stage.task_count;
}

JobOrder JobOrderNamed(const std::string& name) {
  if (const auto order = FindJobOrder(name)) return *order;
  throw py::value_error("unknown job order '" + name + "' (known: fifo, sjf, sjf-shuffle, fair)");
}

// A scheduler whose decisions a Python object makes.
class PyScheduler : public TaskScheduler {
 public:
  PyScheduler(py::object policy, std::string name)
      : policy_(std::move(policy)), name_(std::move(name)) {
    py::gil_scoped_acquire gil;
    heartbeat_ = py::getattr(policy_, "heartbeat", py::float_(0.0)).cast<double>();
    tick_ = py::getattr(policy_, "tick", py::float_(0.0)).cast<double>();
    has_mode_ = py::hasattr(policy_, "mode");
    has_stats_ = py::hasattr(policy_, "stats");
  }
  ~PyScheduler() override {
    py::gil_scoped_acquire gil;
    policy_ = py::object();
  }

  Decision Next(const SimState& state) override {
    py::gil_scoped_acquire gil;
    return Ask(state, [&](py::object view) { return policy_.attr("next")(view); });
  }
  Seconds server_heartbeat() const override { return heartbeat_; }
  Decision Offer(const SimState& state, ServerId s) override {
    py::gil_scoped_acquire gil;
    return Ask(state, [&](py::object view) {
      return policy_.attr("offer")(view, static_cast<int64_t>(s));
    });
  }
  Seconds tick_interval() const override { return tick_; }
  Why OnTick(const SimState& state) override {
    py::gil_scoped_acquire gil;
    Why why;
    py::object reasons =
        WithView(state, [&](py::object view) { return policy_.attr("on_tick")(view); });
    if (!reasons.is_none()) words_.Add(reasons, why);
    return why;
  }
  void AddStats(std::vector<std::pair<std::string, double>>& out) const override {
    if (!has_stats_) return;
    py::gil_scoped_acquire gil;
    py::object stats = policy_.attr("stats")();
    for (auto [k, v] : stats.cast<py::dict>())
      out.emplace_back(k.cast<std::string>(), v.cast<double>());
  }
  std::optional<SlotMode> mode(const SimState& state) const override {
    if (!has_mode_) return std::nullopt;
    py::gil_scoped_acquire gil;
    py::object m = WithView(state, [&](py::object view) { return policy_.attr("mode")(view); });
    if (m.is_none()) return std::nullopt;
    const std::string word = m.cast<std::string>();
    if (word == "sufficient") return SlotMode::kSufficient;
    if (word == "insufficient") return SlotMode::kInsufficient;
    throw py::value_error("scheduler '" + name_ + "': mode() returned '" + word +
                          "' (expected 'sufficient', 'insufficient' or None)");
  }

 private:
  template <class Call>
  static py::object WithView(const SimState& state, Call&& call) {
    return WithScoped<View>(std::forward<Call>(call), state);
  }

  template <class Call>
  Decision Ask(const SimState& state, Call&& call) {
    py::object answer = WithView(state, call);
    Decision d;
    if (answer.is_none()) return d;
    const int64_t task = answer.attr("task").cast<int64_t>();
    const int64_t server = answer.attr("server").cast<int64_t>();
    d.task = Checked<TaskId>(task, PyTaskCount(state), "decision's task");
    d.server = Checked<ServerId>(server, state.cluster().size(), "decision's server");
    if (!state.CanHost(d.task, d.server)) {
      throw py::value_error("scheduler '" + name_ + "': task " + std::to_string(task) +
                            " cannot start on server " + std::to_string(server) +
                            " now (no free slot, or not enough memory)");
    }
    if (state.task(d.task).state != TaskState::kReady) {
      throw py::value_error("scheduler '" + name_ + "': task " + std::to_string(task) +
                            " is not ready (" + TaskStateName(state.task(d.task).state) + ")");
    }
    py::object why = answer.attr("why");
    if (!why.is_none()) words_.Add(why, d.why);
    return d;
  }

  py::object policy_;
  std::string name_;
  double heartbeat_ = 0, tick_ = 0;
  bool has_mode_ = false, has_stats_ = false;
  ReasonWords words_;
};

void RegisterScheduler(const std::string& name, const std::string& description,
                       const std::vector<py::dict>& settings, py::object factory) {
  auto& registry = TaskSchedulerRegistry::Get();
  std::vector<SettingSpec> specs = DeclaredSettings(settings, name);
  ClaimPythonName("scheduler", name, registry.Has(name));
  auto shared = std::make_shared<py::object>(std::move(factory));
  registry.Add(name, description, specs, [shared, specs, name](const PolicyArgs& args) {
    py::gil_scoped_acquire gil;
    py::object policy =
        (*shared)(SettingValues(args.settings, specs), args.seed, args.network_policy);
    return std::unique_ptr<TaskScheduler>(new PyScheduler(std::move(policy), name));
  });
}

}  // namespace

void BindTaskSchedulers(py::module_& m) {
  py::class_<View>(m, "View", "The simulator's state during one call of a policy (read-only).")
      .def_property_readonly("now", [](const View& v) { return v.get().now(); })
      .def_property_readonly("servers", [](const View& v) { return v.get().cluster().size(); })
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
      .def(
          "job",
          [](const View& v, int64_t j) -> const JobRuntime& {
            return v.get().job(
                Checked<JobIndex>(j, static_cast<int64_t>(v.get().jobs().size()), "job"));
          },
          py::return_value_policy::reference_internal)
      .def(
          "task",
          [](const View& v, int64_t t) -> const TaskRuntime& {
            return v.get().task(Checked<TaskId>(t, PyTaskCount(v.get()), "task"));
          },
          py::return_value_policy::reference_internal)
      .def(
          "server",
          [](const View& v, int64_t s) -> const ServerRuntime& {
            return v.get().server(Checked<ServerId>(s, v.get().cluster().size(), "server"));
          },
          py::return_value_policy::reference_internal)
      .def("can_host", [](const View& v, int64_t t, int64_t s) {
        const SimState& st = v.get();
        return st.CanHost(Checked<TaskId>(t, PyTaskCount(st), "task"),
                          Checked<ServerId>(s, st.cluster().size(), "server"));
      });

  py::class_<JobRuntime>(m, "Job", "A job as the scheduler sees it (valid during the call).")
      .def_property_readonly("index",
                             [](const JobRuntime& j) { return static_cast<int64_t>(j.index); })
      .def_property_readonly("name", [](const JobRuntime& j) { return j.spec->name; })
      .def_property_readonly("submit", [](const JobRuntime& j) { return j.spec->submit; })
      .def_property_readonly("priority", [](const JobRuntime& j) { return j.spec->priority; })
      .def_property_readonly("queue", [](const JobRuntime& j) { return j.spec->queue; })
      .def_property_readonly("ready", [](const JobRuntime& j) { return IntList(j.ready); })
      .def_readonly("running", &JobRuntime::running)
      .def_readonly("unfinished_tasks", &JobRuntime::unfinished_tasks)
      .def_readonly("size_estimate", &JobRuntime::size_estimate)
      .def_readonly("shuffle_estimate", &JobRuntime::shuffle_estimate)
      .def_readonly("arrived", &JobRuntime::arrived)
      .def_readonly("finished", &JobRuntime::finished);

  py::class_<TaskRuntime>(m, "Task", "A task as the scheduler sees it (valid during the call).")
      .def_property_readonly("job",
                             [](const TaskRuntime& t) { return static_cast<int64_t>(t.job); })
      .def_readonly("stage", &TaskRuntime::stage)
      .def_readonly("index", &TaskRuntime::index)
      .def_property_readonly("server",
                             [](const TaskRuntime& t) { return static_cast<int64_t>(t.server); })
      .def_property_readonly("state", [](const TaskRuntime& t) { return TaskStateName(t.state); })
      .def_readonly("root", &TaskRuntime::root)
      .def_property_readonly("replicas", [](const TaskRuntime& t) { return IntList(t.replicas); })
      .def_property_readonly("input", [](const TaskRuntime& t) { return t.spec->input; })
      .def_property_readonly("memory", [](const TaskRuntime& t) { return t.spec->memory; })
      .def_property_readonly("cpus", [](const TaskRuntime& t) { return t.spec->cpus; });

  py::class_<ServerRuntime>(m, "Server",
                            "A server as the scheduler sees it (valid during the call).")
      .def_readonly("free_slots", &ServerRuntime::free_slots)
      .def_readonly("running", &ServerRuntime::running)
      .def_readonly("held_slots", &ServerRuntime::held_slots)
      .def_readonly("computing", &ServerRuntime::computing)
      .def_readonly("receiving", &ServerRuntime::receiving)
      .def_readonly("lost", &ServerRuntime::lost);

  py::class_<Rng>(m, "Rng",
                  "The simulator's random numbers (std::mt19937_64), for policies that "
                  "draw as the built-in ones do.")
      .def(py::init<uint64_t>(), py::arg("seed"))
      .def("uniform_int",
           [](Rng& r, int64_t n) {
             if (n <= 0) throw py::value_error("uniform_int(n) needs n > 0");
             return r.UniformInt(n);
           })
      .def("uniform", [](Rng& r) { return r.Uniform(); });

  m.def("_register_scheduler", &RegisterScheduler, py::arg("name"), py::arg("description"),
        py::arg("settings"), py::arg("factory"));
}

}  // namespace slotflow
