// Helpers for the rate allocator's tests: running a FluidSolver until its flows complete, a
// textbook max-min reference, and the two-link paths of a "big switch".
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "rates/fluid_solver.h"

namespace slotflow::testing {

// Flow ids from their numbers, for writing expected lists.
inline std::vector<FlowId> FlowIds(std::initializer_list<int32_t> ids) {
  std::vector<FlowId> out;
  for (int32_t f : ids) out.emplace_back(f);
  return out;
}
// A path's links from their numbers.
inline std::vector<LinkId> LinkIds(std::initializer_list<int32_t> ids) {
  std::vector<LinkId> out;
  for (int32_t l : ids) out.emplace_back(l);
  return out;
}

// Runs the solver until every flow completes; returns completion time per flow id.
inline std::vector<double> RunToCompletion(FluidSolver& s, int flows) {
  std::vector<double> done(flows, -1);
  double now = 0;
  std::vector<FlowId> out;
  s.Solve();
  while (s.ActiveFlowCount() > 0) {
    const double dt = s.NextCompletionIn();
    EXPECT_LT(dt, 1e9) << "starved flows";
    if (dt >= 1e9) break;
    s.Advance(dt);
    now += dt;
    out.clear();
    s.PopCompleted(out);
    for (FlowId f : out) done[f] = now;
    s.Solve();
  }
  return done;
}

// Textbook progressive filling on individual flows: raise every unfrozen flow's rate equally
// until a link saturates, freeze the flows crossing it, repeat. Slow and obviously right.
inline std::vector<double> ReferenceMaxMin(const std::vector<double>& capacity,
                                           const std::vector<std::vector<LinkId>>& paths) {
  std::vector<double> rate(paths.size(), 0), used(capacity.size(), 0);
  std::vector<bool> frozen(paths.size(), false);
  for (size_t left = paths.size(); left > 0;) {
    double delta = 1e300;
    for (size_t l = 0; l < capacity.size(); ++l) {
      const LinkId link{static_cast<int32_t>(l)};
      int n = 0;
      for (size_t f = 0; f < paths.size(); ++f) {
        if (!frozen[f] && std::count(paths[f].begin(), paths[f].end(), link)) ++n;
      }
      if (n > 0) delta = std::min(delta, (capacity[l] - used[l]) / n);
    }
    for (size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f]) continue;
      rate[f] += delta;
      for (LinkId l : paths[f]) used[l] += delta;
    }
    for (size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f]) continue;
      for (LinkId l : paths[f]) {
        if (used[l] >= capacity[l] * (1 - 1e-12)) {
          frozen[f] = true;
          --left;
          break;
        }
      }
    }
  }
  return rate;
}

// A big switch: source s sends on link s (a row of a dense matrix), destination d receives on
// link sources + d (a column). Links are the uplinks' capacities, then the downlinks'.
struct BigSwitch {
  int sources, destinations;
  int Links() const { return sources + destinations; }
  LinkId Up(int s) const { return LinkId{s}; }
  LinkId Down(int d) const { return LinkId{sources + d}; }
  FlowId Flow(int s, int d) const { return FlowId{s * destinations + d}; }
  PathId Path(FluidSolver& solver, int s, int d) const {
    const LinkId links[] = {Up(s), Down(d)};
    return solver.InternPath(links);
  }
  // One flow per (source, destination) pair, flow id Flow(s, d), each of `size` bytes in class
  // cls: a group per pair, a dense class from 64 pairs.
  void AddEveryPair(FluidSolver& solver, Bytes size, FlowClass cls) const {
    for (int s = 0; s < sources; ++s) {
      for (int d = 0; d < destinations; ++d) solver.Add(Flow(s, d), Path(solver, s, d), size, cls);
    }
  }
};

}  // namespace slotflow::testing
