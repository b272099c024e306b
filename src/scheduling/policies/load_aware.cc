// loadAware — NEAT+'s load-balancing baseline (NEAT+ §I, §II: "spreads the load evenly over all
// nodes"): each task goes to the server, among those with a free slot, whose downlink has the
// fewest bytes still to deliver (the remaining bytes of the flows arriving there; ours, see
// docs/readings.md: the paper does not define the load); ties: fewer running tasks, then
// setting ties (scheduling/tie_break.h). Input locality plays no part.
#include <utility>

#include "scheduling/first_fit.h"
#include "scheduling/tie_break.h"

namespace slotflow {
namespace {

constexpr uint64_t kSeedSalt = 0x6c6f616461776172ULL;  // "loadawar"

class LoadAwareScheduler : public TaskScheduler {
 public:
  explicit LoadAwareScheduler(const PolicyArgs& args)
      : order_(JobOrderOf(args.settings)), tie_(args.settings, args.seed, kSeedSalt) {}

  Decision Next(const SimState& state) override {
    const FlowView& net = state.flows();
    incoming_.assign(static_cast<size_t>(state.cluster().size()), 0);
    for (FlowId f : net.active_flows()) {
      const FlowSpec& fs = net.flow(f).spec;
      if (fs.src != fs.dst) incoming_[fs.dst] += net.Remaining(f);
    }
    auto least_loaded = [this](const SimState& st, TaskId t) {
      std::pair<Bytes, int> chosen;  // (bytes arriving, running tasks)
      return tie_.Smallest(
          Hosts(st, t), [&](ServerId s) { return std::pair(incoming_[s], st.server(s).running); },
          chosen);
    };
    Decision d = FirstFit(state, order_, jobs_, least_loaded, "least-loaded");
    if (d) d.why.Add("incoming_bytes", incoming_[d.server]);
    return d;
  }

 private:
  JobOrder order_;
  TieBreak tie_;
  std::vector<JobIndex> jobs_;
  std::vector<Bytes> incoming_;
};

}  // namespace

SLOTFLOW_REGISTER_TASK_SCHEDULER(
    "loadAware", "NEAT+'s baseline: the free server with the fewest bytes arriving (no locality)",
    BaselineSettings(), LoadAwareScheduler);

}  // namespace slotflow
