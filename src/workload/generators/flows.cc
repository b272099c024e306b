// The flows generator: NEAT+'s flow workloads, single transfers at a target load of the edge
// links (workload/flow_workload.h).
#include <cstdint>
#include <vector>

#include "workload/flow_workload.h"
#include "workload/generator.h"

namespace slotflow {
namespace {

std::vector<SettingSpec> FlowSettings() {
  return {{.name = "flow_sizes",
           .kind = SettingKind::kChoice,
           .default_value = "datamining",
           .meaning = "the size distribution, websearch (DCTCP) or datamining (VL2)",
           .choices = {"websearch", "datamining"}},
          {.name = "flow_load",
           .kind = SettingKind::kNumber,
           .default_value = "0.5",
           .meaning = "the mean load of the edge links (Poisson arrivals)",
           .min = 0,
           .max = 1,
           .min_exclusive = true,
           .choices = {}},
          {.name = "flows",
           .kind = SettingKind::kInteger,
           .default_value = "2000",
           .meaning = "the number of flows",
           .min = 1,
           .max = 1e7,
           .choices = {}}};
}

class FlowGenerator : public WorkloadGenerator {
 public:
  explicit FlowGenerator(const PolicyArgs& args) {
    options_.sizes = args.settings.Choice<FlowSizes>(
        "flow_sizes", {{"websearch", FlowSizes::kWebSearch}, {"datamining", FlowSizes::kDataMining}});
    options_.load = args.settings.Number("flow_load");
    options_.flows = static_cast<int>(args.settings.Integer("flows"));
    options_.seed = args.seed;
  }

  // The arrival rate follows from the cluster's NICs, so the flows are drawn for it.
  GeneratedWorkload Generate(const GeneratorInput& input) const override {
    BytesPerSecond total_nic = 0;
    for (const ServerClass& c : input.cluster.classes) total_nic += c.count * c.nic;
    Workload w = GenerateFlowWorkload(options_, input.cluster.ServerCount(), total_nic);
    std::string name = w.source;
    return {std::move(w), std::move(name), ""};
  }

 private:
  FlowWorkloadOptions options_;
};

}  // namespace

SLOTFLOW_REGISTER_GENERATOR("flows",
                            "NEAT+'s flow workloads: single transfers with web-search or "
                            "data-mining sizes at a target load, the receiver chosen by placement",
                            FlowSettings(), FlowGenerator);

}  // namespace slotflow
