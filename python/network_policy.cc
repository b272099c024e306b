// Network policies written in Python: a Python class registered by name becomes an entry of the
// network policy registry (with the NEAT+ predictor it names), used wherever a built-in policy
// is. Its hooks get the network as a read-only FlowNet and write through a ClassSink (classes,
// explicit rates, byte marks), both valid only during the call; a hook the class does not
// define is not called.
#include "api/network_policy.h"

#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/error.h"
#include "view.h"

namespace slotflow {
namespace {

// The sink a hook writes through (slotflow.ClassSink), with the policy's reason words.
class Sink {
 public:
  Sink(ClassSink& out, ReasonWords& words, const FlowView& net)
      : out_(&out), words_(&words), net_(&net) {}
  void Close() { out_ = nullptr; }
  ClassSink& get() const {
    if (out_ == nullptr) {
      throw std::runtime_error(
          "a slotflow ClassSink is valid only during the call it was given to");
    }
    return *out_;
  }
  ReasonWords& words() const { return *words_; }
  FlowId Flow(int64_t f) const;

 private:
  ClassSink* out_;
  ReasonWords* words_;
  const FlowView* net_;  // outlives the sink: both are valid only during the call
};

int64_t FlowsOf(const FlowView& net) { return net.FlowCount(); }

FlowId Sink::Flow(int64_t f) const { return FlowOf(*net_, f); }

class PyNetworkPolicy : public NetworkPolicy {
 public:
  PyNetworkPolicy(py::object policy, std::string name)
      : policy_(std::move(policy)), name_(std::move(name)) {
    py::gil_scoped_acquire gil;
    started_ = py::hasattr(policy_, "on_flows_started");
    finished_ = py::hasattr(policy_, "on_flows_finished");
    before_solve_ = py::hasattr(policy_, "before_solve");
    reclassify_ = py::hasattr(policy_, "next_reclassify_time");
    slot_mode_ = py::hasattr(policy_, "on_slot_mode");
    expected_class_ = py::hasattr(policy_, "expected_class");
  }
  ~PyNetworkPolicy() override {
    py::gil_scoped_acquire gil;
    policy_ = py::object();
  }

  void OnFlowsStarted(const FlowView& net, ClassSink& out, std::span<const FlowId> flows) override {
    if (!started_) return;
    py::gil_scoped_acquire gil;
    Call("on_flows_started", net, out, IntList(flows));
  }
  void OnFlowsFinished(const FlowView& net, ClassSink& out,
                       std::span<const FlowId> flows) override {
    if (!finished_) return;
    py::gil_scoped_acquire gil;
    Call("on_flows_finished", net, out, IntList(flows));
  }
  void BeforeSolve(const FlowView& net, ClassSink& out) override {
    if (!before_solve_) return;
    py::gil_scoped_acquire gil;
    Call("before_solve", net, out);
  }
  Seconds NextReclassifyTime(const FlowView& net) override {
    if (!reclassify_) return kForever;
    py::gil_scoped_acquire gil;
    const double t =
        WithScoped<FlowNet>(
            [&](py::object view) { return policy_.attr("next_reclassify_time")(view); }, net)
            .cast<double>();
    if (std::isnan(t) || t < net.now()) {
      throw py::value_error("network policy '" + name_ + "': next_reclassify_time() returned " +
                            std::to_string(t) + ", before now (" + std::to_string(net.now()) + ")");
    }
    // Now itself revisits the classes at once; always now, the clock would never move.
    same_instant_ = t == net.now() && net.now() == last_now_ ? same_instant_ + 1 : 0;
    last_now_ = net.now();
    if (same_instant_ >= kMaxSameInstant) {
      throw py::value_error("network policy '" + name_ +
                            "': next_reclassify_time() returned now (" + std::to_string(t) + ") " +
                            std::to_string(kMaxSameInstant) +
                            " times in a row: the clock cannot move forward");
    }
    return std::isinf(t) ? kForever : t;
  }
  std::optional<FlowClass> ExpectedClass(const FlowView& net, const FlowSpec& spec) const override {
    if (!expected_class_) return std::nullopt;
    py::gil_scoped_acquire gil;
    py::dict unit;
    unit["src"] = int64_t{spec.src};
    unit["dst"] = int64_t{spec.dst};
    unit["size"] = spec.size;
    unit["job"] = int64_t{spec.job};
    unit["coflow"] = int64_t{spec.coflow};
    unit["macroflow"] = int64_t{spec.macroflow};
    unit["macroflow_bytes"] = spec.macroflow_bytes;
    const py::object cls = WithScoped<FlowNet>(
        [&](py::object view) { return policy_.attr("expected_class")(view, unit); }, net);
    if (cls.is_none()) return std::nullopt;
    if (!IsInteger(cls)) {
      throw InputError("network policy '" + name_ + "'", 0, "expected_class",
                       "expected an integer class or None, not " + TypeName(cls));
    }
    return FlowClass{py::int_(cls).cast<int64_t>()};
  }
  void OnSlotMode(const FlowView& net, ClassSink& out, SlotMode mode) override {
    if (!slot_mode_) return;
    py::gil_scoped_acquire gil;
    Call("on_slot_mode", net, out,
         py::str(mode == SlotMode::kSufficient ? "sufficient" : "insufficient"));
  }

