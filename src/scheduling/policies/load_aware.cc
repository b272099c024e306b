// loadAware — NEAT+'s load-balancing baseline (seed 003 §II, §VII: "spreads the load evenly
// over all nodes"): each task goes to the server, among those with a free slot, whose downlink
// has the fewest bytes still to deliver (the remaining bytes of the flows arriving there; ours:
// the paper does not define the load); ties: fewer running tasks, then lower id. Input
// locality plays no part.
#include "scheduling/first_fit.h"

namespace slotflow {
namespace {

class LoadAwareScheduler : public TaskScheduler {
 public:
  explicit LoadAwareScheduler(const PolicyArgs& args) : order_(JobOrderOf(args.settings)) {}

  Decision Next(const SimState& state) override {
    const FlowView& net = state.flows();
    incoming_.assign(static_cast<size_t>(state.cluster().size()), 0);
    for (FlowId f : net.active_flows()) {
      const FlowSpec& fs = net.flow(f).spec;
      if (fs.src != fs.dst) incoming_[fs.dst] += net.Remaining(f);
    }
    auto least_loaded = [this](const SimState& st, TaskId t) {
      ServerId best = kNoServer;
      for (ServerId s : Hosts(st, t)) {
        if (best == kNoServer || incoming_[s] < incoming_[best] ||
            (incoming_[s] == incoming_[best] && st.server(s).running < st.server(best).running)) {
          best = s;
        }
      }
      return best;
    };
    Decision d = FirstFit(state, order_, jobs_, least_loaded, "least-loaded");
    if (d) d.why.Add("incoming_bytes", incoming_[d.server]);
    return d;
  }

 private:
  JobOrder order_;
  std::vector<JobIndex> jobs_;
  std::vector<Bytes> incoming_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "loadAware", "NEAT+'s baseline: the free server with the fewest bytes arriving (no locality)",
    {JobOrderSetting()}, LoadAwareScheduler);

}  // namespace slotflow
