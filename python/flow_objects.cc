// slotflow.Flow and slotflow.Link: one flow or link as a View or a FlowNet hands it out, read
// through that view (so raising once its call has ended); and the flow and link tables both
// views return.
#include <pybind11/stl.h>

#include <algorithm>

#include "view.h"

namespace slotflow {
namespace {

// A flow or link of the network a View or a FlowNet reads.
struct NetRef {
  py::object owner;  // keeps *scoped alive
  const void* scoped;
  const FlowView& (*net)(const void* scoped);  // raises once the call has ended
  int32_t id;
  const FlowView& Net() const { return net(scoped); }
};
struct FlowRef : NetRef {};
struct LinkRef : NetRef {};

template <class R>
R NetRefOf(py::handle owner, int32_t id) {
  if (py::isinstance<SchedulerView>(owner)) {
    const auto* view = &owner.cast<const SchedulerView&>();
    return R{{py::reinterpret_borrow<py::object>(owner), view,
              [](const void* v) -> const FlowView& {
                return static_cast<const SchedulerView*>(v)->get().flows();
              },
              id}};
  }
  const auto* net = &owner.cast<const FlowNet&>();
  return R{{py::reinterpret_borrow<py::object>(owner), net,
            [](const void* n) -> const FlowView& { return static_cast<const FlowNet*>(n)->get(); },
            id}};
}

const FlowSpec& SpecOf(const FlowRef& f) { return f.Net().flow(FlowOf(f.Net(), f.id)).spec; }

}  // namespace

FlowId FlowOf(const FlowView& net, int64_t f) {
  const auto id = Checked<FlowId>(f, net.FlowCount(), "flow");
  if (!net.Kept(id)) {
    throw py::index_error("flow " + std::to_string(f) +
                          " finished at an earlier step; the network no longer keeps it");
  }
  return id;
}

py::object FlowObject(py::handle owner, int64_t f) {
  FlowRef ref = NetRefOf<FlowRef>(owner, 0);
  ref.id = FlowOf(ref.Net(), f);
  return py::cast(std::move(ref));
}

py::object LinkObject(py::handle owner, int64_t l) {
  LinkRef ref = NetRefOf<LinkRef>(owner, 0);
  ref.id = Checked<LinkId>(l, ref.Net().LinkCount(), "link");
  return py::cast(std::move(ref));
}

py::dict FlowTable(const FlowView& net) {
  const std::vector<FlowId>& active = net.active_flows();
  const size_t n = active.size();
  auto spec = [&](size_t i) -> const FlowSpec& { return net.flow(active[i]).spec; };
  py::dict t;
  t["id"] = NumpyOf<int64_t>(n, [&](size_t i) { return active[i]; });
  t["src"] = NumpyOf<int64_t>(n, [&](size_t i) { return spec(i).src; });
  t["dst"] = NumpyOf<int64_t>(n, [&](size_t i) { return spec(i).dst; });
  t["size"] = NumpyOf<double>(n, [&](size_t i) { return spec(i).size; });
  t["remaining"] = NumpyOf<double>(n, [&](size_t i) { return net.Remaining(active[i]); });
  t["rate"] = NumpyOf<double>(n, [&](size_t i) { return net.Rate(active[i]); });
  t["cls"] = NumpyOf<int64_t>(n, [&](size_t i) { return net.Class(active[i]); });
  t["job"] = NumpyOf<int64_t>(n, [&](size_t i) { return spec(i).job; });
  t["coflow"] = NumpyOf<int64_t>(n, [&](size_t i) { return spec(i).coflow; });
  t["task"] = NumpyOf<int64_t>(n, [&](size_t i) { return spec(i).macroflow; });
  t["task_bytes"] = NumpyOf<double>(n, [&](size_t i) { return spec(i).macroflow_bytes; });
  t["start"] = NumpyOf<double>(n, [&](size_t i) { return net.flow(active[i]).start; });
  // The links each crosses, one row per flow, padded with -1.
  size_t width = 0;
  for (FlowId f : active) width = std::max(width, net.Links(f).size());
  py::array_t<int64_t> links({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
  int64_t* data = links.mutable_data();
  for (size_t i = 0; i < n; ++i) {
    const auto path = net.Links(active[i]);
    for (size_t k = 0; k < width; ++k) data[i * width + k] = k < path.size() ? path[k] : -1;
  }
  t["links"] = links;
  return t;
}

py::dict LinkTable(const FlowView& net) {
  const auto n = static_cast<size_t>(net.LinkCount());
  py::dict t;
  t["capacity"] = NumpyOf<double>(n, [&](size_t l) { return net.LinkCapacity(LinkId(l)); });
  t["load"] = NumpyOf<double>(n, [&](size_t l) { return net.LinkLoad(LinkId(l)); });
  return t;
}

void BindFlowObjects(py::module_& m) {
  py::class_<FlowRef>(m, "Flow", "A flow as a view sees it (valid during the call).")
      .def_property_readonly("id", [](const FlowRef& f) { return f.id; })
      .def_property_readonly("src", [](const FlowRef& f) { return int64_t{SpecOf(f).src}; })
      .def_property_readonly("dst", [](const FlowRef& f) { return int64_t{SpecOf(f).dst}; })
      .def_property_readonly("size", [](const FlowRef& f) { return SpecOf(f).size; })
      .def_property_readonly("job", [](const FlowRef& f) { return int64_t{SpecOf(f).job}; })
      .def_property_readonly("coflow", [](const FlowRef& f) { return int64_t{SpecOf(f).coflow}; })
      .def_property_readonly("macroflow",
                             [](const FlowRef& f) { return int64_t{SpecOf(f).macroflow}; })
      .def_property_readonly("macroflow_bytes",
                             [](const FlowRef& f) { return SpecOf(f).macroflow_bytes; })
      .def_property_readonly(
          "start", [](const FlowRef& f) { return f.Net().flow(FlowOf(f.Net(), f.id)).start; })
      .def_property_readonly("active",
                             [](const FlowRef& f) { return f.Net().Active(FlowId(f.id)); })
      .def_property_readonly(
          "remaining", [](const FlowRef& f) { return f.Net().Remaining(FlowOf(f.Net(), f.id)); })
      .def_property_readonly("rate",
                             [](const FlowRef& f) { return f.Net().Rate(FlowOf(f.Net(), f.id)); })
      .def_property_readonly(
          "cls", [](const FlowRef& f) { return int64_t{f.Net().Class(FlowOf(f.Net(), f.id))}; })
      .def_property_readonly(
          "links", [](const FlowRef& f) { return IntList(f.Net().Links(FlowOf(f.Net(), f.id))); });

  py::class_<LinkRef>(m, "Link", "A link as a view sees it (valid during the call).")
      .def_property_readonly("id", [](const LinkRef& l) { return l.id; })
      .def_property_readonly("capacity",
                             [](const LinkRef& l) { return l.Net().LinkCapacity(LinkId(l.id)); })
      .def_property_readonly("load",
                             [](const LinkRef& l) { return l.Net().LinkLoad(LinkId(l.id)); });
}

}  // namespace slotflow
