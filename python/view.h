// What a Python task scheduler reads during one call (slotflow.View): the simulator's state as
// a C++ scheduler reads it (jobs and their stage DAGs, tasks, servers, racks, links, the flows
// in flight, where a task's input is) and NEAT+'s predictor under the network policy in force.
// Bulk reads come as numpy arrays; single objects (Task, Job, Stage, Server, Flow, Link) read
// through the view, so every one of them raises once its call has ended.
#pragma once

#include <string>

#include "api/neat_score.h"
#include "api/state.h"
#include "policies.h"

namespace slotflow {

// The state, and the predictors a View's predict() uses (owned by the scheduler).
class SchedulerView : public CallScoped<SimState> {
 public:
  SchedulerView(const SimState& state, NeatScore& full, NeatScore& own, const std::string& network)
      : CallScoped(state), full_(&full), own_(&own), network_(&network) {}
  NeatScore& score(bool full) const {
    get();  // raises once the call has ended
    return full ? *full_ : *own_;
  }
  const std::string& network() const { return *network_; }

 private:
  NeatScore* full_;
  NeatScore* own_;
  const std::string* network_;
};

// The flows and links a network policy's FlowNet reads; the scheduler's View offers the same.
using FlowNet = CallScoped<FlowView>;

// slotflow.View and the objects it hands out.
void BindView(py::module_& m);

// A View's tables (view_tables.cc), one numpy array per column.
// server_table(*columns): the named columns (all when none is named), one entry per server.
py::dict ServerTable(const SchedulerView& v, const py::args& columns);
// Every job of the workload, arrived or not, one entry each.
py::dict JobTable(const SchedulerView& v);
// The ready tasks of the active jobs (jobs in submission order, each job's in id order).
py::dict ReadyTable(const SchedulerView& v);
// Every (ready task, server) pair that may start now, as an (n, 2) array: jobs in submission
// order, each job's ready tasks in id order, servers in id order.
py::array_t<int64_t> Candidates(const SchedulerView& v);
// Per candidate: its task's job and input, whether the server holds the task's block, and the
// bytes the task would read over the network there.
py::dict CandidateTable(const SchedulerView& v);

// slotflow.Flow and slotflow.Link, which both a View and a FlowNet hand out.
void BindFlowObjects(py::module_& m);
// Tasks ever described (ids 0 .. TaskCount() - 1).
int64_t TaskCount(const SimState& state);
// A Flow / Link handle on flow f / link l of the network that `owner` (a View or a FlowNet)
// reads.
py::object FlowObject(py::handle owner, int64_t f);
py::object LinkObject(py::handle owner, int64_t l);
// A flow id from Python: IndexError when out of range, or when the flow finished at an earlier
// step and the network no longer keeps its record.
FlowId FlowOf(const FlowView& net, int64_t f);
// Every active flow's fields as numpy arrays (slotflow's flow_table()).
py::dict FlowTable(const FlowView& net);
// Every link's capacity and current load.
py::dict LinkTable(const FlowView& net);

}  // namespace slotflow
