#include "sim/invariants.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "api/tolerance.h"

namespace slotflow {
namespace {

[[noreturn]] void Fail(Seconds now, const std::string& what) {
  throw std::logic_error(fmt::format("invariant broken at t={:.9g} s: {}", now, what));
}

void CheckLinks(const Cluster& cluster, const FlowView& flows) {
  for (LinkId l{0}; l < flows.LinkCount(); ++l) {
    const BytesPerSecond cap = flows.LinkCapacity(l);
    if (flows.LinkLoad(l) > cap * (1 + kRelTolerance)) {
      Fail(flows.now(), fmt::format("link {} carries {} B/s over its capacity {} B/s",
                                    cluster.LinkName(l), flows.LinkLoad(l), cap));
    }
  }
}

void CheckServers(const Cluster& cluster, const SimState& state) {
  std::vector<int> ready_replicas(static_cast<size_t>(cluster.size()), 0);
  for (JobIndex j : state.active_jobs()) {
    int roots = 0;
    for (TaskId t : state.job(j).ready) {
      for (ServerId r : state.task(t).replicas) ++ready_replicas[r];
      roots += state.task(t).root;
    }
    if (roots != state.job(j).ready_roots) {
      Fail(state.now(), fmt::format("job {} counts {} ready root tasks; its ready list holds {}", j,
                                    state.job(j).ready_roots, roots));
    }
  }
  for (const Server& sv : cluster.servers()) {
    const ServerRuntime& rt = state.server(sv.id);
    if (rt.free_slots < 0 || rt.held_slots + rt.free_slots != sv.slots ||
        rt.held_slots < rt.running) {
      Fail(state.now(), fmt::format("server {} has {} tasks holding {} and {} free of {} slots",
                                    sv.id, rt.running, rt.held_slots, rt.free_slots, sv.slots));
    }
    if (rt.computing < 0 || rt.computing > rt.held_slots) {
      Fail(state.now(), fmt::format("server {} has {} slots computing of {} held", sv.id,
                                    rt.computing, rt.held_slots));
    }
    if (state.ready_replicas(sv.id) != ready_replicas[sv.id]) {
      Fail(state.now(), fmt::format("server {} counts {} ready tasks with a replica on it; the "
                                    "ready lists hold {}",
                                    sv.id, state.ready_replicas(sv.id), ready_replicas[sv.id]));
    }
    if (sv.memory > 0 && rt.free_memory < -kRelTolerance * sv.memory) {
      Fail(state.now(), fmt::format("server {} has promised {} B of memory over its {} B", sv.id,
                                    -rt.free_memory, sv.memory));
    }
  }
}

// A flow cannot have moved its bytes faster than the slowest link on its path.
void CheckFinished(const FlowView& flows, std::span<const FlowId> finished) {
  for (FlowId f : finished) {
    const FlowRecord& r = flows.flow(f);
    BytesPerSecond slowest = kForever;
    for (LinkId l : flows.Links(f)) slowest = std::min(slowest, flows.LinkCapacity(l));
    if (slowest == kForever) continue;  // a local transfer crosses no link
    const Seconds fastest = r.spec.size / slowest;
    if (r.finish - r.start < fastest * (1 - kRelTolerance) - kRelTolerance) {
      Fail(flows.now(), fmt::format("flow {} moved {} B in {} s, faster than its slowest link "
                                    "({} B/s) allows",
                                    f, r.spec.size, r.finish - r.start, slowest));
    }
  }
}

}  // namespace

void CheckInvariants(const Cluster& cluster, const SimState& state, const FlowView& flows,
                     std::span<const FlowId> finished) {
  CheckLinks(cluster, flows);
  CheckServers(cluster, state);
  CheckFinished(flows, finished);
}

}  // namespace slotflow
