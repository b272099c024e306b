// Network policies written in Python: a Python class registered by name becomes an entry of the
// network policy registry (with the NEAT+ predictor it names), used wherever a built-in policy
// is. Its hooks get the network as a read-only FlowNet and write through a ClassSink (classes,
// explicit rates, byte marks), both valid only during the call; a hook the class does not
// define is not called.
#include "network/network_policy.h"

#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "policies.h"

namespace slotflow {
namespace {

using FlowNet = CallScoped<FlowView>;

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

// A flow id from Python: IndexError when out of range, or when the flow finished at an earlier
// step and the network no longer keeps its record.
FlowId FlowOf(const FlowView& net, int64_t f) {
  const auto id = Checked<FlowId>(f, FlowsOf(net), "flow");
  if (!net.Kept(id)) {
    throw py::index_error("flow " + std::to_string(f) +
                          " finished at an earlier step; the network no longer keeps it");
  }
  return id;
}

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
    return std::isinf(t) ? kForever : t;
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
  bool started_ = false, finished_ = false, before_solve_ = false, reclassify_ = false,
       slot_mode_ = false;
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
      .def(
          "flow",
          [](const FlowNet& n, int64_t f) -> const FlowRecord& {
            return n.get().flow(FlowOf(n.get(), f));
          },
          py::return_value_policy::reference_internal)
      .def("active",
           [](const FlowNet& n, int64_t f) {
             return n.get().Active(Checked<FlowId>(f, FlowsOf(n.get()), "flow"));
           })
      .def("remaining",
           [](const FlowNet& n, int64_t f) { return n.get().Remaining(FlowOf(n.get(), f)); })
      .def("sent", [](const FlowNet& n, int64_t f) { return n.get().Sent(FlowOf(n.get(), f)); })
      .def("rate", [](const FlowNet& n, int64_t f) { return n.get().Rate(FlowOf(n.get(), f)); })
      .def("flow_class",
           [](const FlowNet& n, int64_t f) { return n.get().Class(FlowOf(n.get(), f)); })
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

  py::class_<FlowRecord>(m, "Flow", "A flow as a network policy sees it (valid during the call).")
      .def_property_readonly("src",
                             [](const FlowRecord& f) { return static_cast<int64_t>(f.spec.src); })
      .def_property_readonly("dst",
                             [](const FlowRecord& f) { return static_cast<int64_t>(f.spec.dst); })
      .def_property_readonly("size", [](const FlowRecord& f) { return f.spec.size; })
      .def_property_readonly("job",
                             [](const FlowRecord& f) { return static_cast<int64_t>(f.spec.job); })
      .def_property_readonly(
          "coflow", [](const FlowRecord& f) { return static_cast<int64_t>(f.spec.coflow); })
      .def_property_readonly("macroflow", [](const FlowRecord& f) { return f.spec.macroflow; })
      .def_property_readonly("macroflow_bytes",
                             [](const FlowRecord& f) { return f.spec.macroflow_bytes; })
      .def_readonly("start", &FlowRecord::start);

  py::class_<Sink>(m, "ClassSink", "What a network policy writes (valid during the call).")
      .def(
          "set_class",
          [](const Sink& s, int64_t f, int64_t cls, py::object why) {
            Why reasons;
            if (!why.is_none()) s.words().Add(why, reasons);
            s.get().SetClass(s.Flow(f), cls, reasons);
          },
          py::arg("flow"), py::arg("cls"), py::arg("why") = py::none(),
          "Flow `flow`'s priority class (0 highest); `why` shows in the decision log.")
      .def(
          "set_rate",
          [](const Sink& s, int64_t f, double rate) {
            if (!std::isfinite(rate)) throw py::value_error("set_rate: the rate is not finite");
            s.get().SetExplicitRate(s.Flow(f), rate);
          },
          "An explicit rate in bytes/s (< 0 clears it).")
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
