// Helpers for the tests that call the rate allocator's parts directly, without FluidSolver:
// links with capacities, a GroupTable of hand-built flows on them, and each flow's rate.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "rates/groups.h"
#include "rates/solver_runs.h"

namespace slotflow::testing {

struct PartTable {
  explicit PartTable(std::vector<double> capacities)
      : capacity(std::move(capacities)), residual(capacity), t(capacity.size()) {}

  // Flow f on the links given, in order, of `size` bytes in class cls.
  void Add(int32_t f, std::initializer_list<int32_t> links, Bytes size = 100,
           FlowClass cls = FlowClass{0}) {
    const std::vector<LinkId> path = LinkIds(links);
    t.Add(FlowId{f}, t.paths.Intern(path), size, cls);
  }
  // A class's state. Adding a class may move the others: take it again after any change.
  rates::ClassState& Class(FlowClass cls) { return t.class_states[t.class_ids.at(cls)]; }
  int32_t Group(int32_t f) const { return t.flows[FlowId{f}].group; }
  // Flow f's rate (each member of a group has the group's rate).
  double Rate(int32_t f) const { return t.rate[Group(f)]; }

  std::vector<double> capacity;
  std::vector<double> residual;  // what the fills leave of each link, starting from capacity
  rates::GroupTable t;
};

}  // namespace slotflow::testing