 private:
  // Calls the hook; the caller holds the GIL (its arguments are Python objects too).
  template <class... Args>
  void Call(const char* hook, const FlowView& net, ClassSink& out, Args&&... args) {
    WithScoped<Sink>(
        [&](py::object sink) {
          return WithScoped<FlowNet>(
              [&](py::object view) {
                return policy_.attr(hook)(view, sink, std::forward<Args>(args)...);
              },
              net);
        },
        out, words_, net);
  }

  py::object policy_;
  std::string name_;
  // How often in a row next_reclassify_time() may return now at one instant.
  static constexpr int kMaxSameInstant = 1000;

  bool started_ = false, finished_ = false, before_solve_ = false, reclassify_ = false,
       slot_mode_ = false, expected_class_ = false;
  int same_instant_ = 0;
  Seconds last_now_ = -1;
  ReasonWords words_;
};

void RegisterNetworkPolicy(const std::string& name, const std::string& description,
                           const std::string& predictor, const std::vector<py::dict>& settings,
                           py::object factory) {
  auto& registry = NetworkPolicyRegistry::Get();
  std::vector<SettingSpec> specs = DeclaredSettings(settings, name);
  NetworkPolicyTraits traits;
  try {
    traits = DeclareNetworkPolicy(name, predictor);
  } catch (const std::logic_error& e) {
    throw py::value_error(e.what());
  }
  ClaimPythonName("network", name, registry.Has(name));
  auto shared = std::make_shared<py::object>(std::move(factory));
  registry.Add(
      name, description, specs,
      [shared, specs, name](const PolicyArgs& args) {
        py::gil_scoped_acquire gil;
        py::object policy =
            (*shared)(SettingValues(args.settings, specs), args.seed, args.network_policy);
        return std::unique_ptr<NetworkPolicy>(new PyNetworkPolicy(std::move(policy), name));
      },
      traits);
}

}  // namespace

void BindNetworkPolicies(py::module_& m) {
  py::class_<FlowNet>(m, "FlowNet", "The network during one call of a network policy (read-only).")
      .def_property_readonly("now", [](const FlowNet& n) { return n.get().now(); })
      .def_property_readonly("active_flows",
                             [](const FlowNet& n) { return IntList(n.get().active_flows()); })
      .def_property_readonly("flow_count", [](const FlowNet& n) { return n.get().FlowCount(); })
      .def("flow", [](py::object self, int64_t f) { return FlowObject(self, f); })
      .def("link", [](py::object self, int64_t l) { return LinkObject(self, l); })
      .def(
          "flow_table", [](const FlowNet& n) { return FlowTable(n.get()); },
          "The flows in flight, as numpy arrays.")
      .def(
          "link_table", [](const FlowNet& n) { return LinkTable(n.get()); },
          "Every link's capacity and current load (bytes/s), as numpy arrays.")
      .def("active",
           [](const FlowNet& n, int64_t f) {
             return n.get().Active(Checked<FlowId>(f, FlowsOf(n.get()), "flow"));
           })
      .def("remaining",
           [](const FlowNet& n, int64_t f) { return n.get().Remaining(FlowOf(n.get(), f)); })
      .def("sent", [](const FlowNet& n, int64_t f) { return n.get().Sent(FlowOf(n.get(), f)); })
      .def("rate", [](const FlowNet& n, int64_t f) { return n.get().Rate(FlowOf(n.get(), f)); })
      .def("flow_class",
           [](const FlowNet& n, int64_t f) { return int64_t{n.get().Class(FlowOf(n.get(), f))}; })
      .def("links",
           [](const FlowNet& n, int64_t f) { return IntList(n.get().Links(FlowOf(n.get(), f))); })
      .def_property_readonly("link_count", [](const FlowNet& n) { return n.get().LinkCount(); })
      .def("link_capacity",
           [](const FlowNet& n, int64_t l) {
             return n.get().LinkCapacity(Checked<LinkId>(l, n.get().LinkCount(), "link"));
           })
      .def("link_load",
           [](const FlowNet& n, int64_t l) {
             return n.get().LinkLoad(Checked<LinkId>(l, n.get().LinkCount(), "link"));
           })
      .def_property_readonly("slot_mode",
                             [](const FlowNet& n) {
                               return n.get().slot_mode() == SlotMode::kSufficient ? "sufficient"
                                                                                   : "insufficient";
                             })
      .def("next_mark_in", [](const FlowNet& n) { return n.get().NextMarkIn(); });

  py::class_<Sink>(m, "ClassSink", "What a network policy writes (valid during the call).")
      .def(
          "set_class",
          [](const Sink& s, int64_t f, int64_t cls, py::object why) {
            Why reasons;
            if (!why.is_none()) s.words().Add(why, reasons, "set_class");
            s.get().SetClass(s.Flow(f), FlowClass{cls}, reasons);
          },
          py::arg("flow"), py::arg("cls"), py::arg("why") = py::none(),
          "Flow `flow`'s priority class (0 highest); `why` shows in the decision log.")
      .def(
          "set_rate",
          [](const Sink& s, int64_t f, double rate) {
            if (!std::isfinite(rate)) throw py::value_error("set_rate: the rate is not finite");
            s.get().SetExplicitRate(s.Flow(f), rate);
          },
          "An explicit rate in bytes/s (< 0 clears it): served before every class (rates that "
          "ask more of a link than it has are scaled down together), then topped up max-min "
          "from what the classes leave; a floor, not a cap.")
      .def(
          "set_mark",
          [](const Sink& s, int64_t f, double sent) {
            if (!std::isfinite(sent) || sent < 0) {
              throw py::value_error("set_mark: bytes sent must be finite and >= 0");
            }
            s.get().SetMark(s.Flow(f), sent);
          },
          "Tell me (take_marked) when flow `flow` has sent `sent` bytes.")
      .def("clear_mark", [](const Sink& s, int64_t f) { s.get().ClearMark(s.Flow(f)); })
      .def("take_marked", [](const Sink& s) {
        std::vector<FlowId> marked;
        s.get().TakeMarked(marked);
        return IntList(marked);
      });

  m.def("_register_network_policy", &RegisterNetworkPolicy, py::arg("name"), py::arg("description"),
        py::arg("predictor"), py::arg("settings"), py::arg("factory"));
}

}  // namespace slotflow
