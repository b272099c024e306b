// Task schedulers written in Python: a Python class registered by name becomes an entry of the
// task scheduler registry like any built-in one, so `run`, `compare`, `sweep`, the decision log
// and live mode use it unchanged. Each call takes the GIL (runs of a comparison share it) and
// hands the policy a View of the simulator's state: read-only, wrapping the state without
// copying it, and valid only during the call.
#include "api/task_scheduler.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "api/error.h"
#include "api/neat_policy.h"
#include "api/random.h"
#include "view.h"

namespace slotflow {
namespace {

// An integer field of a policy's answer (a Python int or numpy integer, not a bool or float).
int64_t IntegerField(py::handle value, const std::string& source, const std::string& field) {
  if (!IsInteger(value)) {
    throw InputError(source, 0, field,
                     "expected an integer id, not " + TypeName(value) + " " +
                         py::repr(value).cast<std::string>());
  }
  return py::int_(py::reinterpret_borrow<py::object>(value)).cast<int64_t>();
}

// A scheduler whose decisions a Python object makes.
class PyScheduler : public TaskScheduler {
 public:
  PyScheduler(py::object policy, std::string name, const std::string& network)
      : policy_(std::move(policy)),
        name_(std::move(name)),
        network_(network),
        full_(NeatPolicyForNetwork(network), /*full_objective=*/true),
        own_(NeatPolicyForNetwork(network), /*full_objective=*/false) {
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
    if (!reasons.is_none()) words_.Add(reasons, why, "scheduler '" + name_ + "' on_tick()");
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
  py::object WithView(const SimState& state, Call&& call) const {
    return WithScoped<SchedulerView>(std::forward<Call>(call), state, full_, own_, network_);
  }

  template <class Call>
  Decision Ask(const SimState& state, Call&& call) {
    py::object answer = WithView(state, call);
    Decision d;
    if (answer.is_none()) return d;
    const std::string source = "scheduler '" + name_ + "'";
    if (!py::hasattr(answer, "task") || !py::hasattr(answer, "server") ||
        !py::hasattr(answer, "why")) {
      throw InputError(source, 0, "decision",
                       "expected a slotflow.Decision or None, not " + TypeName(answer));
    }
    const int64_t task = IntegerField(answer.attr("task"), source, "task");
    const int64_t server = IntegerField(answer.attr("server"), source, "server");
    d.task = Checked<TaskId>(task, TaskCount(state), "decision's task");
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
    if (!why.is_none()) words_.Add(why, d.why, source);
    return d;
  }

  py::object policy_;
  std::string name_;
  std::string network_;  // the network policy in force
  // NEAT+'s predictor under it, as the view's predict() gives it (objective (2), and own).
  mutable NeatScore full_, own_;
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
    return std::unique_ptr<TaskScheduler>(
        new PyScheduler(std::move(policy), name, args.network_policy));
  });
}

}  // namespace

void BindTaskSchedulers(py::module_& m) {
  BindView(m);
  BindFlowObjects(m);

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
